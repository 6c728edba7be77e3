'use strict';

const cart = require('./cart');

/** One line per order: its id and total. */
function orderLines(orders) {
  return orders.map((order) => `${order.id}\t${(cart.calcTotal(order.items) / 100).toFixed(2)}`);
}

/** Sum over all orders. */
function grandTotal(orders) {
  return orders.reduce((sum, order) => sum + cart.calcTotal(order.items), 0);
}

module.exports = { orderLines, grandTotal };
