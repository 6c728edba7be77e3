import { test } from "node:test";
import assert from "node:assert/strict";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core/approval";
import { createAgent, type AgentOptions } from "../../../src/core/agent/createAgent";
import { StateBackend } from "../../../src/core/backends/state";
import type { ExecResult, Executor } from "../../../src/core/executor/types";
import { FakeModel } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const JEST_FAIL = `  ● math › subtracts

    expect(received).toBe(expected) // Object.is equality

    Expected: 3
    Received: 1

      at Object.toBe (sum.test.js:4:17)

Tests:       1 failed, 4 passed, 5 total
`;

function setup(o: {
  files?: Record<string, string>;
  output?: string;
  exitCode?: number;
  decide?: (r: ApprovalRequest) => ApprovalDecision;
  args?: Record<string, unknown>;
  agent?: Partial<AgentOptions>;
}) {
  const ran: string[] = [];
  const executor: Executor = {
    async run(command): Promise<ExecResult> {
      ran.push(command);
      return {
        output: o.output ?? "",
        exitCode: o.exitCode ?? 0,
        timedOut: false,
        cancelled: false,
        truncated: false,
        durationMs: 5,
        via: "fake",
      };
    },
  };
  const asked: ApprovalRequest[] = [];
  const model = new FakeModel([
    { toolCalls: [{ id: "rt", name: "run_tests", arguments: o.args ?? {} }] },
    { text: "Done." },
  ]);
  const agent = createAgent({
    model,
    workspaceRoot: "/ws",
    backend: new StateBackend(o.files ?? { "/package.json": JSON.stringify({ scripts: { test: "jest" } }) }),
    executor,
    approvalGate: { request: async (r) => (asked.push(r), (o.decide ?? (() => ({ type: "approve" })))(r)) },
    rules: false,
    generalPurposeSubagent: false,
    ...o.agent,
  });
  return { agent, ran, asked };
}

const resultOf = (done: Awaited<ReturnType<typeof collect>>["done"]) =>
  done.state.messages.find((m) => m.role === "tool" && m.toolCallId === "rt")!;

test("run_tests asks for the command it found as an execute call, runs it, and answers with the short report", async () => {
  const { agent, ran, asked } = setup({ output: JEST_FAIL, exitCode: 1, args: { pattern: "subtracts" } });
  const { events, done } = await collect(agent, "run the tests");
  // One question, on the nested execute card, showing the command itself.
  assert.deepEqual(
    asked.map((r) => [r.toolCallId, r.toolName, r.kind, r.command]),
    [["rt_run", "execute", "execute", "npm test -- -t subtracts"]],
  );
  assert.deepEqual(ran, ["npm test -- -t subtracts"]);
  assert.ok(ofType(events, "tool_call_started").some((e) => e.toolCallId === "rt_run" && e.toolName === "execute"));
  const result = resultOf(done);
  assert.equal(
    result.content,
    "`npm test -- -t subtracts`: 1 failed, 4 passed (exit code 1).\n- math › subtracts (sum.test.js:4)\n    expect(received).toBe(expected) // Object.is equality\n    Expected: 3\n    Received: 1\n(The test command came from package.json scripts.test.)",
  );
  const finished = ofType(events, "tool_call_finished").find((e) => e.toolCallId === "rt")!;
  assert.equal(finished.isError, true);
  assert.deepEqual(finished.details?.counts, { passed: 4, failed: 1, errors: 0 });
  assert.deepEqual(finished.details?.failures, [
    {
      name: "math › subtracts",
      location: "sum.test.js:4",
      message: "expect(received).toBe(expected) // Object.is equality\nExpected: 3\nReceived: 1",
    },
  ]);
});

test("the configured command wins, and the person's edit of it is what runs and is reported", async () => {
  const { agent, ran } = setup({
    agent: { testCommand: "make check" },
    output: "all good",
    decide: () => ({ type: "edit", args: { command: "make check-fast" } }),
  });
  const { done } = await collect(agent, "run the tests");
  assert.deepEqual(ran, ["make check-fast"]);
  const result = resultOf(done);
  assert.match(
    result.content,
    /^`make check-fast`: passed \(exit code 0\)\.\n\(The test command came from the fathom\.testCommand setting\. The person changed it before approving\.\)$/,
  );
  assert.ok(!("isError" in result && result.isError));
});

test("a rejected or denied command does not run, and the model hears why", async () => {
  const rejected = setup({ decide: () => ({ type: "reject", reason: "not now" }) });
  const r = resultOf((await collect(rejected.agent, "test")).done);
  assert.deepEqual(rejected.ran, []);
  assert.match(r.content, /The person rejected this execute call\. Their reason: not now/);

  const denied = setup({ agent: { commands: { deny: ["npm test*"] } } });
  const d = resultOf((await collect(denied.agent, "test")).done);
  assert.deepEqual(denied.ran, []);
  assert.deepEqual(denied.asked, []);
  assert.match(d.content, /deny pattern "npm test\*"/);
});

test("no test command found: an error saying what was looked for and what to do, nothing asked or run", async () => {
  const { agent, ran, asked } = setup({ files: { "/README.md": "hello" } });
  const result = resultOf((await collect(agent, "test")).done);
  assert.deepEqual([ran, asked], [[], []]);
  assert.match(
    result.content,
    /^No test command found in the workspace \(looked for fathom\.testCommand, a package\.json/,
  );
  assert.match(result.content, /run that with execute, or ask the person to set fathom\.testCommand/);
});

test("run_tests is offered only where execute is", () => {
  const names = (o: Partial<AgentOptions>) =>
    createAgent({
      model: new FakeModel([]),
      workspaceRoot: "/ws",
      backend: new StateBackend(),
      rules: false,
      ...o,
    }).tools.map((t) => t.name);
  const executor: Executor = { run: async () => ({}) as ExecResult };
  assert.ok(names({ executor }).includes("run_tests"));
  assert.ok(!names({}).includes("run_tests"), "no executor, no execute, no run_tests");
  assert.ok(!names({ executor, narrowTools: { kinds: ["read"] } }).includes("run_tests"));
  assert.ok(!names({ executor, narrowTools: { names: ["read_file", "run_tests"] } }).includes("run_tests"));
  assert.ok(names({ executor, narrowTools: { names: ["execute", "run_tests"] } }).includes("run_tests"));
});
