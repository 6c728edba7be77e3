import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { runHeadless } from "../../../src/core/headless/headlessRun";
import type { McpHub } from "../../../src/core/mcp/mcpHub";
import type { AgentEvent } from "../../../src/core/run/events";
import { FakeModel } from "../../support/fakeModel";

// The one headless run behind fathom run, fathom eval and the Action: events out in order,
// commands through its executor, cancel by signal, and everything it started stopped however
// the run ends.
function workspace(): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), "fathom-headless-")));
}

function stubMcp(log: string[]): McpHub {
  return {
    tools: () => ({ tools: [], dropped: 0 }),
    readResource: async () => "",
    stop: async () => void log.push("mcp stopped"),
  } as unknown as McpHub;
}

describe("runHeadless", () => {
  it("runs a command through its own executor, hands every event over in order and returns the done event", async () => {
    const root = workspace();
    try {
      const model = new FakeModel([
        { toolCalls: [{ name: "execute", arguments: { command: "echo hi > note.txt" } }] },
        { text: "Wrote it." },
      ]);
      const events: AgentEvent[] = [];
      const log: string[] = [];
      const done = await runHeadless({
        agent: {
          model,
          workspaceRoot: root,
          backend: new FilesystemBackend({ rootDir: root }),
          approvalPolicy: { read: "auto", edit: "auto", execute: "auto", other: "auto" },
        },
        input: "write a note",
        startMcp: async () => stubMcp(log),
        onEvent: (event) => void events.push(event),
      });
      assert.equal(done?.reason, "completed");
      assert.equal(done?.finalText, "Wrote it.");
      assert.equal(events.at(-1), done);
      assert.ok(events.some((e) => e.type === "tool_call_finished" && e.toolName === "execute" && !e.isError));
      assert.equal(readFileSync(path.join(root, "note.txt"), "utf8"), "hi\n");
      assert.deepEqual(log, ["mcp stopped"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("ends cancelled when its signal aborts", async () => {
    const root = workspace();
    try {
      const controller = new AbortController();
      const model = new FakeModel([{ hang: true, text: "Thinking" }]);
      const done = await runHeadless({
        agent: { model, workspaceRoot: root, backend: new FilesystemBackend({ rootDir: root }) },
        input: "wait",
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === "text_delta") controller.abort();
        },
      });
      assert.equal(done?.reason, "cancelled");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("stops what it started and gives the working directory back when an event sink throws", async () => {
    const root = workspace();
    const cwd = process.cwd();
    try {
      const log: string[] = [];
      const model = new FakeModel([{ text: "Done." }]);
      await assert.rejects(
        runHeadless({
          agent: async () => ({ model, workspaceRoot: root, backend: new FilesystemBackend({ rootDir: root }) }),
          input: "anything",
          neutralWorkingDirectory: true,
          startMcp: async () => {
            log.push(`mcp started away from ${cwd === process.cwd() ? "nowhere" : "the workspace"}`);
            return stubMcp(log);
          },
          onEvent: () => {
            throw new Error("sink broke");
          },
        }),
        /sink broke/,
      );
      assert.deepEqual(log, ["mcp started away from the workspace", "mcp stopped"]);
      assert.equal(process.cwd(), cwd);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
