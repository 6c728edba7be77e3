'use strict';

/** POST /items: adds an item named input.name. */
function create(store, input) {
  return store.add(input.name);
}

module.exports = { create };
