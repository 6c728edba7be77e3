import { Minimatch } from "minimatch";
import type { SearchScope } from "./collect";

/** A glob's pattern and the folder it starts from, checked; a leading `/` starts it at the root. */
export function globArgs(
  pattern: string,
  path?: string,
): { pattern: string; base: string | undefined } | { error: string } {
  if (typeof pattern !== "string" || pattern.trim() === "") return { error: "pattern must be a glob such as **/*.ts." };
  const fromRoot = pattern.startsWith("/");
  const pat = fromRoot ? pattern.replace(/^\/+/, "") : pattern;
  if (pat.split("/").includes("..")) return { error: "glob patterns may not contain '..'." };
  return { pattern: pat, base: fromRoot ? "/" : path };
}

/** Narrows a search scope to the files `pat` (relative to the scope's start folder) matches. */
export function narrowToGlob(sc: SearchScope, pat: string): void {
  const mm = new Minimatch(pat, { dot: true });
  const skip = sc.startRel === "" ? 0 : sc.startRel.length + 1;
  const ignoreOk = sc.keep;
  // The pattern is checked with the ignore rules, as paths arrive (while rg is still walking).
  // `**/*.ext`, the commonest glob: with `dot`, minimatch matches exactly the paths ending in
  // `.ext` (`**` takes any folders, `*` any name, even an empty one), so skip its matcher.
  const ext = /^\*\*\/\*(\.[A-Za-z0-9_]+)$/.exec(pat)?.[1];
  if (ext) sc.keep = (rel) => ignoreOk(rel) && rel.endsWith(ext);
  else
    sc.keep =
      skip === 0 ? (rel) => ignoreOk(rel) && mm.match(rel) : (rel) => ignoreOk(rel) && mm.match(rel.slice(skip));
  const last = pat.slice(pat.lastIndexOf("/") + 1);
  // A simple last segment (`*.ts`, `*.{ts,tsx}`) must match the file name: let rg narrow by it.
  if (/^[A-Za-z0-9_.*{},-]+$/.test(last) && !last.includes("**")) sc.nameGlob = last;
}
