import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { createAgent } from "../../../src/core/agent/createAgent";
import { defineTool, type Tool } from "../../../src/core/tools/tool";
import { FakeModel } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const big = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1} ${"x".repeat(10)}`).join("\n");
const bigTool = defineTool({
  name: "big",
  description: "Returns a lot.",
  schema: z.object({}),
  kind: "read",
  run: async () => ({ content: big }),
}) as unknown as Tool;
// Stands in for the file tools' read_file so the test needs no backend.
const readFile = defineTool({
  name: "read_file",
  description: "Read.",
  schema: z.object({
    file_path: z.string(),
    offset: z.number().int().default(0),
    limit: z.number().int().default(2000),
  }),
  kind: "read",
  run: async () => ({ content: "from disk" }),
}) as unknown as Tool;

test("a huge result is saved under /large_tool_results and replaced by a preview; read_file pages it", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "big", arguments: {}, id: "call_1" }] },
    {
      toolCalls: [{ name: "read_file", arguments: { file_path: "/large_tool_results/call_1", offset: 100, limit: 3 } }],
    },
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/src/a.ts" } }] },
    { text: "ok" },
  ]);
  const agent = createAgent({ model, workspaceRoot: "/tmp", rules: false, tools: [bigTool, readFile] });
  const { events, done } = await collect(agent, "go");
  assert.ok(big.length > 80_000);
  const results = done.state.messages.filter((m) => m.role === "tool");
  assert.ok(results[0]!.content.length < 3000);
  assert.match(results[0]!.content, /saved at \/large_tool_results\/call_1/);
  assert.match(results[0]!.content, /^line 1 x+$/m);
  assert.match(results[0]!.content, /^line 20000 x+$/m);
  assert.equal(done.state.files["/large_tool_results/call_1"], big);
  assert.ok(
    results[1]!.content.startsWith(
      "   101\tline 101 xxxxxxxxxx\n   102\tline 102 xxxxxxxxxx\n   103\tline 103 xxxxxxxxxx\n",
    ),
  );
  assert.match(results[1]!.content, /offset=103/);
  assert.equal(results[2]!.content, "from disk");
  assert.equal(ofType(events, "warning")[0]!.code, "tool_result_evicted");
});

test("reading a saved result that does not exist lists the ones that do", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/large_tool_results/nope" } }] },
    { text: "ok" },
  ]);
  const agent = createAgent({ model, workspaceRoot: "/tmp", rules: false, tools: [readFile] });
  const { done } = await collect(agent, "go", {
    state: {
      version: 1,
      messages: [],
      todos: [],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      steps: 0,
      files: { "/large_tool_results/c9": "x" },
    },
  });
  assert.match(
    done.state.messages.find((m) => m.role === "tool")!.content,
    /does not exist\. Saved results: \/large_tool_results\/c9/,
  );
});
