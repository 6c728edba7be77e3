import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createAgent } from "../../../src/core/agent/createAgent";
import { MAX_PLAN_CHARS, planTodos, startPlan } from "../../../src/core/middleware/planMode";
import { FakeModel } from "../../support/fakeModel";
import { collect, echoTool, ofType } from "../../support/agentTestKit";

const base = { workspaceRoot: "/tmp/ws", rules: false, generalPurposeSubagent: false } as const;
const PLAN =
  "## Goal\nAdd a flag.\n## Steps\n1. Read `src/cli.ts`\n2. Add `--verbose`\n3. Test it\n## Files\n- src/cli.ts\n## Risks\n- none";

test("a plan-mode request offers only the tools that change nothing; an act request offers all", async () => {
  const tools = [
    echoTool("look", "read"),
    echoTool("change", "edit"),
    echoTool("run_it", "execute"),
    echoTool("mystery", "other"),
  ];
  const model = new FakeModel([{ text: PLAN }, { text: "done" }]);
  const agent = createAgent({ ...base, model, tools });
  const planned = await collect(agent, "add a flag", { mode: "plan" });
  const planTools = model.requests[0]!.toolNames;
  assert.ok(planTools.includes("look") && planTools.includes("write_todos") && planTools.includes("ask_user"));
  for (const name of ["change", "run_it", "mystery"])
    assert.ok(!planTools.includes(name), `${name} not offered in plan mode`);
  assert.match(model.requests[0]!.system, /Plan mode/);
  assert.equal(planned.done.state.mode, "plan");
  assert.deepEqual(planned.done.state.plan, { text: PLAN, status: "proposed" });
  assert.deepEqual(ofType(planned.events, "plan_proposed"), [{ type: "plan_proposed", text: PLAN, capped: false }]);
  await collect(agent, "now act", { state: planned.done.state, mode: "act" });
  const actTools = model.requests[1]!.toolNames;
  assert.ok(actTools.includes("change") && actTools.includes("run_it"));
  assert.ok(actTools.length > planTools.length);
});

test("a write the model makes up in plan mode is refused with a message, and nothing runs", async () => {
  const log: string[] = [];
  const model = new FakeModel([{ toolCalls: [{ name: "change", arguments: { text: "x" } }] }, { text: PLAN }]);
  const gateAsked: string[] = [];
  const approvalGate = {
    request: async (r: { toolName: string }) => (gateAsked.push(r.toolName), { type: "approve" as const }),
  };
  const { done } = await collect(
    createAgent({ ...base, model, approvalGate, tools: [echoTool("change", "edit", 0, log)] }),
    "go",
    { mode: "plan" },
  );
  assert.deepEqual(gateAsked, [], "never asked about");
  assert.deepEqual(log, []);
  const result = done.state.messages.find((m) => m.role === "tool")!;
  assert.equal(result.isError, true);
  assert.match(result.content, /Not run: the task is in Plan mode/);
});

test("a subagent of a plan-mode run is read-only too", async () => {
  const log: string[] = [];
  const model = new FakeModel([
    { toolCalls: [{ name: "task", arguments: { description: "change it", subagent_type: "general-purpose" } }] },
    { toolCalls: [{ name: "change", arguments: { text: "x" } }] },
    { text: "could not" },
    { text: PLAN },
  ]);
  const { done } = await collect(
    createAgent({ ...base, generalPurposeSubagent: true, model, tools: [echoTool("change", "edit", 0, log)] }),
    "go",
    { mode: "plan" },
  );
  assert.deepEqual(log, []);
  assert.ok(!model.requests[1]!.toolNames.includes("change"));
  assert.equal(done.state.plan?.text, PLAN, "the subagent's report is not the plan");
});

test("a 1 MB plan is capped and says so", async () => {
  // Text that does not repeat (a repeating one is cut earlier, as a runaway answer).
  const huge = `## Steps\n1. x\n${randomBytes(500_000).toString("hex")}`;
  const { events, done } = await collect(createAgent({ ...base, model: new FakeModel([{ text: huge }]) }), "go", {
    mode: "plan",
  });
  const proposed = ofType(events, "plan_proposed")[0]!;
  assert.equal(proposed.capped, true);
  assert.ok(proposed.text.length < MAX_PLAN_CHARS + 200);
  assert.match(proposed.text, /cut at 64,000 characters/);
  assert.equal(done.state.plan!.text, proposed.text);
});

test("starting a plan: Act mode, the steps as todos, the (edited) plan in the message", async () => {
  const { done } = await collect(createAgent({ ...base, model: new FakeModel([{ text: PLAN }]) }), "go", {
    mode: "plan",
  });
  const edited = PLAN.replace("3. Test it", "3. Test it\n4. Update the README");
  const started = startPlan(done.state, edited);
  assert.ok(!("error" in started));
  assert.equal(started.state.mode, "act");
  assert.deepEqual(started.state.plan, { text: edited, status: "started" });
  assert.deepEqual(
    started.state.todos.map((t) => t.content),
    ["Read `src/cli.ts`", "Add `--verbose`", "Test it", "Update the README"],
  );
  assert.match(started.input, /edited and approved this plan/);
  assert.ok(started.input.includes(edited));
  assert.ok("error" in startPlan({ ...done.state, plan: undefined }));
});

test("planTodos: bullets when no numbered list, none without a list", () => {
  assert.deepEqual(
    planTodos("# Steps\n- a\n- b\n# Risks\n- r").map((t) => t.content),
    ["a", "b"],
  );
  assert.deepEqual(planTodos("just prose"), []);
});
