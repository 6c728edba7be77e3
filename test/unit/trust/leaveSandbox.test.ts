// Issue 19, item 4: a command the model asks to run outside the OS sandbox always reaches the
// person: auto-approval, allow patterns and "Always allow" rules do not answer for them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ApprovalRequest } from "../../../src/core/approval";
import type { ExecOptions, ExecResult, Executor } from "../../../src/core/executor/types";
import { guardedGate } from "../../../src/host/wiring/sessionGate";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

class RecordingExecutor implements Executor {
  readonly sandboxed = true;
  runs: { command: string; unsandboxed: boolean }[] = [];
  async run(command: string, opts: ExecOptions): Promise<ExecResult> {
    this.runs.push({ command, unsandboxed: opts.unsandboxed === true });
    return {
      output: "ok",
      exitCode: 0,
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 1,
      via: "test",
    };
  }
}

describe("leaving the sandbox is always asked", () => {
  it("with execute auto-approved and an allow pattern matching, the person is still asked, and told why", async () => {
    const asked: ApprovalRequest[] = [];
    const executor = new RecordingExecutor();
    const model = new FakeModel([
      { toolCalls: [{ name: "execute", arguments: { command: "npm test" } }] },
      { toolCalls: [{ name: "execute", arguments: { command: "npm test", sandbox: false } }] },
      { text: "done" },
    ]);
    const agent = createAgent({
      model,
      workspaceRoot: "/tmp",
      executor,
      rules: false,
      approvalPolicy: { execute: "auto" },
      commands: { allow: ["npm test*"] },
      approvalGate: { request: async (r) => (asked.push(r), { type: "reject", reason: "stay inside" }) },
    });
    await collect(agent, "test");
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.mustAsk, true);
    assert.match(asked[0]!.reason ?? "", /outside the OS sandbox/);
    assert.deepEqual(executor.runs, [{ command: "npm test", unsandboxed: false }]);
  });

  it("where the sandbox cannot run, every command reaches the person with the reason, auto-approval and allow patterns notwithstanding", async () => {
    const asked: ApprovalRequest[] = [];
    const executor = new RecordingExecutor();
    const model = new FakeModel([
      { toolCalls: [{ name: "execute", arguments: { command: "npm test" } }] },
      { text: "done" },
    ]);
    const agent = createAgent({
      model,
      workspaceRoot: "/tmp",
      executor,
      rules: false,
      approvalPolicy: { execute: "auto" },
      commands: { allow: ["npm test*"], alwaysAsk: "The OS sandbox cannot run here." },
      approvalGate: { request: async (r) => (asked.push(r), { type: "approve" }) },
    });
    await collect(agent, "test");
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.mustAsk, true);
    assert.equal(asked[0]!.reason, "The OS sandbox cannot run here.");
    assert.deepEqual(executor.runs, [{ command: "npm test", unsandboxed: false }]);
  });

  it("an Always allow rule for the command does not answer for it in VS Code", async () => {
    const asked: string[] = [];
    const gate = guardedGate(
      { request: async (r) => (asked.push(r.toolCallId), { type: "reject" }) },
      { isTrusted: () => true, alwaysAllowed: () => ["execute:npm test"], log: { info: () => undefined } as never },
    );
    const base = { toolName: "execute", kind: "execute" as const, command: "npm test" };
    assert.deepEqual(
      await gate.request({ ...base, toolCallId: "a", args: { command: "npm test" } }, new AbortController().signal),
      { type: "approve" },
    );
    await gate.request(
      { ...base, toolCallId: "b", args: { command: "npm test", sandbox: false }, mustAsk: true },
      new AbortController().signal,
    );
    assert.deepEqual(asked, ["b"]);
  });

  it("the execute tool tells the model its commands run in the sandbox", () => {
    const withSandbox = createAgent({
      model: new FakeModel([]),
      workspaceRoot: "/tmp",
      executor: new RecordingExecutor(),
      rules: false,
    });
    const execute = withSandbox.tools.find((t) => t.name === "execute")!;
    assert.match(execute.description, /OS sandbox/);
  });
});
