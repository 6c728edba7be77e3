'use strict';

const DEFAULTS = { retries: 3, baseDelayMs: 200, maxDelayMs: 5000 };

/** Server errors (5xx), 429 and network failures (no status) are worth another try. */
function isRetryable(error) {
  if (error.status === undefined) return true;
  return error.status === 429 || error.status >= 500;
}

/** The wait before retry number `n` (1-based): base × 2^(n−1), at most maxDelayMs. */
function delayFor(n, options) {
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (n - 1));
}

async function withRetry(fn, options) {
  const opts = { ...DEFAULTS, ...options };
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= opts.retries || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayFor(attempt + 1, opts)));
    }
  }
}

module.exports = { withRetry, delayFor, isRetryable, DEFAULTS };
