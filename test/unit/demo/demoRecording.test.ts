// The demo's cassette (`npm run demo`) played against the real agent, the real OpenAI adapter
// and a copy of the sample project: the recording must still fit the project (the edit applies,
// the tests pass after it) and follow the branch of the person's decisions.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel } from "../../../src/core/model/createModel";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core/approval";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect, ofType } from "../../support/agentTestKit";
import { approveAllRequests, loadDemoCassette, playDemo } from "../../fixtures/demo/recording";
import { loadDemoScript } from "../../fixtures/demo/script";

// The demo runs the sample project's own `node --test`: not as a child of this test runner.
delete process.env.NODE_TEST_CONTEXT;

const sample = path.resolve(import.meta.dirname, "../../fixtures/sample-workspace");
const cassette = loadDemoCassette();
const recording = loadDemoScript();
const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function play(decide: (request: ApprovalRequest) => ApprovalDecision, prompt = cassette.header.prompt!) {
  const server = await startScriptedModelServer();
  servers.push(server);
  const player = playDemo(server, cassette, { pace: "instant" });
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-demo-"));
  cpSync(sample, dir, { recursive: true });
  const agent = createAgent({
    model: createModel({
      provider: "openai-compatible",
      model: cassette.header.model,
      baseUrl: server.baseUrlOpenAI,
      retryBaseDelayMs: 1,
    }),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalGate: { request: async (request) => decide(request) },
  });
  const run = await collect(agent, prompt);
  return { ...run, dir, server, agent, player };
}

const finalStep = recording.steps.at(-1)!.text!;

test("demo: approving everything fixes the bug, the tests pass, the final answer ends the task", async () => {
  const asked: string[] = [];
  const { events, done, dir, server, player } = await play((request) => {
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
  assert.deepEqual(
    done.state.todos.map((t) => t.status),
    ["completed", "completed", "completed", "completed"],
  );
  assert.equal(server.requests.length, recording.steps.length);
  assert.equal(server.requests.length, approveAllRequests(cassette));
  assert.equal(player.divergence, undefined, "every request was answered from the recording");
  // Every call the recording makes succeeded (no stale paths or text).
  assert.deepEqual(
    ofType(events, "tool_call_finished")
      .filter((e) => e.isError)
      .map((e) => e.toolName),
    [],
  );
});

test("demo: any first message starts it; a follow-up after the end gets the closing note, and so does the next", async () => {
  const { done, agent, player } = await play(() => ({ type: "approve" }), "hello?");
  assert.equal(done.finalText, finalStep);
  assert.equal(player.divergence, undefined);
  const again = await collect(agent, "and now?", { state: done.state });
  assert.equal(again.done.finalText, recording.afterEnd.text);
  assert.equal(player.divergence, undefined, "the first follow-up is recorded");
  // Further on the conversation has left the recording: the recorded note answers anyway.
  const third = await collect(agent, "and then?", { state: again.done.state });
  assert.equal(third.done.reason, "completed", third.done.message);
  assert.equal(third.done.finalText, recording.afterEnd.text);
  assert.match(player.divergence!.what, /the agent sent more than the recording has/);
});

test("demo: a follow-up after a rejection (not recorded) gets the closing note", async () => {
  const { done, agent, player } = await play((request) =>
    request.toolName === "edit_file" ? { type: "reject" } : { type: "approve" },
  );
  assert.equal(done.finalText, recording.onRejected.edit_file!.text);
  const again = await collect(agent, "why not?", { state: done.state });
  assert.equal(again.done.finalText, recording.afterEnd.text);
  assert.ok(player.divergence, "a conversation the recording does not have");
});

test("demo: a reload asks again and gets the same answers (a request may be answered twice)", async () => {
  const first = await play(() => ({ type: "approve" }));
  const server = await startScriptedModelServer();
  servers.push(server);
  const player = playDemo(server, cassette, { pace: "instant" });
  // The second window sends the first request of the same conversation again.
  const body = first.server.requests[0]!.body;
  const a = player.match("/v1/chat/completions", body);
  const b = player.match("/v1/chat/completions", body);
  assert.ok("exchange" in a && "exchange" in b && a.exchange === b.exchange);
});

test("demo: the edit that no longer applies (file fixed already) gets its own answer", async () => {
  const server = await startScriptedModelServer();
  servers.push(server);
  playDemo(server, cassette, { pace: "instant" });
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-demo-"));
  cpSync(sample, dir, { recursive: true });
  const file = path.join(dir, "src/slugify.js");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(
      /\.replace\(\/\^-\/, ''\);.*$/m,
      ".replace(/^-|-$/g, ''); // no dash at either end",
    ),
  );
  const agent = createAgent({
    model: createModel({
      provider: "openai-compatible",
      model: cassette.header.model,
      baseUrl: server.baseUrlOpenAI,
      retryBaseDelayMs: 1,
    }),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalGate: { request: async () => ({ type: "approve" }) },
  });
  const { done } = await collect(agent, "fix it");
  assert.equal(done.finalText, recording.onFailed.edit_file!.text);
});

test("demo: rejecting the edit leaves the file alone and the model acknowledges and stops", async () => {
  const { done, dir, server } = await play(() => ({ type: "reject", reason: "not like that" }));
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, recording.onRejected.edit_file!.text);
  assert.equal(
    readFileSync(path.join(dir, "src/slugify.js"), "utf8"),
    readFileSync(path.join(sample, "src/slugify.js"), "utf8"),
  );
  assert.equal(server.requests.length, 4);
});

test("demo: rejecting the test run ends with the matching note", async () => {
  const { done } = await play((request) => (request.toolName === "execute" ? { type: "reject" } : { type: "approve" }));
  assert.equal(done.finalText, recording.onRejected.execute!.text);
});

test("demo: a changed edit that breaks the tests gets the 'tests still fail' answer", async () => {
  const { done } = await play((request) =>
    request.toolName === "edit_file"
      ? { type: "edit", content: request.proposal!.after.replace("/^-|-$/g", "/^-/g") }
      : { type: "approve" },
  );
  assert.equal(done.finalText, recording.onFailed.execute!.text);
});
