'use strict';

/** Defaults shared by every service in this repository. */
module.exports = {
  requestTimeoutMs: 10000,
  retries: 2,
};
