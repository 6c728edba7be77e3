'use strict';

const { withRetry } = require('./retry');

/**
 * A small HTTP client. `options.retry` is passed to withRetry: false turns retrying off, a
 * number sets the retries, an object sets { retries, baseDelayMs, maxDelayMs }.
 */
function createClient(options = {}) {
  const retry = options.retry === false ? { retries: 0 } : typeof options.retry === 'number' ? { retries: options.retry } : options.retry;
  return {
    get: (url) => withRetry(() => fetch(url).then(checkStatus), retry),
  };
}

function checkStatus(response) {
  if (!response.ok) {
    const error = new Error(`HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return response;
}

module.exports = { createClient };
