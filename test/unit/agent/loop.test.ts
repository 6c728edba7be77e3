import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import { ModelError } from "../../../src/core/model/types";
import { FakeModel, assertWellFormed } from "../../support/fakeModel";
import { collect, echoTool, ofType } from "../../support/agentTestKit";

const base = { workspaceRoot: "/tmp/ws", rules: false, generalPurposeSubagent: false } as const;

test("answers without tools: text deltas, usage, done completed", async () => {
  const model = new FakeModel([{ text: "Hello there" }]);
  const agent = createAgent({ ...base, model });
  const { events, done } = await collect(agent, "hi");
  assert.equal(done.reason, "completed");
  assert.equal(done.finalText, "Hello there");
  assert.deepEqual(
    ofType(events, "text_delta").map((e) => e.text),
    ["Hello there"],
  );
  const usage = ofType(events, "usage");
  assert.equal(usage.length, 1);
  assert.equal(usage[0]!.total.inputTokens, 10);
  assert.deepEqual(done.state.messages, [
    { role: "user", content: "hi" },
    { role: "assistant", content: "Hello there" },
  ]);
  // The state is plain JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(done.state)), done.state);
});

test("runs a tool call and feeds the result back", async () => {
  const model = new FakeModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "done" }]);
  const agent = createAgent({ ...base, model, tools: [echoTool()] });
  const { events, done } = await collect(agent, "go");
  assert.equal(done.reason, "completed");
  const started = ofType(events, "tool_call_started");
  const args = ofType(events, "tool_call_arguments");
  const finished = ofType(events, "tool_call_finished");
  assert.equal(started.length, 1);
  assert.equal(args[0]!.delta, '{"text":"x"}');
  assert.deepEqual(finished[0]!.args, { text: "x" });
  assert.equal(finished[0]!.content, "echo: x");
  assert.equal(finished[0]!.isError, false);
  const second = model.requests[1]!.messages;
  assert.equal(second.at(-1)!.role, "tool");
  assert.equal((second.at(-1) as { content: string }).content, "echo: x");
  assertWellFormed(done.state.messages);
  assert.ok(model.requests[0]!.toolNames.includes("echo"));
});

test("invalid JSON, unknown tools and schema violations become results the model can fix", async () => {
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "echo", arguments: "{not json" },
        { name: "nope", arguments: {} },
        { name: "echo", arguments: { text: ["a"] } },
      ],
    },
    { text: "ok" },
  ]);
  const agent = createAgent({ ...base, model, tools: [echoTool()] });
  const { done } = await collect(agent, "go");
  assert.equal(done.reason, "completed");
  const results = done.state.messages.filter((m) => m.role === "tool");
  assert.equal(results.length, 3);
  assert.match(results[0]!.content, /not valid JSON/);
  assert.match(results[1]!.content, /no tool named "nope".*Available tools: .*echo/);
  assert.match(results[2]!.content, /invalid arguments for echo:\n- text: .*expected string/i);
  for (const r of results) assert.equal((r as { isError?: boolean }).isError, true);
  assertWellFormed(done.state.messages);
});

test("read-only calls in one turn run concurrently; side-effect calls one at a time in order", async () => {
  const log: string[] = [];
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "r1", arguments: { text: "a" } },
        { name: "r2", arguments: { text: "b" } },
        { name: "w", arguments: { text: "c" } },
        { name: "w", arguments: { text: "d" } },
      ],
    },
    { text: "ok" },
  ]);
  const agent = createAgent({
    ...base,
    model,
    tools: [echoTool("r1", "read", 30, log), echoTool("r2", "read", 10, log), echoTool("w", "other", 5, log)],
  });
  const { done } = await collect(agent, "go");
  assert.deepEqual(log, [
    "start r1 a",
    "start r2 b",
    "end r2 b",
    "end r1 a",
    "start w c",
    "end w c",
    "start w d",
    "end w d",
  ]);
  // Results keep call order even though r2 finished first.
  assert.deepEqual(
    done.state.messages.filter((m) => m.role === "tool").map((m) => (m as { toolName: string }).toolName),
    ["r1", "r2", "w", "w"],
  );
});

