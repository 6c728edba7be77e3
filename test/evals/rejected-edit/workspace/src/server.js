'use strict';

const defaults = require('./config');

/** The HTTP server's settings: the shared defaults, then the caller's options. */
function createServer(options = {}) {
  const settings = { ...defaults, ...options };
  return {
    timeout: settings.requestTimeoutMs,
    retries: settings.retries,
  };
}

module.exports = { createServer };
