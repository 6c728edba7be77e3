'use strict';

const assert = require('node:assert/strict');
const { createStore } = require('../src/store');
const { create } = require('../src/handlers/create');
const { update } = require('../src/handlers/update');
const { remove } = require('../src/handlers/remove');

const store = createStore();
const cases = {
  'create adds an item': () => assert.deepEqual(create(store, { name: 'milk' }), { id: 1, name: 'milk' }),
  'create refuses a missing name': () => assert.throws(() => create(store, {}), TypeError),
  'create refuses an empty name': () => assert.throws(() => create(store, { name: '' }), TypeError),
  'update renames': () => assert.deepEqual(update(store, { id: 1, name: 'oat milk' }), { id: 1, name: 'oat milk' }),
  'update refuses a non-integer id': () => assert.throws(() => update(store, { id: '1', name: 'x' }), TypeError),
  'update refuses id 0': () => assert.throws(() => update(store, { id: 0, name: 'x' }), TypeError),
  'remove refuses a negative id': () => assert.throws(() => remove(store, { id: -3 }), TypeError),
  'remove refuses a fractional id': () => assert.throws(() => remove(store, { id: 1.5 }), TypeError),
  'remove removes': () => assert.equal(remove(store, { id: 1 }), true),
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
