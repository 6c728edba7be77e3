'use strict';

const { nightsBetween } = require('./dates');

/** The price of a stay: nightly rate × nights. */
function stayPrice(checkIn, checkOut, nightlyRate) {
  return nightsBetween(checkIn, checkOut) * nightlyRate;
}

module.exports = { stayPrice };
