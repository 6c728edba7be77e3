'use strict';

/** Sum of price × quantity over the items, in cents. */
function calcTotal(items) {
  return items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
}

/** A cart's items with the total. */
function summary(items) {
  return { count: items.length, totalCents: calcTotal(items) };
}

module.exports = { calcTotal, summary };
