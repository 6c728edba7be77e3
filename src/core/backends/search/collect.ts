import type { GrepMatch, GrepOutputMode } from "../protocol";

/** Longest line text kept in a grep match (characters). */
export const MAX_MATCH_TEXT = 1000;

export function compareMatch(a: GrepMatch, b: GrepMatch): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line;
}

export function cleanLine(text: string): string {
  let t = text;
  if (t.endsWith("\n")) t = t.slice(0, -1);
  if (t.endsWith("\r")) t = t.slice(0, -1);
  return t.length > MAX_MATCH_TEXT ? t.slice(0, MAX_MATCH_TEXT) + "…" : t;
}

/**
 * Collects grep results whatever order they arrive in, keeping the `cap` smallest by path and
 * line, so the answer (and its truncation) is the same for ripgrep and the Node fallback.
 * In `files_with_matches` and `count` modes the cap counts files.
 *
 * Once more than `cap` results were seen, the largest one kept is a bound: anything after it
 * can never be kept, so it is dropped at once (`wants` lets an engine skip the work of building
 * it). The kept set is trimmed by selection, not by sorting it again each time.
 */
export class MatchCollector {
  private items: GrepMatch[] = [];
  private countsByPath = new Map<string, number>();
  /** Every result after this one is dropped (set once the cap was exceeded). */
  private bound: GrepMatch | null = null;
  private readonly slack: number;
  truncated = false;

  constructor(
    private readonly mode: GrepOutputMode,
    private readonly cap: number,
  ) {
    this.slack = Math.max(cap, 4096);
  }

  /** False when a result at this path and line would be dropped anyway. */
  wants(path: string, line: number): boolean {
    const b = this.bound;
    if (b === null || path < b.path || (path === b.path && line < b.line)) return true;
    this.truncated = true;
    return false;
  }

  /** Adds one file's matching lines (in line order). */
  addFile(path: string, matches: GrepMatch[]): void {
    if (matches.length === 0) return;
    this.addSummary(path, matches, matches.length);
  }

  /**
   * Adds one file given its first matching lines in line order (all of them in `content` mode,
   * at least the first otherwise) and its number of matching lines.
   */
  addSummary(path: string, matches: GrepMatch[], count: number): void {
    if (matches.length === 0 || count === 0) return;
    if (this.mode === "content") {
      for (const m of matches) {
        if (!this.wants(m.path, m.line)) break; // the rest of this file comes later still
        this.items.push(m);
      }
    } else {
      const first = matches[0] as GrepMatch;
      if (!this.wants(first.path, first.line)) return;
      this.items.push(first);
      if (this.mode === "count") this.countsByPath.set(path, count);
    }
    if (this.items.length > this.cap + this.slack) this.trim(false);
  }

  /** Keeps the `cap` smallest items (sorted when `sort`), and sets the bound if any were dropped. */
  private trim(sort: boolean): void {
    if (this.items.length > this.cap) {
      this.truncated = true;
      selectSmallest(this.items, this.cap, compareMatch);
      for (const dropped of this.items.splice(this.cap)) this.countsByPath.delete(dropped.path);
      // (cap 0 keeps nothing: a bound before every result)
      let max: GrepMatch = this.items[0] ?? { path: "", line: -Infinity, text: "" };
      for (const m of this.items) if (compareMatch(m, max) > 0) max = m;
      this.bound = max;
    }
    if (sort) this.items.sort(compareMatch);
  }

  result(): { matches: GrepMatch[]; counts?: Record<string, number>; truncated: boolean } {
    this.trim(true);
    const out: { matches: GrepMatch[]; counts?: Record<string, number>; truncated: boolean } = {
      matches: this.items,
      truncated: this.truncated,
    };
    if (this.mode === "count") {
      const counts: Record<string, number> = {};
      for (const m of this.items) counts[m.path] = this.countsByPath.get(m.path) ?? 0;
      out.counts = counts;
    }
    return out;
  }
}

/**
 * Reorders `items` so that its first `k` elements are the `k` smallest (in no particular order):
 * quickselect with a median-of-three pivot, falling back to a sort on pathological input.
 */
export function selectSmallest<T>(items: T[], k: number, cmp: (a: T, b: T) => number): void {
  if (k <= 0 || k >= items.length) return;
  const target = k - 1; // afterwards items[0..target] are the k smallest
  let lo = 0;
  let hi = items.length - 1;
  for (let rounds = 0; hi > lo; rounds++) {
    if (rounds > 64) {
      items.sort(cmp);
      return;
    }
    const a = items[lo] as T;
    const b = items[(lo + hi) >>> 1] as T;
    const c = items[hi] as T;
    const pivot =
      cmp(a, b) < 0 ? (cmp(b, c) < 0 ? b : cmp(a, c) < 0 ? c : a) : cmp(a, c) < 0 ? a : cmp(b, c) < 0 ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (cmp(items[i] as T, pivot) < 0) i++;
      while (cmp(items[j] as T, pivot) > 0) j--;
      if (i <= j) {
        const t = items[i] as T;
        items[i++] = items[j] as T;
        items[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return;
  }
}

/** What both search engines need to know about one search. */
export interface SearchScope {
  realRoot: string;
  /** Root-relative posix path of the folder to search ("" for the root). */
  startRel: string;
  /** Keeps a root-relative path (ignore rules above the start folder, `.fathomignore`, glob filter). */
  keep: (rel: string) => boolean;
  /** Files larger than this are skipped by grep. */
  maxFileBytes: number;
  signal?: AbortSignal;
  /**
   * Optional speed-up for ripgrep only: a glob every kept file's name matches (rg `-g`). It may
   * only narrow what `keep` would drop anyway, so both engines still agree.
   */
  nameGlob?: string;
}

/**
 * The `cap` smallest of `items`, sorted by UTF-16 code units like `<`. Reorders `items`. It
 * selects first and sorts just what is kept, instead of sorting everything: a glob over 25,000
 * files returns 1,000. (The same quickselect as `selectSmallest`, written out for strings so
 * that each comparison is a plain `<`: a comparator call per comparison doubled its time.)
 */
export function sortedHead(items: string[], cap: number): string[] {
  const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  if (cap <= 0) return [];
  if (items.length <= cap) return items.sort(byCode);
  const k = cap - 1; // afterwards items[0..k] are the cap smallest
  let lo = 0;
  let hi = items.length - 1;
  for (let rounds = 0; hi > lo; rounds++) {
    if (rounds > 64) return items.sort(byCode).slice(0, cap); // pathological input: plain sort
    const a = items[lo] as string;
    const b = items[(lo + hi) >>> 1] as string;
    const c = items[hi] as string;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((items[i] as string) < pivot) i++;
      while ((items[j] as string) > pivot) j--;
      if (i <= j) {
        const t = items[i] as string;
        items[i++] = items[j] as string;
        items[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return items.slice(0, cap).sort(byCode);
}

/** Maps `items` through an async function with at most `limit` calls in flight; keeps order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
