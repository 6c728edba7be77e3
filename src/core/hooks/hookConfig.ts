import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { parse as parseJsonc, type ParseError } from "jsonc-parser/lib/esm/main.js";

/**
 * Hooks: the person's own commands run at fixed points of a task. One shape for every file:
 * Claude Code's `hooks` (`{ "hooks": { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type":
 * "command", "command": "…", "timeout": 60 }] }] } }`), which Fathom's own hooks.json repeats;
 * VS Code's `.github/hooks/*.json` (camelCase events, hooks listed without a group) reads into it.
 */

export const HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Where a hook came from: the person's own file runs as written; a workspace's is a stranger's. */
export type HookOrigin = "user" | "workspace";
/** Claude's files name tools as Claude does (`Bash`); Fathom's as Fathom does (`execute`). */
export type HookDialect = "claude" | "fathom";

export interface HookDefinition {
  event: HookEvent;
  /** A tool name or a regular expression (whole name); empty or `*` matches every tool. */
  matcher: string;
  command: string;
  timeoutMs: number;
  /** PreToolUse: a hook that fails (crash, timeout) refuses the call instead of letting it run. */
  failClosed: boolean;
  origin: HookOrigin;
  dialect: HookDialect;
  /** The file it was read from. */
  source: string;
}

export interface HookConfigProblem {
  file: string;
  message: string;
}

export interface LoadedHooks {
  hooks: HookDefinition[];
  problems: HookConfigProblem[];
}

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
/** A config file past this is not read (a hook list is a few hundred bytes). */
export const MAX_HOOK_FILE_BYTES = 256 * 1024;
/** Hooks taken from all files together; more are left out, and said. */
export const MAX_HOOKS = 100;
const MAX_TIMEOUT_S = 600;
const MAX_MATCHER_CHARS = 300;

/** Claude Code's tool names and Fathom's. `mcp__server__tool` is the same in both. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  Bash: "execute",
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Glob: "glob",
  Grep: "grep",
  LS: "ls",
  WebFetch: "web_fetch",
};

/** The Claude name of a Fathom tool (`execute` → `Bash`), or the name itself. */
export function claudeToolName(fathomName: string): string {
  for (const [claude, fathom] of Object.entries(CLAUDE_TOOL_NAMES))
    if (fathom === fathomName && claude !== "MultiEdit") return claude;
  return fathomName;
}

function configHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_CONFIG_HOME || nodePath.join(os.homedir(), ".config");
}

/** The person's own hook files: Claude Code's user settings and Fathom's. */
export function userHookFiles(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string[] {
  return [nodePath.join(home, ".claude", "settings.json"), nodePath.join(configHome(env), "fathom", "hooks.json")];
}

/** The hook files a repository carries (a stranger's programs until the person approves them). */
export function workspaceHookFiles(root: string): string[] {
  const files = [
    nodePath.join(root, ".claude", "settings.json"),
    nodePath.join(root, ".claude", "settings.local.json"),
    nodePath.join(root, ".fathom", "hooks.json"),
  ];
  const vscodeDir = nodePath.join(root, ".github", "hooks");
  try {
    for (const name of readdirSync(vscodeDir).sort())
      if (name.endsWith(".json")) files.push(nodePath.join(vscodeDir, name));
  } catch {
    // No VS Code hook folder.
  }
  return files;
}

const CAMEL_EVENTS: Record<string, HookEvent> = {
  sessionStart: "SessionStart",
  userPromptSubmit: "UserPromptSubmit",
  userPromptSubmitted: "UserPromptSubmit",
  preToolUse: "PreToolUse",
  postToolUse: "PostToolUse",
  stop: "Stop",
};

const PLATFORM_KEY: Partial<Record<NodeJS.Platform, string>> = { linux: "linux", darwin: "osx", win32: "windows" };

function dialectOf(file: string): HookDialect {
  return file.split(nodePath.sep).includes(".claude") ? "claude" : "fathom";
}

/** Reads at most `MAX_HOOK_FILE_BYTES` of a file; a bigger one is a problem, not a hang. */
function readCapped(file: string): { text: string } | { error: string } | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR"
      ? undefined
      : { error: `could not be read (${code ?? String(error)})` };
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_HOOK_FILE_BYTES)
      return {
        error: `is ${Math.round(size / 1024)} KB; hook files over ${MAX_HOOK_FILE_BYTES / 1024} KB are not read. Its hooks were left out.`,
      };
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, 0);
    return { text: buffer.subarray(0, read).toString("utf8") };
  } finally {
    closeSync(fd);
  }
}

