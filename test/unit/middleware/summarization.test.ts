import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import { ModelError } from "../../../src/core/model/types";
import { findCut } from "../../../src/core/middleware/summarization";
import { FakeModel, assertWellFormed, type FakeScript } from "../../support/fakeModel";
import { collect, echoTool, ofType } from "../../support/agentTestKit";

const chunk = "y".repeat(2000); // ~500 tokens per result
const step = (i: number): FakeScript => ({ toolCalls: [{ name: "echo", arguments: { text: `${i} ${chunk}` } }] });

test("past 85% of the window older turns are summarized; recent turns and call/result pairs stay", async () => {
  const script: FakeScript[] = [];
  for (let i = 0; i < 12; i++) script.push(step(i));
  // Any call with no tools is the summary request.
  const summaryCalls: number[] = [];
  let next = 0;
  const wrapped = new FakeModel(
    Array.from({ length: 40 }, () => (request, index) => {
      if (request.tools.length === 0) {
        summaryCalls.push(index);
        return { text: "SUMMARY: the person asked to echo; 0..n echoed." };
      }
      const turn = script[next++];
      return (turn as never) ?? { text: "all done" };
    }),
    "fake",
    8_000,
  );
  const agent = createAgent({
    model: wrapped,
    workspaceRoot: "/tmp",
    rules: false,
    generalPurposeSubagent: false,
    tools: [echoTool()],
  });
  const { events, done } = await collect(agent, "echo many things");
  assert.equal(done.reason, "completed");
  assert.ok(summaryCalls.length >= 1, "no summary was made");
  assert.ok(ofType(events, "warning").some((w) => w.code === "summarized"));
  const first = done.state.messages[0]!;
  assert.equal(first.role, "user");
  assert.match(first.content, /^\[Summary of the earlier conversation/);
  assertWellFormed(done.state.messages);
  assert.equal(done.state.messages[1]!.role, "assistant");
  // Every request sent to the model stayed well-formed.
  for (const r of wrapped.requests) assertWellFormed(r.messages);
  // The summary's usage counts.
  assert.ok(done.state.usage.inputTokens >= 10 * wrapped.requests.length);
});

test("if the summary call fails, old turns are dropped with a note", async () => {
  const script: FakeScript[] = [];
  for (let i = 0; i < 12; i++) script.push(step(i));
  let next = 0;
  const model = new FakeModel(
    Array.from({ length: 40 }, () => (request) => {
      if (request.tools.length === 0) return { error: new ModelError("overloaded", "busy") };
      return (script[next++] as never) ?? { text: "done" };
    }),
    "fake",
    8_000,
  );
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    generalPurposeSubagent: false,
    tools: [echoTool()],
  });
  const { events, done } = await collect(agent, "go");
  assert.equal(done.reason, "completed");
  assert.ok(ofType(events, "warning").some((w) => w.code === "context_trimmed"));
  assert.match(done.state.messages[0]!.content, /earlier messages were removed to fit the context window/);
  assertWellFormed(done.state.messages);
});

test("findCut never starts the kept part at a tool result", () => {
  const messages = [
    { role: "user" as const, content: "task" },
    {
      role: "assistant" as const,
      content: "",
      toolCalls: [
        { id: "a", name: "echo", arguments: "{}" },
        { id: "b", name: "echo", arguments: "{}" },
      ],
    },
    { role: "tool" as const, toolCallId: "a", toolName: "echo", content: "x".repeat(4000) },
    { role: "tool" as const, toolCallId: "b", toolName: "echo", content: "x".repeat(4000) },
  ];
  assert.equal(findCut(messages, 10), 1);
  assert.equal(findCut(messages.slice(0, 1), 10), 0);
});

test("the window can be overridden by setting", async () => {
  const model = new FakeModel([{ text: "short" }], "fake", 1_000_000);
  const agent = createAgent({ model, workspaceRoot: "/tmp", rules: false, contextWindow: 50, tools: [echoTool()] });
  // Only one message: nothing to summarize, but the run still works.
  const { done } = await collect(agent, "hello");
  assert.equal(done.reason, "completed");
});
