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

/** Literal search with `rg --json`; files in which rg met a NUL byte are dropped (binary). */
export async function rgGrep(rg: string, scope: SearchScope, pattern: string, collector: MatchCollector): Promise<{ error: string } | null> {
  const args = [
    "--json", "--fixed-strings", "--case-sensitive", "--encoding", "none",
    "--max-filesize", String(scope.maxFileBytes), ...baseArgs(scope), "-e", pattern, "--", startArg(scope),
  ];
  let current: string | null = null;
  let pending: GrepMatch[] = [];
  const r = await run(rg, args, scope, "\n", (line) => {
    const kind = line.charCodeAt(9); // {"type":"m... / "e...
    if (kind === 109 /* m */) {
      const msg = JSON.parse(line) as { data: RgMatch };
      const path = msg.data.path.text;
      if (path === undefined) return; // not valid UTF-8: the Node engine cannot name it either
      const rel = relOf(path);
      if (rel !== current) {
        current = rel;
        pending = [];
      }
      pending.push({ path: rel, line: msg.data.line_number, text: cleanLine(textOf(msg.data.lines)) });
    } else if (kind === 101 /* e */ && line.startsWith('{"type":"end"')) {
      if (current !== null && line.includes('"binary_offset":null') && scope.keep(current)) {
        collector.addFile(current, pending);
      }
      current = null;
      pending = [];
    }
  });
  if (r.code !== 0 && r.code !== 1 && !scope.signal?.aborted) {
    return { error: `ripgrep failed: ${r.stderr.trim() || `exit ${r.code}`}` };
  }
  return null;
}

interface RgData { text?: string; bytes?: string }
interface RgMatch { path: RgData; lines: RgData; line_number: number }

function textOf(d: RgData): string {
  if (d.text !== undefined) return d.text;
  return Buffer.from(d.bytes ?? "", "base64").toString("utf8");
}
