import { Minimatch } from "minimatch";
import type { GrepOutputMode, GrepResult } from "../protocol";
import { MatchCollector, type SearchScope } from "./collect";
import { nodeGrep, nodeListFiles, readSmallFile, searchBuffer } from "./nodeSearch";
import { rgGrep, rgListFiles } from "./ripgrep";

/** Picks ripgrep when given one, else the Node engine; both give the same answers. */

export async function listFiles(rg: string | null, scope: SearchScope): Promise<string[] | { error: string }> {
  if (rg) {
    const r = await rgListFiles(rg, scope);
    if (Array.isArray(r)) return r;
  }
  return nodeListFiles(scope);
}

export async function grepFiles(
  rg: string | null,
  scope: SearchScope,
  pattern: string,
  mode: GrepOutputMode,
  cap: number,
): Promise<GrepResult> {
  let collector = new MatchCollector(mode, cap);
  if (rg) {
    const err = await rgGrep(rg, scope, pattern, collector, mode, cap);
    if (!err) return collector.result();
    collector = new MatchCollector(mode, cap);
  }
  await nodeGrep(scope, pattern, collector, mode === "files_with_matches");
  return collector.result();
}

/** Searches a single file (the same way with or without ripgrep). */
export async function grepOneFile(
  realPath: string,
  rel: string,
  pattern: string,
  mode: GrepOutputMode,
  cap: number,
  maxBytes: number,
): Promise<GrepResult> {
  const collector = new MatchCollector(mode, cap);
  const buf = await readSmallFile(realPath, maxBytes);
  if (buf) collector.addFile(rel, searchBuffer(buf, Buffer.from(pattern, "utf8"), rel, mode === "files_with_matches"));
  return collector.result();
}

/**
 * A glob filter for grep's `glob` argument: without a `/` it matches file names at any depth
 * (`*.md`); with one it matches the path below the searched folder (`docs/*.md`).
 */
export function grepGlobFilter(glob: string, startRel: string): (rel: string) => boolean {
  const pat = glob.replace(/^\/+/, "");
  const byName = !pat.includes("/");
  const mm = new Minimatch(pat, { dot: true });
  return (rel) => {
    const below = startRel === "" ? rel : rel.slice(startRel.length + 1);
    return mm.match(byName ? below.slice(below.lastIndexOf("/") + 1) : below);
  };
}
