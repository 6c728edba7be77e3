import { test } from "node:test";
import assert from "node:assert/strict";
import { createExecuteTool } from "../../../src/core/middleware/filesystem";
import type { ExecResult, Executor } from "../../../src/core/executor/types";

const fixed = (result: Partial<ExecResult>, seen: unknown[] = []): Executor => ({
  async run(command, options) {
    seen.push({ command, cwd: options.cwd, timeoutMs: options.timeoutMs });
    return {
      output: "out\n",
      exitCode: 0,
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 5,
      via: "fake",
      ...result,
    };
  },
});
const ctx = { signal: new AbortController().signal, toolCallId: "c" };

test("execute runs in the workspace root with the timeout in seconds", async () => {
  const seen: unknown[] = [];
  const tool = createExecuteTool(fixed({}, seen), "/ws");
  const result = await tool.run({ command: "ls", timeout: 7 }, ctx);
  assert.deepEqual(seen, [{ command: "ls", cwd: "/ws", timeoutMs: 7000 }]);
  assert.equal(result.content, "out\n\n[Exit code: 0]");
  assert.ok(!result.isError);
  assert.equal(result.details?.via, "fake");
});

test("non-zero exit, timeout and truncation are told to the model", async () => {
  const failed = await createExecuteTool(fixed({ exitCode: 2, output: "" }), "/ws").run({ command: "x" }, ctx);
  assert.equal(failed.isError, true);
  assert.match(failed.content, /^\(no output\)\n\n\[Exit code: 2\]$/);
  const slow = await createExecuteTool(fixed({ timedOut: true, exitCode: 143, truncated: true }), "/ws", 1000).run(
    { command: "x" },
    ctx,
  );
  assert.equal(slow.isError, true);
  assert.match(slow.content, /Timed out after 1 s; the process tree was killed/);
  assert.match(slow.content, /the middle is omitted/);
});

test("a command left running by the executor is reported with its handle, not as a failure", async () => {
  const result = await createExecuteTool(
    fixed({ timedOut: true, stillRunning: true, handle: "bg-1", exitCode: null }),
    "/ws",
    2000,
  ).run({ command: "npm run dev" }, ctx);
  assert.ok(!result.isError);
  assert.match(result.content, /left running in the background as bg-1/);
  assert.doesNotMatch(result.content, /Exit code/);
});
