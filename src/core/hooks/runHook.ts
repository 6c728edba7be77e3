import { spawn, type ChildProcess } from "node:child_process";
import type { CommandSandbox } from "../executor/sandbox";
import { killSandboxLeftovers } from "../executor/sandboxLeftovers";
import { stopWhen } from "../executor/stopWhen";

/** What one hook process did. */
export interface HookProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Set when it printed past the cap (it was stopped there) or could not start. */
  failure?: string;
}

export interface RunHookOptions {
  cwd: string;
  /** The JSON the hook reads on stdin. */
  input: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Run inside the OS sandbox (a workspace's hooks): only `cwd` and a private temp folder writable. */
  sandbox?: CommandSandbox;
  /** Kept per stream; the rest is counted, not kept. */
  maxKeptChars?: number;
  /** A hook printing more than this (both streams) is stopped. */
  maxOutputBytes?: number;
  env?: Record<string, string>;
}

export const HOOK_KEPT_CHARS = 64 * 1024;
export const HOOK_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * Runs one hook command with `sh -c` in its own process group: the JSON on stdin, stdout and
 * stderr read apart (capped), killed with everything it started on timeout, cancel or too much
 * output. Never throws: a hook that cannot start is a result with `failure`.
 */
export async function runHookProcess(command: string, o: RunHookOptions): Promise<HookProcessResult> {
  const started = Date.now();
  let line = command;
  let tag: string | undefined;
  if (o.sandbox) {
    try {
      const wrapped = await o.sandbox.wrap(command, o.cwd, o.signal);
      line = wrapped.command;
      tag = wrapped.tag;
    } catch (error) {
      return notStarted(started, `could not start in the OS sandbox: ${(error as Error).message}`);
    }
  }
  try {
    return await spawnHook(line, o, started);
  } finally {
    if (tag) await killSandboxLeftovers(tag).catch(() => 0);
  }
}

/** The result of a hook that did not start (`failure` says why). */
function notStarted(started: number, failure: string): HookProcessResult {
  return {
    exitCode: null,
    stdout: "",
    stderr: "",
    durationMs: Date.now() - started,
    timedOut: false,
    cancelled: false,
    failure,
  };
}

function spawnHook(line: string, o: RunHookOptions, started: number): Promise<HookProcessResult> {
  const keep = o.maxKeptChars ?? HOOK_KEPT_CHARS;
  const maxBytes = o.maxOutputBytes ?? HOOK_MAX_OUTPUT_BYTES;
  return new Promise((resolve) => {
    if (o.signal?.aborted) {
      resolve({ exitCode: null, stdout: "", stderr: "", durationMs: 0, timedOut: false, cancelled: true });
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn("/bin/sh", ["-c", line], {
        cwd: o.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        env: { ...process.env, CLAUDE_PROJECT_DIR: o.cwd, FATHOM_PROJECT_DIR: o.cwd, ...o.env },
      });
    } catch (error) {
      resolve(notStarted(started, `could not start: ${(error as Error).message}`));
      return;
    }
    const out = { text: "", bytes: 0 };
    const err = { text: "", bytes: 0 };
    let timedOut = false;
    let cancelled = false;
    let failure: string | undefined;
    let settled = false;
    let exitCode: number | null = null;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const take = (into: { text: string; bytes: number }) => (data: Buffer) => {
      into.bytes += data.length;
      if (into.text.length < keep) into.text += data.toString("utf8").slice(0, keep - into.text.length);
      if (out.bytes + err.bytes > maxBytes && !failure) {
        failure = `printed more than ${Math.round(maxBytes / 1048576)} MB, so it was stopped`;
        kill();
      }
    };
    child.stdout?.on("data", take(out));
    child.stderr?.on("data", take(err));
    // A hook that does not read its input must not fail on a closed pipe.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(`${JSON.stringify(o.input)}\n`);

    const finish = () => {
      if (settled) return;
      settled = true;
      unwatch();
      kill();
      resolve({
        exitCode,
        stdout: out.text,
        stderr: err.text,
        durationMs: Date.now() - started,
        timedOut,
        cancelled,
        ...(failure ? { failure } : {}),
      });
    };
    const unwatch = stopWhen(o.signal, o.timeoutMs, (why) => {
      if (why === "cancelled") cancelled = true;
      else timedOut = true;
      kill();
    });
    child.on("error", (error) => {
      failure ??= `could not start: ${error.message}`;
      finish();
    });
    child.on("exit", (code, signal) => {
      exitCode = code ?? (signal ? 128 + 9 : null);
      // Whatever it left holding the pipes goes with its group; do not wait on them long.
      setTimeout(finish, 200).unref();
    });
    child.on("close", finish);
  });
}
