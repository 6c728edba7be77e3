// Issue 11, findings 5 and 10: the step limit and spend cap cover subagents, parallel subagents
// are capped, and calls that undo each other are seen as a loop.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ChatModel, ModelRequest, ModelStreamEvent, ToolCall } from "../../../src/core/model/types";
import { MAX_QUEUED_SUBAGENTS } from "../../../src/core/run/taskBudget";
import { FakeModel } from "../../support/fakeModel";
import { collect, echoTool, ofType } from "../../support/agentTestKit";

/**
 * A model that never finishes: the main agent starts `tasks` subagents in its first turn, and
 * every subagent calls echo with new text forever. Counts requests and the most subagents that
 * were in a request at once.
 */
class EndlessModel implements ChatModel {
  readonly provider = "scripted" as const;
  readonly model = "endless";
  readonly contextWindow = 100_000;
  requests = 0;
  subagentRequests = 0;
  inFlight = 0;
  mostInFlight = 0;
  private n = 0;
  constructor(private readonly tasks: number) {}

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.requests++;
    const parent = request.tools.some((t) => t.name === "task");
    if (!parent) this.subagentRequests++;
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 2));
    this.inFlight--;
    const calls: ToolCall[] = parent
      ? Array.from({ length: this.tasks }, (_, i) => ({
          id: `t${this.n++}_${i}`,
          name: "task",
          arguments: JSON.stringify({ description: `job ${i}`, subagent_type: "general-purpose" }),
        }))
      : [{ id: `e${this.n++}`, name: "echo", arguments: JSON.stringify({ text: `step ${this.n}` }) }];
    for (const [i, c] of calls.entries()) {
      yield { type: "tool_call_start", index: i, id: c.id, name: c.name };
      yield { type: "tool_call_delta", index: i, argumentsDelta: c.arguments };
    }
    yield {
      type: "done",
      message: { role: "assistant", content: "", toolCalls: calls },
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: "tool_use",
    };
  }
}

describe("budgets cover subagents", () => {
  it("maxSteps 5 means five model requests in all, subagents included", async () => {
    const model = new EndlessModel(3);
    const { done } = await collect(
      createAgent({ model, workspaceRoot: "/tmp", rules: false, tools: [echoTool()], maxSteps: 5 }),
      "go",
    );
    assert.equal(model.requests, 5);
    assert.equal(done.reason, "max_steps");
    assert.match(done.message ?? "", /subagents included/);
  });

  it("a $1 spend cap stops subagents too, overshooting by at most the requests already in flight", async () => {
    const model = new EndlessModel(3);
    const agent = createAgent({
      model,
      workspaceRoot: "/tmp",
      rules: false,
      tools: [echoTool()],
      spendCapUsd: 1,
      costOf: () => 0.2,
      maxParallelSubagents: 2,
    });
    const { done } = await collect(agent, "go");
    assert.equal(done.reason, "spend_cap");
    assert.ok(done.state.costUsd <= 1 + 2 * 0.2 + 1e-9, `spent $${done.state.costUsd}`);
    assert.ok(model.requests <= 8, `${model.requests} requests`);
  });

  it("a thousand task calls in one turn: a few run at once, the rest wait or are refused, the step budget holds", async () => {
    const model = new EndlessModel(1000);
    const events: string[] = [];
    const agent = createAgent({
      model,
      workspaceRoot: "/tmp",
      rules: false,
      tools: [echoTool()],
      maxSteps: 40,
      maxParallelSubagents: 3,
    });
    const { done, events: all } = await collect(agent, "go");
    for (const e of all) if (e.type === "tool_call_finished" && e.toolName === "task") events.push(e.content);
    assert.ok(model.requests <= 40, `${model.requests} requests`);
    assert.ok(model.mostInFlight <= 3, `${model.mostInFlight} subagents asked the model at once`);
    const refused = events.filter((c) => /subagents are already running or waiting/.test(c)).length;
    assert.ok(refused >= 1000 - MAX_QUEUED_SUBAGENTS, `${refused} refused`);
    // The refusals count as failed calls, so the run may end on either guard.
    assert.ok(done.reason === "max_steps" || done.reason === "tool_failures", done.reason);
  });
});

describe("calls that undo each other are a loop", () => {
  const turn = (text: string) => ({ toolCalls: [{ name: "echo", arguments: { text } }] });

  it("warns at the second round of a two-call cycle and stops at the third", async () => {
    const model = new FakeModel(["A→B", "B→A", "A→B", "B→A", "A→B", "B→A", "A→B", "B→A"].map(turn));
    const { done, events } = await collect(
      createAgent({ model, workspaceRoot: "/tmp", rules: false, tools: [echoTool("echo", "edit")] }),
      "go",
    );
    assert.equal(done.reason, "repetition");
    assert.match(done.message ?? "", /same 2 calls 3 times in a row/);
    assert.equal(model.requests.length, 6);
    const warnings = ofType(events, "warning").filter((w) => w.code === "repetition");
    assert.match(warnings[0]?.message ?? "", /same 2 calls were made 2 times/);
    const fourth = model.requests[4]!.messages.at(-1);
    assert.match(fourth?.content ?? "", /undo each other/);
  });

  it("finds a three-call cycle too", async () => {
    const model = new FakeModel(["a", "b", "c", "a", "b", "c", "a", "b", "c", "a"].map(turn));
    const { done } = await collect(
      createAgent({ model, workspaceRoot: "/tmp", rules: false, tools: [echoTool("echo", "edit")] }),
      "go",
    );
    assert.equal(done.reason, "repetition");
    assert.equal(model.requests.length, 9);
  });

  it("does not trip on progress: edit, test, a different edit, test", async () => {
    const script = ["edit 1", "npm test", "edit 2", "npm test", "edit 3", "npm test", "edit 4", "npm test"].map(turn);
    const model = new FakeModel([...script, { text: "done" }]);
    const { done, events } = await collect(
      createAgent({ model, workspaceRoot: "/tmp", rules: false, tools: [echoTool("echo", "edit")] }),
      "go",
    );
    assert.equal(done.reason, "completed");
    assert.equal(ofType(events, "warning").length, 0);
  });
});
