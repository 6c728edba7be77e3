import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FakeModel } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const base = { workspaceRoot: "/tmp", rules: false, generalPurposeSubagent: false } as const;
const list = [
  { content: "Read the code", status: "completed" },
  { content: "Fix the bug", status: "in_progress" },
];

test("write_todos replaces the list, updates state and emits todos_changed", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "write_todos", arguments: { todos: [{ content: "old", status: "pending" }] } }] },
    { toolCalls: [{ name: "write_todos", arguments: { todos: list } }] },
    { text: "ok" },
  ]);
  const agent = createAgent({ ...base, model });
  const { events, done } = await collect(agent, "go");
  assert.deepEqual(done.state.todos, list);
  const changes = ofType(events, "todos_changed");
  assert.equal(changes.length, 2);
  assert.deepEqual(changes[1]!.todos, list);
  assert.match(
    done.state.messages.filter((m) => m.role === "tool")[1]!.content,
    /2 items \(1 completed, 1 in progress, 0 pending\)/,
  );
  assert.match(model.requests[0]!.system, /write_todos/);
});

test("several write_todos calls in one turn are all refused", async () => {
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "write_todos", arguments: { todos: list } },
        { name: "write_todos", arguments: { todos: [] } },
      ],
    },
    { text: "ok" },
  ]);
  const agent = createAgent({ ...base, model });
  const { events, done } = await collect(agent, "go");
  assert.deepEqual(done.state.todos, []);
  assert.equal(ofType(events, "todos_changed").length, 0);
  for (const r of done.state.messages.filter((m) => m.role === "tool"))
    assert.match(r.content, /called 2 times in one turn/);
});

test("a bad status is a schema error naming the field", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "write_todos", arguments: { todos: [{ content: "x", status: "doing" }] } }] },
    { text: "ok" },
  ]);
  const agent = createAgent({ ...base, model });
  const { done } = await collect(agent, "go");
  assert.match(done.state.messages.find((m) => m.role === "tool")!.content, /todos\.0\.status/);
});
