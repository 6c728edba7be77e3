'use strict';

/** The line shown when someone arrives. */
function greet(name) {
  return `Hello, ${name}.`;
}

/** The line shown when someone leaves. */
function farewell(name) {
  return `Goodbye, ${name}.`;
}

module.exports = { greet, farewell };
