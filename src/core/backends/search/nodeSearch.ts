import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  openSync,
  promises as fsp,
  readFileSync,
  type Dirent,
} from "node:fs";
import * as nodePath from "node:path";
import type { Ignore } from "ignore";
import type { GrepMatch } from "../protocol";
import { FATHOM_IGNORE, ignoredByChain, loadIgnoreFile, type ScopedIgnore } from "../ignoreRules";
import { O_NOFOLLOW } from "../pathGuard";
import { cleanLine, type MatchCollector, type SearchScope } from "./collect";

/**
 * The pure-Node search engine, used when ripgrep is not available. It reproduces the ripgrep
 * invocation of `ripgrep.ts`: hidden files included, `.git` skipped, symbolic links and special
 * files skipped, `.gitignore` files honoured in every folder (deepest wins), `.fathomignore`
 * pruning, files over the size limit and files with NUL bytes skipped.
 */

/** Lists regular files under the scope's start folder (root-relative posix paths, unsorted). */
export async function nodeListFiles(scope: SearchScope): Promise<string[]> {
  const out: string[] = [];
  const fathom = await loadIgnoreFile(nodePath.join(scope.realRoot, FATHOM_IGNORE));
  await walk(scope, scope.startRel, [], fathom, out);
  return out.filter(scope.keep);
}

async function walk(
  scope: SearchScope,
  dirRel: string,
  chain: ScopedIgnore[],
  fathom: Ignore | null,
  out: string[],
): Promise<void> {
  if (scope.signal?.aborted) return;
  const dirReal = dirRel ? nodePath.join(scope.realRoot, ...dirRel.split("/")) : scope.realRoot;
  let entries: Dirent[];
  try {
    entries = await fsp.readdir(dirReal, { withFileTypes: true });
  } catch {
    return;
  }
  const gi = entries.some((e) => e.name === ".gitignore" && e.isFile())
    ? await loadIgnoreFile(nodePath.join(dirReal, ".gitignore"))
    : null;
  const here = gi ? [...chain, { base: dirRel, ig: gi }] : chain;
  const subdirs: string[] = [];
  for (const e of entries) {
    const name = e.name;
    if (name === ".git" || name.includes("\uFFFD")) continue;
    const rel = dirRel ? `${dirRel}/${name}` : name;
    if (e.isDirectory()) {
      if (ignoredByChain(here, rel, true)) continue;
      if (fathom && fathom.ignores(rel + "/")) continue;
      subdirs.push(rel);
    } else if (e.isFile()) {
      if (ignoredByChain(here, rel, false)) continue;
      if (fathom && fathom.ignores(rel)) continue;
      out.push(rel);
    }
  }
  // A few folders at a time: enough parallelism for the disk, bounded memory.
  for (let i = 0; i < subdirs.length; i += 8) {
    await Promise.all(subdirs.slice(i, i + 8).map((d) => walk(scope, d, here, fathom, out)));
  }
}

/** Searches one file's bytes for a literal; returns its matching lines, or [] when binary. */
export function searchBuffer(buf: Buffer, needle: Buffer, path: string, firstOnly: boolean): GrepMatch[] {
  const out: GrepMatch[] = [];
  let hit = buf.indexOf(needle);
  if (hit === -1 || buf.includes(0)) return out;
  let line = 1;
  let counted = 0; // newlines counted up to this byte offset
  while (hit !== -1) {
    for (let i = buf.indexOf(10, counted); i !== -1 && i < hit; i = buf.indexOf(10, i + 1)) line++;
    const start = buf.lastIndexOf(10, hit) + 1;
    let end = buf.indexOf(10, hit + needle.length - 1);
    if (end === -1) end = buf.length;
    out.push({ path, line, text: cleanLine(buf.toString("utf8", start, end)) });
    if (firstOnly || end >= buf.length) break;
    line++;
    counted = end + 1;
    hit = buf.indexOf(needle, end + 1);
  }
  return out;
}

/** Reads one regular file (no links) if it fits the size limit. */
export async function readSmallFile(realPath: string, maxBytes: number): Promise<Buffer | null> {
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(realPath, fsp.constants.O_RDONLY | O_NOFOLLOW | fsp.constants.O_NONBLOCK);
    const st = await fh.stat();
    if (!st.isFile() || st.size > maxBytes) return null;
    return await fh.readFile();
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** `readSmallFile`, synchronously. */
export function readSmallFileSync(realPath: string, maxBytes: number): Buffer | null {
  let fd = -1;
  try {
    fd = openSync(realPath, fsConstants.O_RDONLY | O_NOFOLLOW | fsConstants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    if (fd !== -1) closeSync(fd);
  }
}

export async function nodeGrep(
  scope: SearchScope,
  pattern: string,
  collector: MatchCollector,
  firstOnly: boolean,
): Promise<void> {
  const files = await nodeListFiles(scope);
  const needle = Buffer.from(pattern, "utf8");
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length && !scope.signal?.aborted) {
      const rel = files[next++] as string;
      const buf = await readSmallFile(nodePath.join(scope.realRoot, ...rel.split("/")), scope.maxFileBytes);
      if (!buf) continue;
      collector.addFile(rel, searchBuffer(buf, needle, rel, firstOnly));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}
