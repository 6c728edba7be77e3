'use strict';

/** An in-memory store of items by id. */
function createStore() {
  const items = new Map();
  let nextId = 1;
  return {
    add(name) {
      const item = { id: nextId++, name };
      items.set(item.id, item);
      return item;
    },
    rename(id, name) {
      const item = items.get(id);
      if (item) item.name = name;
      return item;
    },
    remove(id) {
      return items.delete(id);
    },
  };
}

module.exports = { createStore };
