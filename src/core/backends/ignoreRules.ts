import { promises as fsp } from "node:fs";
import * as nodePath from "node:path";
import ignore, { type Ignore } from "ignore";

/**
 * Ignore rules shared by the search paths (ripgrep and the Node fallback) and the guards:
 * - `.fathomignore` at the root (gitignore syntax) hides paths from every operation;
 * - `.gitignore` files (any folder) hide paths from `grep` and `glob`;
 * - `.git/` is always skipped by searches and never written.
 */

export const FATHOM_IGNORE = ".fathomignore";
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** Reads an ignore file if it is a regular file (not a link) of sane size. */
export async function loadIgnoreFile(realPath: string): Promise<Ignore | null> {
  try {
    const st = await fsp.lstat(realPath);
    if (!st.isFile() || st.size > MAX_IGNORE_FILE_BYTES) return null;
    const text = await fsp.readFile(realPath, "utf8");
    return ignore().add(text);
  } catch {
    return null;
  }
}

export interface ScopedIgnore {
  /** Folder (relative to the root, posix, "" for the root) holding the ignore file. */
  base: string;
  ig: Ignore;
}

/** Decides a path against a chain of `.gitignore` files, deepest first (git's precedence). */
export function ignoredByChain(chain: readonly ScopedIgnore[], rel: string, isDir: boolean): boolean {
  for (let i = chain.length - 1; i >= 0; i--) {
    const { base, ig } = chain[i] as ScopedIgnore;
    const sub = base === "" ? rel : rel.startsWith(base + "/") ? rel.slice(base.length + 1) : null;
    if (!sub) continue;
    const r = ig.test(isDir ? sub + "/" : sub);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

export class IgnoreRules {
  private fathom: { key: string; ig: Ignore | null } | null = null;

  constructor(private readonly realRoot: string) {}

  /** The root's `.fathomignore`, reloaded when it changes. */
  async fathomIgnore(): Promise<Ignore | null> {
    const file = nodePath.join(this.realRoot, FATHOM_IGNORE);
    let key = "none";
    try {
      const st = await fsp.lstat(file);
      key = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      /* no file */
    }
    if (this.fathom && this.fathom.key === key) return this.fathom.ig;
    const ig = key === "none" ? null : await loadIgnoreFile(file);
    this.fathom = { key, ig };
    return ig;
  }

  /** True when `.fathomignore` hides this root-relative posix path (or one of its folders). */
  async isHidden(rel: string, isDir = false): Promise<boolean> {
    if (rel === "") return false;
    const ig = await this.fathomIgnore();
    if (!ig) return false;
    return ig.ignores(rel) || (isDir && ig.ignores(rel + "/"));
  }

  /**
   * A filter for search results under `startRel`: applies `.fathomignore` and the `.gitignore`
   * files of the folders above `startRel` (ripgrep is told not to read those itself). If the
   * start folder itself is git-ignored, the person asked for it explicitly: only `.fathomignore`
   * applies then.
   */
  async searchFilter(startRel: string): Promise<(rel: string) => boolean> {
    const fathom = await this.fathomIgnore();
    const chain: ScopedIgnore[] = [];
    if (startRel !== "") {
      const segs = startRel.split("/");
      for (let i = 0; i < segs.length; i++) {
        const base = segs.slice(0, i).join("/");
        const ig = await loadIgnoreFile(nodePath.join(this.realRoot, ...segs.slice(0, i), ".gitignore"));
        if (ig) chain.push({ base, ig });
      }
      if (ignoredByChain(chain, startRel, true)) chain.length = 0;
    }
    return (rel) => {
      if (fathom && fathom.ignores(rel)) return false;
      if (chain.length && ignoredByChain(chain, rel, false)) return false;
      return true;
    };
  }
}

/** Whether a root-relative posix path lies in a `.git` folder (searches skip it; writes refuse it). */
export function inGitDir(rel: string): boolean {
  // Any case: on case-insensitive file systems `.GIT/config` is `.git/config`.
  const r = rel.toLowerCase();
  return r === ".git" || r.startsWith(".git/") || r.includes("/.git/") || r.endsWith("/.git");
}