/** Reads every file's hooks, in order; a file that is missing is skipped, a bad one is a problem. */
export function loadHooks(files: readonly { file: string; origin: HookOrigin }[]): LoadedHooks {
  const hooks: HookDefinition[] = [];
  const problems: HookConfigProblem[] = [];
  let leftOut = 0;
  for (const { file, origin } of files) {
    if (!existsSync(file)) continue;
    const read = readCapped(file);
    if (!read) continue;
    if ("error" in read) {
      problems.push({ file, message: `${file} ${read.error}` });
      continue;
    }
    const errors: ParseError[] = [];
    const data = parseJsonc(read.text, errors, { allowTrailingComma: true }) as unknown;
    if (errors.length > 0 || typeof data !== "object" || data === null) {
      problems.push({
        file,
        message: `${file} is not valid JSON; its hooks were left out. Fix the file and start a new task.`,
      });
      continue;
    }
    for (const hook of hooksOf(data as Record<string, unknown>, file, origin, problems)) {
      if (hooks.length >= MAX_HOOKS) leftOut++;
      else hooks.push(hook);
    }
  }
  if (leftOut > 0)
    problems.push({
      file: files.at(-1)?.file ?? "",
      message: `${leftOut} hooks were left out: Fathom runs at most ${MAX_HOOKS} hooks. Remove hooks you do not need.`,
    });
  return { hooks, problems };
}

function hooksOf(
  data: Record<string, unknown>,
  file: string,
  origin: HookOrigin,
  problems: HookConfigProblem[],
): HookDefinition[] {
  const table = data.hooks;
  if (table === undefined) return [];
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    problems.push({ file, message: `${file}: "hooks" must be an object of events (PreToolUse, PostToolUse, …).` });
    return [];
  }
  const out: HookDefinition[] = [];
  for (const [key, groups] of Object.entries(table as Record<string, unknown>)) {
    const event = (HOOK_EVENTS as readonly string[]).includes(key) ? (key as HookEvent) : CAMEL_EVENTS[key];
    if (!event) {
      problems.push({
        file,
        message: `${file}: the hook event "${key}" is not one Fathom runs (it runs ${HOOK_EVENTS.join(", ")}); those hooks were left out.`,
      });
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push({ file, message: `${file}: hooks.${key} must be a list.` });
      continue;
    }
    for (const group of groups) {
      if (typeof group !== "object" || group === null) continue;
      const g = group as Record<string, unknown>;
      const matcher = typeof g.matcher === "string" ? g.matcher : "";
      // Claude groups hooks under a matcher; VS Code lists each hook by itself.
      const entries: unknown[] = Array.isArray(g.hooks) ? g.hooks : [g];
      for (const entry of entries) {
        const hook = hookOf(entry, { event, matcher, failClosed: g.failClosed === true, file, origin }, problems);
        if (hook) out.push(hook);
      }
    }
  }
  return out;
}

function hookOf(
  entry: unknown,
  at: { event: HookEvent; matcher: string; failClosed: boolean; file: string; origin: HookOrigin },
  problems: HookConfigProblem[],
): HookDefinition | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  const type = e.type ?? "command";
  // VS Code's entries may give a command per platform (`linux`, `osx`, `windows`) over `command`.
  const own = e[PLATFORM_KEY[process.platform] ?? ""];
  const command =
    typeof own === "string"
      ? own
      : typeof e.command === "string"
        ? e.command
        : typeof e.bash === "string"
          ? e.bash
          : undefined;
  if (type !== "command" || !command?.trim()) {
    problems.push({
      file: at.file,
      message: `${at.file}: a ${at.event} hook of type "${String(type)}" was left out; Fathom runs hooks of type "command" with a "command".`,
    });
    return undefined;
  }
  if (at.matcher.length > MAX_MATCHER_CHARS || !validMatcher(at.matcher)) {
    problems.push({
      file: at.file,
      message: `${at.file}: the matcher "${at.matcher.slice(0, 80)}" is not a tool name or a regular expression; that hook was left out.`,
    });
    return undefined;
  }
  const seconds =
    typeof e.timeout === "number" ? e.timeout : typeof e.timeoutSec === "number" ? e.timeoutSec : undefined;
  const timeoutMs =
    seconds !== undefined && seconds > 0 ? Math.min(seconds, MAX_TIMEOUT_S) * 1000 : DEFAULT_HOOK_TIMEOUT_MS;
  return {
    event: at.event,
    matcher: at.matcher,
    command,
    timeoutMs,
    failClosed: at.failClosed || e.failClosed === true,
    origin: at.origin,
    dialect: dialectOf(at.file),
    source: at.file,
  };
}

function validMatcher(matcher: string): boolean {
  try {
    new RegExp(`^(?:${matcher})$`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a hook runs for a tool: its matcher (whole name, or a regular expression) against
 * Fathom's name and, for Claude's files, Claude's name for it too.
 */
export function matchesTool(hook: HookDefinition, fathomName: string): boolean {
  const m = hook.matcher.trim();
  if (m === "" || m === "*") return true;
  const re = new RegExp(`^(?:${m})$`);
  return re.test(fathomName) || re.test(claudeToolName(fathomName));
}

/** A key for exactly this set of a workspace's hooks: what the person approves, asked again when it changes. */
export function hookSetKey(hooks: readonly HookDefinition[]): string {
  const lines = hooks.map((h) => JSON.stringify([h.event, h.matcher, h.command, h.timeoutMs, h.failClosed, h.source]));
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

/** One line per hook, for an approval question or a list: event, matcher, command. */
export function describeHook(hook: HookDefinition, root?: string): string {
  const where = root ? nodePath.relative(root, hook.source) || hook.source : hook.source;
  const matcher = hook.matcher && hook.matcher !== "*" ? ` [${hook.matcher}]` : "";
  return `${hook.event}${matcher}: ${hook.command} (${where})`;
}
