'use strict';

const { calcTotal } = require('./cart');

const FREE_SHIPPING_CENTS = 5000;

/** What the customer pays: free shipping from 50.00. */
function amountDue(items, shippingCents) {
  const total = calcTotal(items);
  return total >= FREE_SHIPPING_CENTS ? total : total + shippingCents;
}

module.exports = { amountDue };
