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
 */
export class MatchCollector {
  private items: GrepMatch[] = [];
  private countsByPath = new Map<string, number>();
  truncated = false;

  constructor(
    private readonly mode: GrepOutputMode,
    private readonly cap: number,
  ) {}

  /** Adds one file's matching lines (in line order). */
  addFile(path: string, matches: GrepMatch[]): void {
    if (matches.length === 0) return;
    if (this.mode === "content") {
      for (const m of matches) this.items.push(m);
    } else {
      this.items.push(matches[0] as GrepMatch);
      if (this.mode === "count") this.countsByPath.set(path, matches.length);
    }
    if (this.items.length > this.cap * 2 + 1000) this.shrink();
  }

  private shrink(): void {
    this.items.sort(compareMatch);
    if (this.items.length > this.cap) {
      this.truncated = true;
      for (const dropped of this.items.splice(this.cap)) this.countsByPath.delete(dropped.path);
    }
  }

  result(): { matches: GrepMatch[]; counts?: Record<string, number>; truncated: boolean } {
    this.shrink();
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
