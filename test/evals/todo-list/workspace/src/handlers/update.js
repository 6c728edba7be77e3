'use strict';

/** PUT /items/:id: renames the item input.id to input.name. */
function update(store, input) {
  return store.rename(input.id, input.name);
}

module.exports = { update };
