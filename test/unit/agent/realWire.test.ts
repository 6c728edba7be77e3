// The loop driven through the real SDK adapters against the scripted HTTP server.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel, type Provider } from "../../../src/core/model/createModel";
import { faults, startScriptedModelServer, type ScriptedTurn } from "../../support/scriptedModelServer";
import { assertWellFormed } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const KEY = "sk-test-SECRET-key-1234567890";
const servers: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function setup(provider: Provider, turns: ScriptedTurn[]) {
  const server = await startScriptedModelServer(turns);
  servers.push(server);
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-wire-"));
  const model = createModel({
    provider,
    model: provider === "anthropic" ? "claude-sonnet-5-5" : "gpt-4.1",
    baseUrl: provider === "anthropic" ? server.baseUrlAnthropic : server.baseUrlOpenAI,
    apiKey: KEY,
    retryBaseDelayMs: 1,
    streamIdleTimeoutMs: 1_000, // generous: a loaded CI machine must not trip it on a healthy stream
    firstOutputTimeoutMs: 1_000,
  });
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalPolicy: { edit: "auto", execute: "auto" },
  });
  return { server, dir, agent };
}

for (const provider of ["openai", "anthropic"] as const) {
  test(`${provider}: writes a file, runs a command, answers; transcript well-formed`, async () => {
    const { dir, agent, server } = await setup(provider, [
      { toolCalls: [{ name: "write_todos", arguments: { todos: [{ content: "write", status: "in_progress" }] } }] },
      {
        text: "Writing.",
        toolCalls: [
          { name: "write_file", arguments: { file_path: "/hello.txt", content: "hi\n" } },
          { name: "execute", arguments: { command: "cat hello.txt" } },
        ],
      },
      { text: "Done: wrote hello.txt." },
    ]);
    const { events, done } = await collect(agent, "make hello");
    assert.equal(done.reason, "completed", done.message);
    assert.equal(done.finalText, "Done: wrote hello.txt.");
    assert.equal(readFileSync(path.join(dir, "hello.txt"), "utf8"), "hi\n");
    const exec = ofType(events, "tool_call_finished").find((e) => e.toolName === "execute")!;
    assert.match(exec.content, /^hi\n\n\[Exit code: 0\]/);
    assertWellFormed(done.state.messages);
    // The server got the tool results back in the provider's format, and tools as JSON Schema.
    assert.equal(server.requests.length, 3);
    const body = JSON.stringify(server.requests[2]!.body);
    assert.match(body, /Created \/hello\.txt|hello\.txt/);
    assert.ok(ofType(events, "tool_call_arguments").length > 0);
    assert.ok(!JSON.stringify(events).includes(KEY));
  });

  test(`${provider}: transient faults recover (500, 429, reset before headers); a mid-stream reset ends cleanly and the task resumes`, async () => {
    const { agent } = await setup(provider, [
      faults.serverError(500),
      faults.rateLimited({ ms: 5 }),
      faults.resetBeforeHeaders(),
      { text: "recovered" },
      faults.reset("partial"),
      { text: "again" },
    ]);
    const { events, done } = await collect(agent, "hi");
    assert.equal(done.reason, "completed", done.message);
    assert.equal(done.finalText, "recovered");
    assert.ok(ofType(events, "warning").some((w) => w.code === "model_retry"));
    // A reset after text arrived is not retried (it would repeat text): a clean, readable error.
    const second = await collect(agent, "more", { state: done.state });
    assert.equal(second.done.reason, "error");
    assert.match(second.done.message!, /broke off/);
    assertWellFormed(second.done.state.messages);
    // And the task can go on from the saved state.
    const third = await collect(agent, "try again", { state: JSON.parse(JSON.stringify(second.done.state)) });
    assert.equal(third.done.finalText, "again");
  });

  test(`${provider}: fatal faults end cleanly with a readable error and no key`, async () => {
    for (const fault of [faults.unauthorized(), faults.notFound(), faults.http(400, { message: "bad tool schema" })]) {
      const { agent } = await setup(provider, [fault]);
      const { events, done } = await collect(agent, "hi");
      assert.equal(done.reason, "error");
      const error = ofType(events, "error")[0]!;
      assert.ok(error.message.length > 10, error.message);
      assert.ok(!JSON.stringify(events).includes(KEY));
    }
  });

  test(`${provider}: a stalled or truncated stream, after retries, ends cleanly; earlier tool calls keep their results`, async () => {
    const { agent, dir } = await setup(provider, [
      { toolCalls: [{ name: "ls", arguments: { path: "/" } }] },
      faults.stall("st"),
      faults.truncate("tr"),
      faults.stall(),
      faults.truncate(),
      faults.stall(),
      faults.truncate(),
    ]);
    const { done } = await collect(agent, "hi");
    assert.ok(done.reason === "error" || done.reason === "completed");
    assertWellFormed(done.state.messages);
    assert.ok(existsSync(dir));
  });

  test(`${provider}: invalid tool-call JSON from the wire becomes a result; the loop goes on`, async () => {
    const { agent } = await setup(provider, [
      { toolCalls: [{ name: "read_file", arguments: '{"file_path": "/a' }] },
      { text: "fixed" },
    ]);
    const { done } = await collect(agent, "hi");
    assert.equal(done.reason, "completed");
    const result = done.state.messages.find((m) => m.role === "tool")!;
    assert.match(result.content, /not valid JSON/);
  });
}
