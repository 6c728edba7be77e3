import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as nodePath from "node:path";
import type { GrepOutputMode } from "../protocol";
import { FATHOM_IGNORE } from "../ignoreRules";
import { sortedHead, type MatchCollector, type SearchScope } from "./collect";
import { readSmallFile, readSmallFileSync, searchBuffer } from "./nodeSearch";

/**
 * The ripgrep search engine. Flags pin down the behaviour that `nodeSearch.ts` reproduces:
 * literal (`-F`), no config file, no encoding sniffing, hidden files included, `.git` skipped,
 * `.gitignore` honoured without needing a git repository, but no global/parent/.ignore files.
 */

const cache = new Map<string, string | null>();

/** Finds a working `rg`: a given path (VS Code's bundled one), else `rg` on PATH. Cached. */
export function findRipgrep(explicit?: string | null): string | null {
  if (explicit === null) return null;
  const key = explicit ?? "<PATH>";
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let found: string | null = null;
  const candidates = explicit ? [explicit] : pathCandidates();
  for (const c of candidates) {
    if (!existsSync(c)) continue;
    const r = spawnSync(c, ["--version"], { encoding: "utf8", timeout: 5000 });
    if (r.status === 0 && /ripgrep/.test(r.stdout)) {
      found = c;
      break;
    }
  }
  cache.set(key, found);
  return found;
}

function pathCandidates(): string[] {
  const exe = process.platform === "win32" ? "rg.exe" : "rg";
  return (process.env.PATH ?? "")
    .split(nodePath.delimiter)
    .filter(Boolean)
    .map((d) => nodePath.join(d, exe));
}

function baseArgs(scope: SearchScope): string[] {
  const args = [
    "--no-config",
    "--hidden",
    "--no-require-git",
    "--no-ignore-parent",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--no-ignore-dot",
    "--glob",
    "!.git",
  ];
  if (existsSync(nodePath.join(scope.realRoot, FATHOM_IGNORE))) args.push("--ignore-file", FATHOM_IGNORE);
  return args;
}

function startArg(scope: SearchScope): string {
  return scope.startRel === "" ? "./" : "./" + scope.startRel;
}

function relOf(p: string): string {
  return p.startsWith("./") ? p.slice(2) : p;
}

interface RunResult {
  code: number | null;
  stderr: string;
}

/** Runs rg in the root, handing complete stdout lines (split on `sep`) to `onLine`. */
function run(
  rg: string,
  args: string[],
  scope: SearchScope,
  sep: string,
  onLine: (line: string) => void,
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(rg, args, { cwd: scope.realRoot, stdio: ["ignore", "pipe", "pipe"] });
    let rest = "";
    let stderr = "";
    const abort = (): void => void child.kill();
    scope.signal?.addEventListener("abort", abort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const parts = (rest + chunk).split(sep);
      rest = parts.pop() ?? "";
      for (const p of parts) onLine(p);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => {
      if (stderr.length < 4000) stderr += c;
    });
    child.on("error", (e) => resolve({ code: -1, stderr: String(e) }));
    child.on("close", (code) => {
      scope.signal?.removeEventListener("abort", abort);
      if (rest) onLine(rest);
      resolve({ code, stderr });
    });
  });
}

/** Lists regular files under the start folder (root-relative, unsorted). */
export async function rgListFiles(rg: string, scope: SearchScope): Promise<string[] | { error: string }> {
  const out: string[] = [];
  // A file type rather than `--glob`: rg's globs override ignore files, types do not.
  const narrow = scope.nameGlob ? ["--type-add", `fathomname:${scope.nameGlob}`, "--type", "fathomname"] : [];
  const args = ["--files", "--null", ...baseArgs(scope), ...narrow, "--", startArg(scope)];
  const r = await run(rg, args, scope, "\0", (p) => {
    const rel = relOf(p);
    if (!rel.includes("\uFFFD") && scope.keep(rel)) out.push(rel);
  });
  if (r.code !== 0 && r.code !== 1) return { error: `ripgrep failed: ${r.stderr.trim() || `exit ${r.code}`}` };
  return out;
}

