// A whole task on a local server without native tool calling, and a model changed mid-task.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel } from "../../../src/core/model/createModel";
import { SwitchableModel } from "../../../src/core/model/switchableModel";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { assertWellFormed } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const servers: ScriptedModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

const call = (name: string, args: Record<string, unknown>) =>
  `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

test("a server without native tools: the whole task (a write and a command) runs through calls written as text", async () => {
  const server = await startScriptedModelServer([
    { text: `I'll create the file.\n${call("write_file", { file_path: "/hello.txt", content: "hi\n" })}` },
    { text: call("execute", { command: "cat hello.txt" }) },
    { text: "Done: hello.txt says hi." },
  ]);
  servers.push(server);
  server.dialect = { noNativeTools: true, ignoreStreamOptions: true };
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-local-"));
  const agent = createAgent({
    model: createModel({
      provider: "openai-compatible",
      model: "gemma:2b",
      override: { tools: "native" },
      baseUrl: server.baseUrlOpenAI,
      retryBaseDelayMs: 1,
    }),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalPolicy: { edit: "auto", execute: "auto" },
  });
  const { events, done } = await collect(agent, "make hello");
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "Done: hello.txt says hi.");
  assert.equal(readFileSync(path.join(dir, "hello.txt"), "utf8"), "hi\n");
  const exec = ofType(events, "tool_call_finished").find((e) => e.toolName === "execute");
  assert.match(exec!.content, /^hi\n/);
  // Said once that tools moved to the prompt, and each time a text call ran.
  const warnings = ofType(events, "warning");
  assert.equal(warnings.filter((w) => w.code === "model_adapted").length, 1);
  assert.deepEqual(
    warnings.filter((w) => w.code === "text_tool_calls").map((w) => w.message.match(/Ran (\w+)/)?.[1]),
    ["write_file", "execute"],
  );
  // The transcript shows the prose, not the JSON.
  assert.deepEqual(
    ofType(events, "text_replaced").map((e) => e.text),
    ["I'll create the file.", ""],
  );
  assert.equal(done.state.messages[1]?.content, "I'll create the file.");
  assertWellFormed(done.state.messages);
  // Usage was estimated (the server sends none), so the budget and the context meter still move.
  assert.ok(done.state.usage.inputTokens > 0 && done.state.usage.outputTokens > 0);
  // One refused request, then three in text form.
  assert.deepEqual(
    server.requests.map((r) => Boolean(r.body.tools)),
    [true, false, false, false],
  );
});

test("a model changed while the task runs answers from the next request on, with its own price", async () => {
  const server = await startScriptedModelServer([
    { toolCalls: [{ name: "execute", arguments: { command: "true" } }], usage: { input: 1_000_000, output: 0 } },
    { text: "finished", usage: { input: 1_000_000, output: 0 } },
  ]);
  servers.push(server);
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-switch-"));
  const make = (model: string) =>
    createModel({ provider: "openai", model, baseUrl: server.baseUrlOpenAI, apiKey: "sk-test-key-123456" });
  const model = new SwitchableModel(make("gpt-4.1"));
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalPolicy: { execute: "ask" },
    // The person picks another model while the command waits for approval.
    approvalGate: {
      request: async () => {
        model.switchTo(make("gpt-4.1-mini"));
        return { type: "approve" };
      },
    },
  });
  const { done } = await collect(agent, "go");
  assert.equal(done.reason, "completed", done.message);
  assert.deepEqual(
    server.requests.map((r) => r.body.model),
    ["gpt-4.1", "gpt-4.1-mini"],
  );
  // $2 per million input tokens for the first call, $0.40 for the second.
  assert.ok(Math.abs(done.state.costUsd - 2.4) < 1e-9, String(done.state.costUsd));
});
