'use strict';

const fs = require('node:fs');

/** Reads "name=value" lines (blank lines and # comments skipped); values are numbers. */
function readEntries(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [name, value] = line.split('=');
      return { name: name.trim(), value: Number(value) };
    });
}

module.exports = { readEntries };
