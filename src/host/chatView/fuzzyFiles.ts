/**
 * Ranks workspace paths for the `@` file picker: the query's characters must appear in order
 * (case-insensitive); matches in the file name, at the start of a word or a path segment, and
 * runs of consecutive characters score higher; shorter paths win ties.
 */
export function rankPaths(paths: readonly string[], query: string, limit = 50): string[] {
  const q = query.toLowerCase().replace(/\s+/g, "");
  if (!q) return [...paths].sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, limit);
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = scorePath(path, q);
    if (score !== undefined) scored.push({ path, score });
  }
  scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}

/** Undefined when `query` (lower-case) is not a subsequence of `path`. */
export function scorePath(path: string, query: string): number | undefined {
  const lower = path.toLowerCase();
  const nameStart = lower.lastIndexOf("/") + 1;
  // Prefer matching inside the file name: try there first, then the whole path.
  return matchFrom(lower, query, nameStart, nameStart) ?? matchFrom(lower, query, 0, nameStart);
}

function matchFrom(text: string, query: string, from: number, nameStart: number): number | undefined {
  let score = 0;
  let at = from;
  let previous = -2;
  for (const char of query) {
    const found = text.indexOf(char, at);
    if (found === -1) return undefined;
    const boundary = found === 0 || "/._- ".includes(text[found - 1]!);
    score += 1 + (found === previous + 1 ? 3 : 0) + (boundary ? 2 : 0) + (found >= nameStart ? 2 : 0);
    previous = found;
    at = found + 1;
  }
  return score - text.length * 0.01;
}
