import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { createAgent } from "../../../src/core/agent/createAgent";
import { SteeringInbox } from "../../../src/core/agent/steering";
import { defineTool, type Tool } from "../../../src/core/tools/tool";
import { FakeModel, assertWellFormed } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const base = { workspaceRoot: "/tmp/ws", rules: false, generalPurposeSubagent: false } as const;

/** A tool that runs until released (a long command). */
function slowTool(started: () => void, until: Promise<void>): Tool {
  return defineTool({
    name: "slow",
    description: "Runs a while.",
    schema: z.object({}),
    kind: "read",
    async run() {
      started();
      await until;
      return { content: "slow done" };
    },
  }) as unknown as Tool;
}

test("a message sent while a tool runs reaches the next request, after the tool's result", async () => {
  const inbox = new SteeringInbox();
  let finish!: () => void;
  const until = new Promise<void>((r) => (finish = r));
  const model = new FakeModel([
    { toolCalls: [{ name: "slow", arguments: {} }] },
    { text: "Switched to the other file." },
  ]);
  const tool = slowTool(() => {
    inbox.push("use the other file instead");
    finish();
  }, until);
  const { events, done } = await collect(createAgent({ ...base, model, tools: [tool] }), "start", { steering: inbox });
  assert.equal(done.reason, "completed");
  const second = model.requests[1]!.messages;
  assert.deepEqual(
    second.slice(-2).map((m) => m.role),
    ["tool", "user"],
  );
  assert.equal(second.at(-1)!.content, "use the other file instead");
  const steered = events.findIndex((e) => e.type === "steered");
  const toolDone = events.findIndex((e) => e.type === "tool_call_finished");
  assert.ok(steered > toolDone, "delivered after the running call ended");
  assert.equal(ofType(events, "steered")[0]!.text, "use the other file instead");
  assertWellFormed(done.state.messages);
});

test("a message sent while the model streams stops the stream, keeps what arrived, and the next request carries it", async () => {
  const inbox = new SteeringInbox();
  const model = new FakeModel([{ hang: true, text: "I will rewrite every" }, { text: "OK, only the tests." }]);
  const run = collect(createAgent({ ...base, model }), "refactor", { steering: inbox });
  await new Promise((r) => setTimeout(r, 30));
  inbox.push("only the tests, please");
  const { events, done } = await run;
  assert.equal(done.reason, "completed");
  assert.equal(done.finalText, "OK, only the tests.");
  const second = model.requests[1]!.messages;
  assert.deepEqual(second.slice(-2), [
    { role: "assistant", content: "I will rewrite every" },
    { role: "user", content: "only the tests, please" },
  ]);
  assert.equal(ofType(events, "steered").length, 1);
});

test("a message that arrives as the final answer ends is read before the run ends", async () => {
  const inbox = new SteeringInbox();
  const model = new FakeModel([
    (request) => (inbox.push("one more thing"), { text: request.messages.length > 0 ? "First answer." : "" }),
    { text: "Did the one more thing." },
  ]);
  const { done } = await collect(createAgent({ ...base, model }), "go", { steering: inbox });
  assert.equal(model.requests.length, 2);
  assert.equal(done.finalText, "Did the one more thing.");
  assert.equal(inbox.size, 0);
});

test("tool calls the model had begun when a message stopped the stream are closed, not run", async () => {
  const inbox = new SteeringInbox();
  let ran = 0;
  const tool = defineTool({
    name: "echo",
    description: "e",
    schema: z.object({ text: z.string() }),
    kind: "read",
    async run() {
      ran++;
      return { content: "x" };
    },
  }) as unknown as Tool;
  const model = new FakeModel([
    {
      hang: true,
      text: "Calling",
    },
    { text: "fine" },
  ]);
  // A stream that had started a call: simulated by the model's own events before it hangs.
  const original = model.stream.bind(model);
  let first = true;
  model.stream = async function* (request) {
    if (first) {
      first = false;
      yield { type: "tool_call_start", index: 0, id: "c1", name: "echo" } as const;
      setTimeout(() => inbox.push("stop that"), 10);
    }
    yield* original(request);
  };
  const { events, done } = await collect(createAgent({ ...base, model, tools: [tool] }), "go", { steering: inbox });
  assert.equal(ran, 0);
  const closed = ofType(events, "tool_call_finished").find((e) => e.toolCallId === "c1")!;
  assert.match(closed.content, /interrupted/);
  assertWellFormed(done.state.messages);
});
