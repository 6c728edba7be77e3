'use strict';

const assert = require('node:assert/strict');
const { calcTotal, summary } = require('../src/cart');
const { amountDue } = require('../src/checkout');
const { orderLines, grandTotal } = require('../src/report');

const items = [
  { priceCents: 1250, quantity: 2 },
  { priceCents: 399, quantity: 1 },
];
const cases = {
  'calcTotal sums price times quantity': () => assert.equal(calcTotal(items), 2899),
  'summary counts items': () => assert.deepEqual(summary(items), { count: 2, totalCents: 2899 }),
  'shipping is added under 50.00': () => assert.equal(amountDue(items, 495), 3394),
  'report lines': () => assert.deepEqual(orderLines([{ id: 'A1', items }]), ['A1\t28.99']),
  'grand total': () => assert.equal(grandTotal([{ id: 'A1', items }, { id: 'A2', items }]), 5798),
};
let failed = 0;
for (const [name, run] of Object.entries(cases)) {
  try {
    run();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed++;
    console.log(`not ok - ${name}: ${error.message}`);
  }
}
console.log(`${Object.keys(cases).length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
