import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as nodePath from "node:path";
import type { GrepMatch } from "../protocol";
import { FATHOM_IGNORE } from "../ignoreRules";
import { cleanLine, type MatchCollector, type SearchScope } from "./collect";

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
  return (process.env.PATH ?? "").split(nodePath.delimiter).filter(Boolean).map((d) => nodePath.join(d, exe));
}

function baseArgs(scope: SearchScope): string[] {
  const args = [
    "--no-config", "--hidden", "--no-require-git", "--no-ignore-parent", "--no-ignore-global",
    "--no-ignore-exclude", "--no-ignore-dot", "--glob", "!.git",
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

interface RunResult { code: number | null; stderr: string }

/** Runs rg in the root, handing complete stdout lines (split on `sep`) to `onLine`. */
function run(rg: string, args: string[], scope: SearchScope, sep: string, onLine: (line: string) => void): Promise<RunResult> {
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
 * Literal search with `rg --json`; files in which rg met a NUL byte are dropped (binary).
 * rg prints, per file with matches, a `begin` line, one `match` line per matching line and an
 * `end` line (which tells whether the file was binary). Only what the result needs is decoded:
 * the path once per file, and a match's text only when it can be kept (every match in `content`
 * mode, the first per file otherwise).
 */
export async function rgGrep(rg: string, scope: SearchScope, pattern: string, collector: MatchCollector, content = true): Promise<{ error: string } | null> {
  // No `--max-filesize`: it makes rg stat every file, which profiled at about +40% wall time on a
  // 100,000-file tree. Files over the limit are dropped here instead, from the byte count rg
  // reports for each file with matches (the whole file: binary files, which rg stops reading
  // early, are dropped anyway). The cost: an over-limit file with matches is still read by rg.
  const args = [
    "--json", "--fixed-strings", "--case-sensitive", "--encoding", "none",
    ...baseArgs(scope), "-e", pattern, "--", startArg(scope),
  ];
  let current: string | null = null; // root-relative path of the file being reported; null: skip it
  let pending: GrepMatch[] = [];
  let count = 0;
  const r = await run(rg, args, scope, "\n", (line) => {
    const kind = line.charCodeAt(9); // {"type":"b... / "m... / "e...
    if (kind === 98 /* b */ && line.startsWith('{"type":"begin"')) {
      const path = (JSON.parse(line) as { data: { path: RgData } }).data.path.text;
      // A path that is not valid UTF-8 cannot be named by the Node engine either.
      current = path === undefined || path.includes("\uFFFD") ? null : relOf(path);
      if (current !== null && !scope.keep(current)) current = null;
      pending = [];
      count = 0;
    } else if (kind === 109 /* m */) {
      if (current === null) return;
      count++;
      if (!content && count > 1) return;
      const m = parseMatch(line);
      if (content && !collector.wants(current, m.line_number)) return;
      pending.push({ path: current, line: m.line_number, text: cleanLine(textOf(m.lines)) });
    } else if (kind === 101 /* e */ && line.startsWith('{"type":"end"')) {
      if (current !== null && line.includes('"binary_offset":null') && bytesSearched(line) <= scope.maxFileBytes) {
        collector.addSummary(current, pending, count);
      }
      current = null;
      pending = [];
      count = 0;
    }
  });
  if (r.code !== 0 && r.code !== 1 && !scope.signal?.aborted) {
    return { error: `ripgrep failed: ${r.stderr.trim() || `exit ${r.code}`}` };
  }
  return null;
}

interface RgData { text?: string; bytes?: string }
interface RgMatch { lines: RgData; line_number: number }

const MATCH_HEAD = '{"type":"match","data":{"path":';

/**
 * Reads `lines` and `line_number` of a `match` line without parsing the rest (path again,
 * offsets, submatches). Safe to cut on `,"lines":` and `,"line_number":`: inside a JSON string
 * every `"` is escaped, so these sequences only occur as keys. Falls back to a full parse.
 */
function parseMatch(line: string): RgMatch {
  if (line.startsWith(MATCH_HEAD)) {
    const li = line.indexOf(',"lines":', MATCH_HEAD.length);
    const ln = li === -1 ? -1 : line.indexOf(',"line_number":', li);
    const end = ln === -1 ? -1 : line.indexOf(",", ln + 15);
    if (end !== -1) {
      const n = Number(line.slice(ln + 15, end));
      if (Number.isInteger(n)) return { lines: JSON.parse(line.slice(li + 9, ln)) as RgData, line_number: n };
    }
  }
  return (JSON.parse(line) as { data: RgMatch }).data;
}

/** `stats.bytes_searched` of an `end` line (Infinity if absent, so the file is dropped). */
function bytesSearched(line: string): number {
  const key = '"bytes_searched":';
  const at = line.indexOf(key);
  if (at === -1) return Infinity;
  const n = parseInt(line.slice(at + key.length, at + key.length + 20), 10);
  return Number.isFinite(n) ? n : Infinity;
}

function textOf(d: RgData): string {
  if (d.text !== undefined) return d.text;
  return Buffer.from(d.bytes ?? "", "base64").toString("utf8");
}