test("step limit stops the run with max_steps", async () => {
  const turns = Array.from({ length: 5 }, (_, i) => ({
    toolCalls: [{ name: "echo", arguments: { text: String(i) } }],
  }));
  const model = new FakeModel(turns);
  const agent = createAgent({ ...base, model, tools: [echoTool()], maxSteps: 3 });
  const { done } = await collect(agent, "go");
  assert.equal(done.reason, "max_steps");
  assert.match(done.message!, /3 model calls/);
  assert.equal(model.requests.length, 3);
  assertWellFormed(done.state.messages);
});

test("the same call repeated: warned at 3, stopped at 5", async () => {
  const same = { toolCalls: [{ name: "echo", arguments: { text: "same" } }] };
  const model = new FakeModel([same, same, same, same, same, { text: "never" }]);
  const agent = createAgent({ ...base, model, tools: [echoTool()] });
  const { events, done } = await collect(agent, "go");
  assert.equal(done.reason, "repetition");
  const results = done.state.messages.filter((m) => m.role === "tool");
  assert.equal(results.length, 5);
  assert.doesNotMatch(results[1]!.content, /Warning/);
  assert.match(results[2]!.content, /\[Warning\] You have made this exact call 3 times/);
  assert.match(results[4]!.content, /^Not run/);
  assert.equal(ofType(events, "warning").filter((w) => w.code === "repetition").length, 2);
  assertWellFormed(done.state.messages);
});

test("a successful edit resets the repetition count (re-reading after a change is fine)", async () => {
  const read = { toolCalls: [{ name: "echo", arguments: { text: "same" } }] };
  const turns = [];
  for (let i = 0; i < 6; i++) turns.push(read, { toolCalls: [{ name: "w", arguments: { text: String(i) } }] });
  const model = new FakeModel([...turns, { text: "fine" }]);
  const agent = createAgent({
    ...base,
    model,
    tools: [echoTool(), echoTool("w", "edit")],
    approvalPolicy: { edit: "auto" },
  });
  const { done } = await collect(agent, "go");
  assert.equal(done.reason, "completed");
});

test("consecutive failed tool calls stop the run", async () => {
  const bad = (i: number) => ({ toolCalls: [{ name: "echo", arguments: { wrong: i } }] });
  const model = new FakeModel(Array.from({ length: 6 }, (_, i) => bad(i)));
  const agent = createAgent({ ...base, model, tools: [echoTool()], maxConsecutiveToolErrors: 4 });
  const { done } = await collect(agent, "go");
  assert.equal(done.reason, "tool_failures");
  assert.equal(model.requests.length, 4);
});

test("spend cap stops and says so; unanswered calls get results", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "echo", arguments: { text: "a" } }], usage: { inputTokens: 1000 } },
    { text: "unreached" },
  ]);
  const agent = createAgent({
    ...base,
    model,
    tools: [echoTool()],
    spendCapUsd: 0.5,
    costOf: (u) => u.inputTokens / 1000,
  });
  const { done } = await collect(agent, "go");
  assert.equal(done.reason, "spend_cap");
  assert.match(done.message!, /spend cap of \$0\.50/);
  assert.equal(done.state.costUsd, 1);
  assertWellFormed(done.state.messages);
});

test("a model error ends the run with a readable error", async () => {
  const model = new FakeModel([
    { error: new ModelError("auth", "The API key was refused (401). Set OPENAI_API_KEY.", 401) },
  ]);
  const agent = createAgent({ ...base, model });
  const { events, done } = await collect(agent, "go");
  assert.equal(done.reason, "error");
  assert.equal(ofType(events, "error")[0]!.kind, "auth");
  assert.match(done.message!, /API key was refused/);
});

