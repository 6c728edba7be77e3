'use strict';

const defaults = require('./config');

/** The background worker: it relies on the shared request timeout. */
function createWorker(options = {}) {
  return { timeout: options.requestTimeoutMs ?? defaults.requestTimeoutMs };
}

module.exports = { createWorker };
