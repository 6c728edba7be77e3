'use strict';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A UTC date from "YYYY-MM-DD". */
function parseDay(text) {
  const [year, month, day] = text.split('-').map(Number);
  return Date.UTC(year, month - 1, day);
}

/** Nights between check-in and check-out ("2024-03-01" to "2024-03-04" is 3). */
function nightsBetween(checkIn, checkOut) {
  return Math.round((parseDay(checkOut) - parseDay(checkIn)) / DAY_MS) + 1;
}

/** The day `n` days after `text`, as "YYYY-MM-DD". */
function addDays(text, n) {
  return new Date(parseDay(text) + n * DAY_MS).toISOString().slice(0, 10);
}

module.exports = { parseDay, nightsBetween, addDays };