/**
 * Literal search. rg only finds the candidates: `rg -l` lists the files with a match, stopping
 * at each file's first match (so it reads far less than a full search and prints only paths).
 * The list is a superset of what the Node engine keeps: rg drops a file when it meets a NUL
 * byte before or near the first match, but not one further on, and does not check the size
 * limit. So the candidates are taken in path order and each one is read and searched by the
 * Node engine's own `searchBuffer` (which drops files with a NUL byte anywhere) until the
 * collector has more than it keeps: `cap` + 1 files, or in `content` mode `cap` + 1 matches.
 * Results come after in path order only, so nothing after that point could be kept.
 */
export async function rgGrep(
  rg: string,
  scope: SearchScope,
  pattern: string,
  collector: MatchCollector,
  mode: GrepOutputMode,
  cap: number,
): Promise<{ error: string } | null> {
  // No `--max-filesize`: it makes rg stat every file, which profiled at about +40% wall time on a
  // 100,000-file tree. Over-limit files are dropped when read below.
  const args = [
    "--files-with-matches",
    "--null",
    "--fixed-strings",
    "--case-sensitive",
    "--encoding",
    "none",
    ...baseArgs(scope),
    "-e",
    pattern,
    "--",
    startArg(scope),
  ];
  const found: string[] = [];
  const r = await run(rg, args, scope, "\0", (p) => {
    const rel = relOf(p);
    // A path that is not valid UTF-8 cannot be named by the Node engine either.
    if (!rel.includes("\uFFFD") && scope.keep(rel)) found.push(rel);
  });
  if (r.code !== 0 && r.code !== 1 && !scope.signal?.aborted) {
    return { error: `ripgrep failed: ${r.stderr.trim() || `exit ${r.code}`}` };
  }
  if (scope.signal?.aborted) return null;
  await verifyInOrder(scope, found, Buffer.from(pattern, "utf8"), collector, mode, cap);
  return null;
}

/**
 * Reads and searches `paths` in path order until `collector` has enough. Reads are synchronous
 * in short slices, yielding to the event loop between them (a cached read of a small file is a
 * few syscalls, while the async calls cost far more in thread-pool and promise overhead:
 * profiled at about 50 ms against 20 ms for 500 files); once a slice is slow (network drives,
 * cold caches) the rest is read with async calls, so the event loop is never blocked for long.
 */
async function verifyInOrder(
  scope: SearchScope,
  paths: string[],
  needle: Buffer,
  collector: MatchCollector,
  mode: GrepOutputMode,
  cap: number,
): Promise<void> {
  const firstOnly = mode === "files_with_matches";
  // Usually the first cap + 1 paths are all it takes; sort the rest only if they are not.
  // (The head is the sorted start of the full order, so going on from where it ends is right.)
  let order = sortedHead(paths.slice(), cap + 1);
  let kept = 0; // files (or matches in `content` mode) added so far
  let sync = true;
  let sliceStart = performance.now();
  let inSlice = 0;
  for (let i = 0; kept <= cap; i++) {
    if (i >= order.length) {
      if (order.length >= paths.length) break;
      order = paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
    if (scope.signal?.aborted) return;
    const rel = order[i] as string;
    const real = nodePath.join(scope.realRoot, ...rel.split("/"));
    const buf = sync ? readSmallFileSync(real, scope.maxFileBytes) : await readSmallFile(real, scope.maxFileBytes);
    if (sync && ++inSlice >= SLICE_FILES) {
      if (performance.now() - sliceStart > SLOW_SLICE_MS) sync = false;
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
      inSlice = 0;
    }
    if (!buf) continue;
    const ms = searchBuffer(buf, needle, rel, firstOnly);
    if (ms.length === 0) continue;
    collector.addFile(rel, ms);
    kept += mode === "content" ? ms.length : 1;
  }
}

const SLICE_FILES = 32;
/** A slice slower than this means the file system is not answering from a cache. */
const SLOW_SLICE_MS = 8;