test("cancel during the model call: done cancelled, partial text kept", async () => {
  const model = new FakeModel([{ hang: true, text: "thinking" }]);
  const agent = createAgent({ ...base, model });
  const controller = new AbortController();
  const events = [];
  for await (const event of agent.run("go", { signal: controller.signal })) {
    events.push(event);
    if (event.type === "text_delta") controller.abort();
  }
  const done = events.at(-1)!;
  assert.equal(done.type, "done");
  assert.equal(done.type === "done" && done.reason, "cancelled");
  assert.deepEqual(done.type === "done" && done.state.messages.at(-1), { role: "assistant", content: "thinking" });
});

test("cancel during a tool call: remaining calls get results, no more model calls", async () => {
  const controller = new AbortController();
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "slow", arguments: { text: "a" } },
        { name: "slow", arguments: { text: "b" } },
      ],
    },
    { text: "unreached" },
  ]);
  const agent = createAgent({ ...base, model, tools: [echoTool("slow", "other", 50)] });
  setTimeout(() => controller.abort(), 20);
  const { done } = await collect(agent, "go", { signal: controller.signal });
  assert.equal(done.reason, "cancelled");
  assert.equal(model.requests.length, 1);
  const results = done.state.messages.filter((m) => m.role === "tool");
  assert.equal(results.length, 2);
  assert.match(results[1]!.content, /cancelled/);
  assertWellFormed(done.state.messages);
});

test("breaking out of the event stream cancels the run", async () => {
  const model = new FakeModel([{ hang: true, text: "x" }]);
  const agent = createAgent({ ...base, model });
  for await (const event of agent.run("go")) {
    if (event.type === "text_delta") break;
  }
  // The hanging model call was aborted, so the script is not waiting forever.
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(model.requests.length, 1);
});

test("resume: a saved state continues; dangling tool calls are patched first", async () => {
  const model = new FakeModel([{ text: "continued" }]);
  const agent = createAgent({ ...base, model, tools: [echoTool()] });
  const saved = JSON.parse(
    JSON.stringify({
      version: 1,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "c1", name: "echo", arguments: '{"text":"a"}' },
            { id: "c2", name: "echo", arguments: '{"text":"b"}' },
          ],
        },
        { role: "tool", toolCallId: "c1", toolName: "echo", content: "echo: a" },
      ],
      todos: [{ content: "t", status: "pending" }],
      usage: { inputTokens: 5, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      steps: 1,
      files: {},
    }),
  );
  const { events, done } = await collect(agent, "please continue", { state: saved });
  assert.equal(done.reason, "completed");
  const sent = model.requests[0]!.messages;
  assert.deepEqual(
    sent.map((m) => m.role),
    ["user", "assistant", "tool", "tool", "user"],
  );
  assert.match((sent[3] as { content: string }).content, /cancelled or did not complete/);
  assert.equal(ofType(events, "warning")[0]!.code, "dangling_tool_calls");
  assert.equal(done.state.steps, 2);
  assert.equal(done.state.usage.inputTokens, 15);
  assert.deepEqual(done.state.todos, [{ content: "t", status: "pending" }]);
  // The caller's object was not changed.
  assert.equal(saved.messages.length, 3);
});

test("resume with askAgain: the calls that waited for approval are asked again before the model; the others are patched", async () => {
  const model = new FakeModel([{ text: "continued" }]);
  const asked: string[] = [];
  const agent = createAgent({
    ...base,
    model,
    tools: [echoTool()],
    approvalPolicy: { read: "ask", edit: "ask", execute: "ask" },
    approvalGate: { request: async (r) => (asked.push(r.toolCallId), { type: "approve" }) },
  });
  const saved = {
    version: 1,
    messages: [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "echo", arguments: '{"text":"a"}' },
          { id: "c2", name: "echo", arguments: '{"text":"b"}' },
        ],
      },
    ],
    todos: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
    steps: 1,
    files: {},
  };
  const { events, done } = await collect(agent, "", { state: saved as never, askAgain: ["c2"] });
  assert.equal(done.reason, "completed");
  assert.deepEqual(asked, ["c2"], "only the call that waited for the person is asked again");
  assert.ok(ofType(events, "approval_requested").some((e) => e.toolCallId === "c2"));
  const sent = model.requests[0]!.messages;
  assert.deepEqual(
    sent.map((m) => m.role),
    ["user", "assistant", "tool", "tool"],
  );
  assert.match(
    (sent[2] as { content: string }).content,
    /cancelled or did not complete/,
    "c1 (running when it stopped) is not run again",
  );
  assert.equal((sent[3] as { content: string }).content, "echo: b");
  // A new message from the person instead: nothing is asked again.
  asked.length = 0;
  const other = await collect(
    createAgent({
      ...base,
      model: new FakeModel([{ text: "ok" }]),
      tools: [echoTool()],
      approvalPolicy: { read: "ask", edit: "ask", execute: "ask" },
      approvalGate: { request: async (r) => (asked.push(r.toolCallId), { type: "approve" }) },
    }),
    "something else",
    { state: saved as never, askAgain: ["c2"] },
  );
  assert.equal(other.done.reason, "completed");
  assert.deepEqual(asked, []);
});

