import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { patchToolCalls } from "../../../src/core/middleware/danglingToolCalls";
import type { ChatMessage } from "../../../src/core/model/types";
import { FakeModel, assertWellFormed } from "../../support/fakeModel";
import { collect, echoTool, ofType } from "../../support/agentTestKit";

test("task runs subagents in parallel with fresh histories; their answers come back as results", async () => {
  const log: string[] = [];
  const model = new FakeModel([
    (req) => {
      assert.ok(req.tools.some((t) => t.name === "task"));
      return {
        toolCalls: [
          { name: "task", arguments: { description: "research A", subagent_type: "general-purpose" } },
          { name: "task", arguments: { description: "research B", subagent_type: "reviewer" } },
        ],
      };
    },
    // Subagent turns (both start before either finishes: they interleave).
    (req) => ({ toolCalls: [{ name: "slow", arguments: { text: req.messages[0]!.content } }] }),
    (req) => ({ toolCalls: [{ name: "slow", arguments: { text: req.messages[0]!.content } }] }),
    (req) => ({ text: `report on ${req.messages[0]!.content}` }),
    (req) => ({ text: `report on ${req.messages[0]!.content}` }),
    { text: "combined" },
  ]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    tools: [echoTool("slow", "read", 30, log)],
    subagents: [{ name: "reviewer", description: "Reviews.", systemPrompt: "You review.", tools: ["slow"] }],
  });
  const { events, done } = await collect(agent, "do both");
  assert.equal(done.reason, "completed");
  assert.deepEqual(
    log.slice(0, 2).map((l) => l.split(" ")[0]),
    ["start", "start"],
  );
  const results = done.state.messages.filter((m) => m.role === "tool");
  assert.deepEqual(results.map((r) => r.content).sort(), ["report on research A", "report on research B"]);
  // Subagents saw only their description, and no task tool.
  const subRequests = model.requests.slice(1, 5);
  for (const r of subRequests) {
    assert.match(r.messages[0]!.content, /^research [AB]$/);
    assert.ok(!r.toolNames.includes("task"));
  }
  const reviewerReq = subRequests.find((r) => r.messages[0]!.content === "research B")!;
  assert.deepEqual(reviewerReq.toolNames, ["slow"]);
  assert.match(reviewerReq.system, /You review\./);
  // Nested events, and usage from subagents counted in the main total.
  const nested = ofType(events, "subagent");
  assert.ok(nested.some((e) => e.event.type === "tool_call_finished"));
  assert.equal(done.state.usage.inputTokens, 60);
  assertWellFormed(done.state.messages);
});

test("an unknown subagent_type is a schema error listing the types", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "task", arguments: { description: "x", subagent_type: "wizard" } }] },
    { text: "ok" },
  ]);
  const agent = createAgent({ model, workspaceRoot: "/tmp", rules: false });
  const { done } = await collect(agent, "go");
  assert.match(done.state.messages.find((m) => m.role === "tool")!.content, /subagent_type.*general-purpose/s);
});

test("a failing subagent comes back as an error result, not a crash", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "task", arguments: { description: "x", subagent_type: "general-purpose" } }] },
    { toolCalls: [{ name: "nope", arguments: {} }] },
    { toolCalls: [{ name: "nope", arguments: {} }] },
    { text: "main carries on" },
  ]);
  const agent = createAgent({ model, workspaceRoot: "/tmp", rules: false, maxConsecutiveToolErrors: 2 });
  const { done } = await collect(agent, "go");
  assert.equal(done.reason, "completed");
  assert.match(
    done.state.messages.find((m) => m.role === "tool")!.content,
    /subagent stopped before finishing \(tool_failures/,
  );
});

test("AGENTS.md at the workspace root is added to the system prompt", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-rules-"));
  writeFileSync(path.join(dir, "AGENTS.md"), "Always use tabs.\n");
  const model = new FakeModel([{ text: "ok" }, { text: "ok" }]);
  await collect(createAgent({ model, workspaceRoot: dir }), "hi");
  assert.match(model.requests[0]!.system, /# Project rules \(from \/AGENTS\.md\)\nAlways use tabs\./);
  assert.match(model.requests[0]!.system, new RegExp(`Workspace root: ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await collect(createAgent({ model, workspaceRoot: path.join(dir, "none") }), "hi");
  assert.doesNotMatch(model.requests[1]!.system, /Project rules/);
});

test("patchToolCalls adds missing results in place and drops orphans and duplicates", () => {
  const messages: ChatMessage[] = [
    { role: "tool", toolCallId: "zz", toolName: "echo", content: "orphan" },
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "a", name: "echo", arguments: "{}" },
        { id: "b", name: "echo", arguments: "{}" },
      ],
    },
    { role: "tool", toolCallId: "b", toolName: "echo", content: "B" },
    { role: "tool", toolCallId: "b", toolName: "echo", content: "B again" },
    { role: "user", content: "next" },
  ];
  assert.equal(patchToolCalls(messages), 1);
  assert.deepEqual(
    messages.map((m) => (m.role === "tool" ? `tool:${m.toolCallId}:${m.content}` : m.role)),
    ["user", "assistant", "tool:a:Tool call was cancelled or did not complete.", "tool:b:B", "user"],
  );
  assertWellFormed(messages);
  assert.equal(patchToolCalls(messages), 0);
});
