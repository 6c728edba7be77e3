'use strict';

/** One "name: value" line per entry. */
function formatText(entries) {
  return entries.map((entry) => `${entry.name}: ${entry.value}`).join('\n');
}

module.exports = { formatText };
