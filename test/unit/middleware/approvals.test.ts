import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from "../../../src/core/approval";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import type { Executor } from "../../../src/core/executor/types";
import { FakeModel, assertWellFormed } from "../../support/fakeModel";
import { collect, echoTool, ofType } from "../../support/agentTestKit";

function scriptedGate(...decisions: ApprovalDecision[]): ApprovalGate & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    async request(req) {
      asked.push(req);
      return decisions.shift() ?? { type: "approve" };
    },
  };
}

function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-appr-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

const fakeExecutor = (ran: string[]): Executor => ({
  async run(command) {
    ran.push(command);
    return {
      output: "ran",
      exitCode: 0,
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 1,
      via: "fake",
    };
  },
});

test("read tools run without asking; edit tools ask by default", async () => {
  const gate = scriptedGate({ type: "approve" });
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "look", arguments: { text: "a" } },
        { name: "change", arguments: { text: "b" } },
      ],
    },
    { text: "ok" },
  ]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    approvalGate: gate,
    tools: [echoTool("look", "read"), echoTool("change", "edit")],
  });
  const { events } = await collect(agent, "go");
  assert.deepEqual(
    gate.asked.map((r) => r.toolName),
    ["change"],
  );
  assert.deepEqual(
    ofType(events, "approval_requested").map((e) => e.toolName),
    ["change"],
  );
  assert.deepEqual(
    ofType(events, "approval_decided").map((e) => e.decision),
    ["approve"],
  );
});

test("reject: the call does not run and the model gets the reason", async () => {
  const log: string[] = [];
  const gate = scriptedGate({ type: "reject", reason: "use the other file" });
  const model = new FakeModel([{ toolCalls: [{ name: "change", arguments: { text: "b" } }] }, { text: "ok" }]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    approvalGate: gate,
    tools: [echoTool("change", "edit", 0, log)],
  });
  const { done } = await collect(agent, "go");
  assert.deepEqual(log, []);
  const result = done.state.messages.find((m) => m.role === "tool")!;
  assert.match(result.content, /rejected this change call\. Their reason: use the other file/);
});

test("edit with changed arguments runs with them and tells the model", async () => {
  const log: string[] = [];
  const gate = scriptedGate({ type: "edit", args: { text: "person's" } });
  const model = new FakeModel([{ toolCalls: [{ name: "change", arguments: { text: "model's" } }] }, { text: "ok" }]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    approvalGate: gate,
    tools: [echoTool("change", "edit", 0, log)],
  });
  const { done, events } = await collect(agent, "go");
  assert.deepEqual(log, ["start change person's", "end change person's"]);
  assert.match(done.state.messages.find((m) => m.role === "tool")!.content, /changed the arguments.*person's/);
  assert.deepEqual(ofType(events, "tool_call_finished")[0]!.args, { text: "person's" });
});

test("file edits: the gate sees the whole-file proposal; changed content is what gets written, and the model sees the diff", async () => {
  const dir = workspace({ "a.txt": "one\ntwo\nthree\n" });
  const backend = new FilesystemBackend({ rootDir: dir });
  const gate = scriptedGate({ type: "edit", content: "one\nTWO (person)\nthree\n" });
  const model = new FakeModel([
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/a.txt" } }] },
    { toolCalls: [{ name: "edit_file", arguments: { file_path: "/a.txt", old_string: "two", new_string: "2" } }] },
    { text: "edited" },
  ]);
  const agent = createAgent({ model, workspaceRoot: dir, backend, rules: false, approvalGate: gate });
  const { done } = await collect(agent, "edit it");
  assert.equal(done.reason, "completed");
  assert.equal(gate.asked.length, 1);
  assert.deepEqual(gate.asked[0]!.proposal, { path: "/a.txt", before: "one\ntwo\nthree\n", after: "one\n2\nthree\n" });
  assert.equal(readFileSync(path.join(dir, "a.txt"), "utf8"), "one\nTWO (person)\nthree\n");
  const result = done.state.messages.filter((m) => m.role === "tool")[1]!;
  assert.match(result.content, /changed your proposed content/);
  assert.match(result.content, /-2\n\+TWO \(person\)/);
  assertWellFormed(done.state.messages);
});

test("a rejected edit leaves the file untouched", async () => {
  const dir = workspace({ "a.txt": "keep\n" });
  const backend = new FilesystemBackend({ rootDir: dir });
  const model = new FakeModel([
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/a.txt" } }] },
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "gone" } }] },
    { text: "ok" },
  ]);
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend,
    rules: false,
    approvalGate: scriptedGate({ type: "reject" }),
  });
  await collect(agent, "go");
  assert.equal(readFileSync(path.join(dir, "a.txt"), "utf8"), "keep\n");
});

test("denied commands never run, even with auto-approve; allowed ones skip the question", async () => {
  const ran: string[] = [];
  const gate = scriptedGate({ type: "approve" });
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "execute", arguments: { command: "git push --force origin main" } },
        { name: "execute", arguments: { command: "ls && rm -rf build" } },
        { name: "execute", arguments: { command: "npm test -- --watch=false" } },
        { name: "execute", arguments: { command: "make" } },
      ],
    },
    { text: "ok" },
  ]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    executor: fakeExecutor(ran),
    approvalGate: gate,
    approvalPolicy: { execute: "auto" },
    commands: { allow: ["npm test*"], deny: ["git push*", "rm -rf*"] },
  });
  const { done } = await collect(agent, "go");
  assert.deepEqual(ran, ["npm test -- --watch=false", "make"]);
  assert.equal(gate.asked.length, 0);
  const results = done.state.messages.filter((m) => m.role === "tool");
  assert.match(results[0]!.content, /deny pattern "git push\*"/);
  assert.match(results[1]!.content, /deny pattern "rm -rf\*"/);
});

test("with execute on ask, allow-listed commands run without asking and others ask", async () => {
  const ran: string[] = [];
  const gate = scriptedGate({ type: "reject", reason: "not now" });
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "execute", arguments: { command: "npm test" } },
        { name: "execute", arguments: { command: "curl x | sh" } },
      ],
    },
    { text: "ok" },
  ]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    executor: fakeExecutor(ran),
    approvalGate: gate,
    commands: { allow: ["npm test*"] },
  });
  await collect(agent, "go");
  assert.deepEqual(ran, ["npm test"]);
  assert.equal(gate.asked[0]!.command, "curl x | sh");
});

test("a gate that never answers is released by cancel", async () => {
  const gate: ApprovalGate = { request: () => new Promise(() => {}) };
  const controller = new AbortController();
  const model = new FakeModel([{ toolCalls: [{ name: "change", arguments: { text: "b" } }] }]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    approvalGate: gate,
    tools: [echoTool("change", "edit")],
  });
  setTimeout(() => controller.abort(), 20);
  const { done } = await collect(agent, "go", { signal: controller.signal });
  assert.equal(done.reason, "cancelled");
  assertWellFormed(done.state.messages);
});
