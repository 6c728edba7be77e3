import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { measurePrompt, PROMPT_TOKEN_BUDGET } from "../../../bench/agent";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import type { ModelRequest } from "../../../src/core/model/types";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";
import type { CodeIntelligence } from "../../../src/core/codeIntel/codeIntelligence";

test("system prompt + all built-in tool schemas fit in 2,000 tokens", async () => {
  const prompt = await measurePrompt(mkdtempSync(path.join(tmpdir(), "fathom-prompt-")));
  assert.deepEqual(prompt.tools, [
    "write_todos",
    "ask_user",
    "web_fetch",
    "ls",
    "read_file",
    "write_file",
    "edit_file",
    "glob",
    "grep",
    "execute",
    "task",
  ]);
  assert.ok(prompt.tokens <= PROMPT_TOKEN_BUDGET, `${prompt.tokens} tokens`);
});

test("plan mode's first request is smaller than act's: only the tools that change nothing", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-prompt-"));
  const act = await measurePrompt(dir);
  const plan = await measurePrompt(dir, "plan");
  assert.deepEqual(plan.tools, ["write_todos", "ask_user", "web_fetch", "ls", "read_file", "glob", "grep", "task"]);
  assert.ok(plan.tokens < act.tokens, `plan ${plan.tokens} < act ${act.tokens} tokens`);
});

test('the first request for "hello" as the extension sends it (memory on, every tool) is at most 8,000 characters', async () => {
  // Issue 40: 9,029 characters before (8,549 of them system, messages and tools, measured so).
  // What a first message rarely needs is said in the tools' descriptions, in few words.
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-hello-"));
  const memory = {
    project: mkdtempSync(path.join(tmpdir(), "fathom-mem-")),
    user: mkdtempSync(path.join(tmpdir(), "fathom-memu-")),
  };
  const model = new FakeModel([{ text: "Hello!" }]);
  let first: ModelRequest | undefined;
  const stream = model.stream.bind(model);
  model.stream = (request) => {
    first ??= request;
    return stream(request);
  };
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    memory: { folders: memory },
  });
  await collect(agent, "hello");
  assert.match(first!.system, /## Memory/);
  assert.ok(first!.tools.some((t) => t.name === "ask_user") && first!.tools.some((t) => t.name === "web_fetch"));
  const chars = JSON.stringify({ system: first!.system, messages: first!.messages, tools: first!.tools }).length;
  assert.ok(chars <= 8_000, `the first request for "hello" is ${chars} characters`);
});

test("run_tests and the code-intelligence tools come from a run's second step on, with their prompt section", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-later-"));
  const none = async () => ({ error: "not asked in this test" });
  const intel: CodeIntelligence = {
    label: "a test's language server",
    definitions: none,
    references: none,
    documentSymbols: none,
    workspaceSymbols: none,
    hover: none,
    rename: none,
    problems: none,
  };
  const model = new FakeModel([{ toolCalls: [{ name: "ls", arguments: { path: "/" } }] }, { text: "Done." }]);
  const requests: ModelRequest[] = [];
  const stream = model.stream.bind(model);
  model.stream = (request) => (requests.push(request), stream(request));
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    codeIntelligence: intel,
  });
  await collect(agent, "what is here?");
  const later = ["run_tests", "find_definition", "find_references", "rename_symbol", "get_problems"];
  const [first, second] = requests.map((r) => r.tools.map((t) => t.name));
  assert.deepEqual(
    later.filter((n) => first!.includes(n)),
    [],
  );
  assert.deepEqual(
    later.filter((n) => second!.includes(n)),
    later,
  );
  assert.doesNotMatch(requests[0]!.system, /# Code intelligence/);
  assert.match(requests[1]!.system, /# Code intelligence/);
});