test("a corrupt saved state ends with a clear error and loses nothing", async () => {
  const model = new FakeModel([]);
  const agent = createAgent({ ...base, model });
  const { done } = await collect(agent, "x", { state: { version: 7 } as never });
  assert.equal(done.reason, "error");
  assert.match(done.message!, /version 7/);
});

test("tool call ids are unique across the task even when the model repeats or omits them", async () => {
  const model = new FakeModel([
    {
      toolCalls: [
        { id: "call_0", name: "echo", arguments: { text: "a" } },
        { id: "call_0", name: "echo", arguments: { text: "b" } },
      ],
    },
    {
      toolCalls: [
        { id: "call_0", name: "echo", arguments: { text: "c" } },
        { id: "", name: "echo", arguments: { text: "d" } },
      ],
    },
    { text: "done" },
  ]);
  const agent = createAgent({ ...base, model, tools: [echoTool()] });
  const { events, done } = await collect(agent, "go");
  const ids = ofType(events, "tool_call_finished").map((e) => e.toolCallId);
  assert.equal(ids.length, 4);
  assert.equal(new Set(ids).size, 4, `ids: ${ids.join(", ")}`);
  assert.equal(ids[0], "call_0", "a unique id from the model is kept");
  assertWellFormed(done.state.messages);
  // Resuming the task must not reuse an id either.
  const resumed = new FakeModel([
    { toolCalls: [{ id: "call_0", name: "echo", arguments: { text: "e" } }] },
    { text: "ok" },
  ]);
  const again = await collect(createAgent({ ...base, model: resumed, tools: [echoTool()] }), "more", {
    state: done.state,
  });
  const newId = ofType(again.events, "tool_call_finished")[0]!.toolCallId;
  assert.ok(!ids.includes(newId), `resumed id ${newId} collides`);
});

test("beforeFinish: a middleware that finds more to do after the final answer continues the run once, with its text and a note", async () => {
  let pending = true;
  const model = new FakeModel([{ text: "All done." }, { text: "Fixed the error too." }]);
  const agent = createAgent({
    model,
    workspaceRoot: "/tmp",
    rules: false,
    generalPurposeSubagent: false,
    middleware: [
      {
        name: "lateCheck",
        async beforeFinish() {
          if (!pending) return undefined;
          pending = false;
          return { text: "[Fathom] The editor reports an error in /a.ts.", note: "An error came in after the answer." };
        },
      },
    ],
  });
  const { events, done } = await collect(agent, "do it");
  assert.equal(done.reason, "completed");
  assert.equal(done.finalText, "Fixed the error too.");
  assert.equal(model.requests.length, 2);
  assert.deepEqual(model.requests[1]!.messages.slice(-2), [
    { role: "assistant", content: "All done." },
    { role: "user", content: "[Fathom] The editor reports an error in /a.ts." },
  ]);
  assert.deepEqual(
    ofType(events, "warning").map((w) => [w.code, w.message]),
    [["continued", "An error came in after the answer."]],
  );
  assertWellFormed(done.state.messages);
});
