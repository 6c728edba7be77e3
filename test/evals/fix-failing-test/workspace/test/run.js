'use strict';

const assert = require('node:assert/strict');
const { nightsBetween, addDays } = require('../src/dates');
const { stayPrice } = require('../src/price');

const cases = {
  'three nights': () => assert.equal(nightsBetween('2024-03-01', '2024-03-04'), 3),
  'across a month end': () => assert.equal(nightsBetween('2024-01-30', '2024-02-02'), 3),
  'addDays': () => assert.equal(addDays('2024-02-28', 2), '2024-03-01'),
  'price of a stay': () => assert.equal(stayPrice('2024-03-01', '2024-03-04', 80), 240),
};
let failed = 0;
for (const [name, run] of Object.entries(cases)) {
  try {
    run();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed++;
    console.log(`not ok - ${name}: ${error.message.split('\n')[0]}`);
  }
}
console.log(`${Object.keys(cases).length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
