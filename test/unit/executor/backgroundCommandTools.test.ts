import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BackgroundCommandStatus, ExecResult, Executor } from "../../../src/core";
import { createExecuteTool } from "../../../src/core/middleware/filesystem";
import { createBackgroundCommandTools } from "../../../src/core/tools/backgroundCommandTools";

/** An executor that "leaves running" every command, like the terminal one at its timeout. */
function detachingExecutor() {
  const statuses = new Map<string, BackgroundCommandStatus>();
  const stopped: string[] = [];
  const executor: Executor = {
    async run(command): Promise<ExecResult> {
      statuses.set("cmd-1", { command, output: "listening on :3000\n", running: true, exitCode: null });
      return {
        output: "starting\n",
        exitCode: null,
        timedOut: true,
        cancelled: false,
        truncated: false,
        durationMs: 1000,
        via: "test",
        stillRunning: true,
        handle: "cmd-1",
      };
    },
    async readBackground(handle) {
      return statuses.get(handle);
    },
    async stopBackground(handle) {
      const status = statuses.get(handle);
      if (!status) return undefined;
      stopped.push(handle);
      statuses.delete(handle);
      return { ...status, output: "bye\n", running: false, exitCode: 130 };
    },
  };
  return { executor, stopped };
}

const ctx = { signal: new AbortController().signal, toolCallId: "t1" };

describe("commands left running", () => {
  it("execute tells the model the handle and how to check on it", async () => {
    const { executor } = detachingExecutor();
    const result = await createExecuteTool(executor, "/w", 1000).run({ command: "npm run dev" }, ctx);
    assert.equal(result.isError, false);
    assert.match(result.content, /starting/);
    assert.match(result.content, /left running in the background as cmd-1/);
    assert.match(result.content, /command_output.*stop_command/);
  });

  it("command_output returns new output and running state; stop_command stops it", async () => {
    const { executor, stopped } = detachingExecutor();
    await executor.run("npm run dev", { cwd: "/w", timeoutMs: 1 });
    const [output, stop] = createBackgroundCommandTools(executor);
    assert.equal(output?.name, "command_output");
    assert.equal(output?.kind, "read");
    const read = await output!.run({ handle: "cmd-1" }, ctx);
    assert.match(read.content, /^\$ npm run dev\nlistening on :3000\n\n\[Still running as cmd-1\.\]$/);
    const stopResult = await stop!.run({ handle: "cmd-1" }, ctx);
    assert.deepEqual(stopped, ["cmd-1"]);
    assert.match(stopResult.content, /bye\n\n\[Stopped\. Exit code: 130\]/);
  });

  it("an unknown handle is an error the model can act on", async () => {
    const { executor } = detachingExecutor();
    const [output] = createBackgroundCommandTools(executor);
    const result = await output!.run({ handle: "cmd-9" }, ctx);
    assert.equal(result.isError, true);
    assert.match(result.content, /No command is running as "cmd-9".*Run it again with execute/);
  });

  it("is not offered when the executor cannot leave commands running", () => {
    assert.deepEqual(createBackgroundCommandTools({ run: detachingExecutor().executor.run }), []);
  });
});
