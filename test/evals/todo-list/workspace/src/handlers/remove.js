'use strict';

/** DELETE /items/:id: removes the item input.id. */
function remove(store, input) {
  return store.remove(input.id);
}

module.exports = { remove };
