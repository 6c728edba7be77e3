// The recorded demo session (`npm run demo`) played against the real agent, the real OpenAI
// adapter and a copy of the sample project: the recording must still fit the project (the edit
// applies, the tests pass after it) and branch correctly on the person's decisions.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel } from "../../../src/core/model/createModel";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core/approval";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect, ofType } from "../../support/agentTestKit";
import { loadDemoRecording, playDemo } from "../../fixtures/demo/recording";

// The demo runs the sample project's own `node --test`: not as a child of this test runner.
delete process.env.NODE_TEST_CONTEXT;

const sample = path.resolve(import.meta.dirname, "../../fixtures/sample-workspace");
const recording = { ...loadDemoRecording(), chunkDelayMs: 0 };
const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function play(decide: (request: ApprovalRequest) => ApprovalDecision, prompt = recording.prompt) {
  const server = await startScriptedModelServer();
  servers.push(server);
  playDemo(server, recording);
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-demo-"));
  cpSync(sample, dir, { recursive: true });
  const agent = createAgent({
    model: createModel({ provider: "openai-compatible", model: recording.model, baseUrl: server.baseUrlOpenAI, retryBaseDelayMs: 1 }),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalGate: { request: async (request) => decide(request) },
  });
  const run = await collect(agent, prompt);
  return { ...run, dir, server, agent };
}

const finalStep = recording.steps.at(-1)!.text!;

test("demo: approving everything fixes the bug, the tests pass, the final answer ends the task", async () => {
  const asked: string[] = [];
  const { events, done, dir, server } = await play((request) => {
    asked.push(request.toolName);
    return { type: "approve" };
  });
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, finalStep);
  assert.deepEqual(asked, ["edit_file", "execute"]);
  assert.match(readFileSync(path.join(dir, "src/slugify.js"), "utf8"), /\.replace\(\/\^-\|-\$\/g, ''\);/);
  const exec = ofType(events, "tool_call_finished").find((e) => e.toolName === "execute")!;
  assert.match(exec.content, /# pass 2/);
  assert.match(exec.content, /\[Exit code: 0\]$/);
  assert.deepEqual(done.state.todos.map((t) => t.status), ["completed", "completed", "completed", "completed"]);
  assert.equal(server.requests.length, recording.steps.length);
  // Every call the recording makes succeeded (no stale paths or text).
  assert.deepEqual(ofType(events, "tool_call_finished").filter((e) => e.isError).map((e) => e.toolName), []);
});

test("demo: any first message starts it; a follow-up after the end gets the closing note", async () => {
  const { done, agent } = await play(() => ({ type: "approve" }), "hello?");
  assert.equal(done.finalText, finalStep);
  const again = await collect(agent, "and now?", { state: done.state });
  assert.equal(again.done.finalText, recording.afterEnd.text);
});

test("demo: rejecting the edit leaves the file alone and the model acknowledges and stops", async () => {
  const { done, dir, server } = await play(() => ({ type: "reject", reason: "not like that" }));
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, recording.onRejected.edit_file!.text);
  assert.equal(readFileSync(path.join(dir, "src/slugify.js"), "utf8"), readFileSync(path.join(sample, "src/slugify.js"), "utf8"));
  assert.equal(server.requests.length, 4);
});

test("demo: rejecting the test run ends with the matching note", async () => {
  const { done } = await play((request) => (request.toolName === "execute" ? { type: "reject" } : { type: "approve" }));
  assert.equal(done.finalText, recording.onRejected.execute!.text);
});

test("demo: a changed edit that breaks the tests gets the 'tests still fail' answer", async () => {
  const { done } = await play((request) =>
    request.toolName === "edit_file" ? { type: "edit", content: request.proposal!.after.replace("/^-|-$/g", "/^-/g") } : { type: "approve" },
  );
  assert.equal(done.finalText, recording.onFailed.execute!.text);
});
