// A stopped sandboxed command leaves nothing running. bubblewrap starts the command in its own
// session and PID namespace, tied to its outer process only once its set-up is done, so a stop
// during the set-up used to orphan the whole sandbox (the cause of a flaky Ctrl+C test in CI).
// The executor now finds what is left by the tag in its command lines and kills it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { CommandSandbox, sandboxUnavailable } from "../../../src/core/executor/sandbox";
import { SandboxedExecutor } from "../../../src/core/executor/sandboxedExecutor";
import { sandboxTag, taggedProcesses } from "../../../src/core/executor/sandboxLeftovers";
import type { ExecOptions, ExecResult, Executor } from "../../../src/core/executor/types";

/** Running (a zombie waiting for its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const linux = process.platform === "linux";
const dir = mkdtempSync(path.join(tmpdir(), "fathom-leftovers-"));
const result = (extra: Partial<ExecResult>): ExecResult => ({
  output: "",
  exitCode: null,
  timedOut: false,
  cancelled: false,
  truncated: false,
  durationMs: 1,
  via: "fake",
  ...extra,
});

/**
 * What bwrap leaves when stopped mid set-up: a process in a session of its own, carrying the
 * command line (and so the tag), that the executor's process-group kill never reaches.
 */
class OrphaningExecutor implements Executor {
  orphan = 0;
  constructor(private readonly outcome: Partial<ExecResult>) {}
  async run(command: string, _opts: ExecOptions): Promise<ExecResult> {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", command], {
      detached: true,
      stdio: "ignore",
    });
    child.unref();
    this.orphan = child.pid!;
    await pause(100);
    return result(this.outcome);
  }
}

/** A stand-in for the OS sandbox that wraps a command the way CommandSandbox does: tagged. */
function fakeSandbox(): CommandSandbox {
  const id = randomBytes(8).toString("hex");
  return {
    tempDir: dir,
    allowedDomains: [],
    deniedReads: [],
    asksForDomains: false,
    wrap: async (command: string) => ({ command: `${command} ${sandboxTag(id)}`, id, tag: sandboxTag(id) }),
    refusals: () => [],
  } as unknown as CommandSandbox;
}

for (const [what, outcome] of [
  ["cancelled", { cancelled: true }],
  ["timed out", { timedOut: true }],
  ["stopped with Ctrl+C in the terminal", { exitCode: 130 }],
] as const) {
  test(`a command ${what} leaves no process of its sandbox behind`, { skip: !linux }, async () => {
    const inner = new OrphaningExecutor(outcome);
    const executor = new SandboxedExecutor(inner, fakeSandbox());
    await executor.run("sleep 60", { cwd: dir, timeoutMs: 5_000 });
    assert.equal(alive(inner.orphan), false, "the orphaned sandbox process still runs");
  });
}

test(
  "a command that finished leaves its (finished) sandbox alone, and one left running is stopped with its handle",
  { skip: !linux },
  async () => {
    const done = new OrphaningExecutor({ exitCode: 0 });
    const executor = new SandboxedExecutor(done, fakeSandbox());
    await executor.run("sleep 60", { cwd: dir, timeoutMs: 5_000 });
    assert.equal(alive(done.orphan), true, "a process of a command that ended normally was killed");
    process.kill(done.orphan, "SIGKILL");

    const background = new OrphaningExecutor({ timedOut: true, stillRunning: true, handle: "h1" });
    (background as Executor).stopBackground = async () => ({
      command: "sleep 60",
      output: "",
      running: false,
      exitCode: 130,
    });
    const withHandles = new SandboxedExecutor(background, fakeSandbox());
    await withHandles.run("sleep 60", { cwd: dir, timeoutMs: 5_000 });
    assert.equal(alive(background.orphan), true, "a command left running on purpose was killed");
    await withHandles.stopBackground!("h1");
    assert.equal(alive(background.orphan), false, "stopping it left its sandbox running");
  },
);

const realSandbox = linux && !sandboxUnavailable();
test(
  "the real sandbox's processes carry the tag, and a cancel right after the start leaves none",
  { skip: realSandbox ? false : "the OS sandbox is not available here", timeout: 60_000 },
  async () => {
    const sandbox = new CommandSandbox();
    const executor = new SandboxedExecutor(new ChildProcessExecutor({ killGraceMs: 300 }), sandbox);
    try {
      const wrapped = await sandbox.wrap("sleep 57", dir);
      const seen = spawn("/bin/sh", ["-c", wrapped.command], { detached: true, stdio: "ignore" });
      for (let i = 0; i < 100 && taggedProcesses(wrapped.tag).length < 2; i++) await pause(50);
      assert.ok(taggedProcesses(wrapped.tag).length >= 2, "bwrap's processes do not carry the tag");
      process.kill(-seen.pid!, "SIGKILL");
      // Cancels at moments across bubblewrap's start-up, counted from when its process appears.
      const marker = `sleep 58.${process.pid}`;
      for (const delay of [0, 1, 2, 3, 5, 8, 12, 20]) {
        const controller = new AbortController();
        const run = executor.run(`${marker}${delay}`, { cwd: dir, timeoutMs: 30_000, signal: controller.signal });
        for (let i = 0; i < 2000 && taggedProcesses(`${marker}${delay}`).length === 0; i++) await pause(2);
        await pause(delay);
        controller.abort();
        assert.equal((await run).cancelled, true);
      }
      for (let i = 0; i < 20 && taggedProcesses(marker).length > 0; i++) await pause(100);
      assert.deepEqual(taggedProcesses(marker), [], "a cancelled sandboxed command still runs");
    } finally {
      executor.dispose();
      await sandbox.dispose();
    }
  },
);
