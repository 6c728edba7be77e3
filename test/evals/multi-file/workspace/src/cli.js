#!/usr/bin/env node
'use strict';

const { formatText } = require('./format');
const { readEntries } = require('./entries');

function main(argv) {
  const file = argv[0];
  if (!file) {
    console.error('usage: node src/cli.js FILE');
    return 2;
  }
  console.log(formatText(readEntries(file)));
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main };
