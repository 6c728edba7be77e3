// What must hold after a task against a real model, whatever the model emitted. The suite
// asserts these; whether the task succeeded is only reported.
import assert from "node:assert/strict";
import type { AgentEvent } from "../../src/core/run/events";
import { parseRunState } from "../../src/core/run/runState";
import type { ChatMessage } from "../../src/core/model/types";
import { assertWellFormed } from "../support/fakeModel";
import type { RecordedExchange } from "./recordingProxy";
import { finishedCalls } from "./tasks";

type Done = Extract<AgentEvent, { type: "done" }>;

/** The run ended by itself within its step limit, with one `done` and no crash. */
export function assertEndedCleanly(
  done: Done | undefined,
  events: AgentEvent[],
  maxSteps: number,
  stderr = "",
): asserts done is Done {
  assert.ok(done, "the run ended with a done event");
  assert.equal(events.filter((e) => e.type === "done").length, 1, "exactly one done event");
  assert.ok(
    ["completed", "max_steps", "repetition", "tool_failures", "error"].includes(done.reason),
    `a known end: ${done.reason}`,
  );
  assert.ok(done.state.steps <= maxSteps, `within the step limit (${done.state.steps} of ${maxSteps})`);
  if (done.reason === "error") {
    assert.ok((done.message ?? "").length > 10, `a failure says what happened: ${done.message}`);
    assert.doesNotMatch(done.message ?? "", /^Internal error/, "not an internal error");
  }
  assert.doesNotMatch(
    stderr,
    /internal error|Unhandled|unhandledRejection|TypeError|ReferenceError|at .*\.ts:\d+/i,
    "no crash on stderr",
  );
  // History parses as a resumable state and is well formed (every call answered, in order).
  const parsed = parseRunState(JSON.parse(JSON.stringify(done.state)));
  assert.ok(!("error" in parsed), `the saved state parses: ${"error" in parsed ? parsed.error : ""}`);
  assertWellFormed(done.state.messages);
}

/**
 * Every tool call the server sent reached the loop (same name and arguments, in order) and was
 * run or answered: a `tool_call_finished` event and a result in the history.
 */
export function assertEveryCallAnswered(exchanges: RecordedExchange[], done: Done, events: AgentEvent[]): void {
  const inHistory = done.state.messages.flatMap((m: ChatMessage) =>
    m.role === "assistant" ? (m.toolCalls ?? []) : [],
  );
  if (exchanges.some((x) => x.constrained)) {
    // Constrained replies are JSON text: each reply naming a tool is one call, in order (its arguments may have been repaired).
    assert.deepEqual(
      inHistory.map((c) => c.name),
      callsSent(exchanges),
      "the calls in the history are the calls the model wrote",
    );
  } else {
    const sent = exchanges.flatMap((x) => x.toolCalls);
    assert.deepEqual(
      inHistory.map((c) => [c.name, c.arguments]),
      sent.map((c) => [c.name, c.arguments]),
      "the calls in the history are the calls the server sent",
    );
  }
  const results = new Map(done.state.messages.flatMap((m) => (m.role === "tool" ? [[m.toolCallId, m] as const] : [])));
  const finished = new Set(finishedCalls(events).map((e) => e.toolCallId));
  for (const call of inHistory) {
    const result = results.get(call.id);
    assert.ok(result, `${call.name} (${call.id}) has a result in the history`);
    assert.ok(result.content.trim().length > 0, `${call.name}'s result says something`);
    // A call cut off by cancel or a stop has a result but no finished event; nothing else may.
    if (done.reason !== "cancelled")
      assert.ok(
        finished.has(call.id) || /^Not run/.test(result.content),
        `${call.name} (${call.id}) was run or refused`,
      );
  }
}

/**
 * A call that failed validation (invalid JSON, wrong arguments, unknown tool) changed nothing,
 * and every file that changed was written by an edit call that succeeded (or a command ran).
 */
export function assertNoStrayWrites(
  before: Map<string, string>,
  after: Map<string, string>,
  events: AgentEvent[],
): void {
  const calls = finishedCalls(events);
  const commandRan = calls.some((c) => c.toolName === "execute" && !c.isError);
  if (commandRan) return;
  const written = new Set(
    calls
      .filter((c) => (c.toolName === "write_file" || c.toolName === "edit_file") && !c.isError)
      .map((c) => String((c.args as { file_path?: string } | undefined)?.file_path ?? "").replace(/^\/+/, "")),
  );
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
  for (const file of changed)
    assert.ok(written.has(file), `${file} changed, but no successful write_file/edit_file call wrote it`);
}

/** The tools the model called, in order: native calls, or the tool a constrained reply names. */
export function callsSent(exchanges: RecordedExchange[]): string[] {
  return exchanges.flatMap((x) =>
    x.toolCalls.length ? x.toolCalls.map((c) => c.name) : x.constrained ? constrainedCallName(x.content) : [],
  );
}

/** The tool a constrained reply calls (none for an answer). */
function constrainedCallName(content: string): string[] {
  const name = /^\s*\{\s*"tool"\s*:\s*"([^"]+)"/.exec(content)?.[1];
  return name && name !== "answer" ? [name] : [];
}
