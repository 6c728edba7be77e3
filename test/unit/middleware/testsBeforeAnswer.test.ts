// An answer before any test ran, when the person asked for the tests to pass, is sent back once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { Executor } from "../../../src/core/executor/types";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const ran: string[] = [];
const executor: Executor = {
  async run(command) {
    ran.push(command);
    return {
      output: "1 passed\n",
      exitCode: 0,
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 1,
      via: "fake",
    };
  },
};
const base = { workspaceRoot: "/tmp/ws", rules: false, generalPurposeSubagent: false, executor } as const;
const ASK = "Fix two_fer.py so that `python -m pytest -q` passes.";

test("an answer with no test run is sent back once, naming the person's test command", async () => {
  const model = new FakeModel([
    { text: "Done: the function is fixed." },
    { toolCalls: [{ name: "execute", arguments: { command: "python -m pytest -q" } }] },
    { text: "All tests pass." },
  ]);
  const { done } = await collect(createAgent({ ...base, model }), ASK);
  assert.equal(done.reason, "completed");
  assert.equal(model.requests.length, 3);
  const reminder = model.requests[1]!.messages.at(-1)!;
  assert.equal(reminder.role, "user");
  assert.match(reminder.content, /no test has been run in this task\. Run `python -m pytest -q` with execute/);
  assert.equal(done.finalText, "All tests pass.");
});

test("once only: a second answer without tests ends the run", async () => {
  const model = new FakeModel([{ text: "Done." }, { text: "Still done." }]);
  const { done } = await collect(createAgent({ ...base, model }), ASK);
  assert.equal(model.requests.length, 2);
  assert.equal(done.finalText, "Still done.");
});

test("no reminder when tests ran, when none were asked for, or when commands cannot run", async () => {
  const ranTests = new FakeModel([
    { toolCalls: [{ name: "execute", arguments: { command: "pytest -q" } }] },
    { text: "Green." },
  ]);
  await collect(createAgent({ ...base, model: ranTests }), ASK);
  assert.equal(ranTests.requests.length, 2);

  const notAsked = new FakeModel([{ text: "It greets by name." }]);
  await collect(createAgent({ ...base, model: notAsked }), "What does two_fer.py do?");
  assert.equal(notAsked.requests.length, 1);

  const readOnly = new FakeModel([{ text: "Done." }]);
  await collect(createAgent({ ...base, model: readOnly, executor: undefined }), ASK);
  assert.equal(readOnly.requests.length, 1);

  const lookedOnly = new FakeModel([
    { toolCalls: [{ name: "execute", arguments: { command: "cat test_two_fer.py" } }] },
    { text: "Done." },
    { text: "Done again." },
  ]);
  await collect(createAgent({ ...base, model: lookedOnly }), ASK);
  assert.equal(lookedOnly.requests.length, 3, "showing a test file is not running the tests");
});
