// The numbers `fathom eval` reports: pass@k / pass^k, edit precision read from a run's events,
// the comparison with a baseline.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { AgentEvent } from "../../../src/core/run/events";
import { compare, passAtK, passPowK, summarize } from "../../../src/cli/eval/results";
import { describePrecision, trialMetrics } from "../../../src/cli/eval/trialMetrics";
import type { TrialRecord } from "../../../src/cli/eval/runTrial";

test("pass@k and pass^k are the unbiased estimates", () => {
  assert.equal(passAtK(5, 0, 1), 0);
  assert.equal(passAtK(5, 5, 3), 1);
  assert.equal(passAtK(4, 2, 1), 0.5);
  // 1 − C(2,2)/C(4,2) = 1 − 1/6
  assert.ok(Math.abs(passAtK(4, 2, 2) - 5 / 6) < 1e-12);
  assert.equal(passAtK(4, 2, 3), 1);
  assert.equal(passPowK(4, 2, 1), 0.5);
  assert.ok(Math.abs(passPowK(4, 2, 2) - 1 / 6) < 1e-12);
  assert.equal(passPowK(4, 2, 3), 0);
  assert.equal(passPowK(3, 3, 3), 1);
});

let n = 0;
const finished = (
  toolName: string,
  args: Record<string, unknown>,
  isError = false,
  content = isError ? "old_string was not found in /a.js." : "ok",
): AgentEvent => ({
  type: "tool_call_finished",
  toolCallId: `c${++n}`,
  toolName,
  args,
  content,
  isError,
});

test("edit precision: first try, fixed from the error alone, fixed after re-reading, failed again, never applied", () => {
  const root = "/ws";
  const rejected = finished(
    "edit_file",
    { file_path: "/r.js" },
    true,
    "The person rejected this edit_file call. No reason was given.",
  );
  const events: AgentEvent[] = [
    finished("read_file", { file_path: "/a.js" }),
    finished("edit_file", { file_path: "/a.js" }), // first try
    finished("edit_file", { file_path: "/b.js" }, true),
    finished("edit_file", { file_path: "b.js" }), // from the error alone (same file, other spelling)
    finished("edit_file", { file_path: "/ws/c.js" }, true),
    finished("read_file", { file_path: "/c.js" }),
    finished("edit_file", { file_path: "/c.js" }), // after re-reading
    finished("edit_file", { file_path: "/d.js" }, true),
    finished("edit_file", { file_path: "/d.js" }, true), // failed again
    finished("edit_file", { file_path: "/d.js" }), // then from the error
    finished("edit_file", { file_path: "/e.js" }, true), // never applied
    {
      type: "subagent",
      toolCallId: "t1",
      subagentType: "general-purpose",
      event: finished("write_file", { file_path: "/f.js" }),
    }, // a subagent's, first try
    {
      type: "approval_decided",
      toolCallId: rejected.type === "tool_call_finished" ? rejected.toolCallId : "",
      toolName: "edit_file",
      decision: "reject",
    },
    rejected, // a person's rejection is not an attempt
    finished("write_file", { file_path: "../x.js" }, true, "Path '../x.js' contains '..', which is not allowed."), // refused: not precision
  ];
  const m = trialMetrics(events, root);
  assert.deepEqual(m.edits, {
    attempts: 10,
    refused: 1,
    applied: 5,
    firstTry: 2,
    failed: 5,
    nextAppliedFromError: 2,
    nextAppliedAfterReread: 1,
    nextFailed: 1,
    abandoned: 1,
  });
  assert.equal(m.editFailures, 5);
  assert.deepEqual(m.toolCalls.edit_file, { attempts: 10, failures: 6 });
  assert.deepEqual(m.toolCalls.read_file, { attempts: 2, failures: 0 });
  assert.equal(
    describePrecision(m.edits),
    "Edit precision: 2 of 6 edits applied on the first try (33%), in 10 attempts. After each of the 5 failed attempts, the next attempt on that file applied from the error alone: 2; applied after re-reading the file: 1; failed again: 1; none followed: 1. 1 refused for where it would write (outside the workspace, an ignored file), not counted.",
  );
});

function trial(name: string, passed: boolean, extra: Partial<TrialRecord> = {}): TrialRecord {
  const m = trialMetrics([], "/");
  return {
    name,
    trial: 1,
    passed,
    steps: 3,
    inputTokens: 100,
    outputTokens: 10,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0.01,
    durationMs: 1000,
    ...m,
    provider: "openai",
    model: "m",
    reason: "completed",
    check: { exitCode: passed ? 0 : 1, output: "" },
    ...extra,
  };
}

test("summaries per scenario, and a baseline comparison that names regressions", () => {
  const meta = { mode: "live" as const, provider: "openai", model: "m", trialsPerScenario: 2 };
  const before = summarize(
    [
      trial("a", true),
      { ...trial("a", true), trial: 2 },
      trial("b", false),
      { ...trial("b", false), trial: 2 },
      trial("gone", true),
    ],
    meta,
  );
  const now = summarize(
    [
      trial("a", true),
      { ...trial("a", false), trial: 2 },
      trial("b", true),
      { ...trial("b", false), trial: 2 },
      trial("new", true),
    ],
    meta,
  );
  const a = now.scenarios.find((s) => s.name === "a")!;
  assert.deepEqual([a.passed, a.trials, a.passAtK, a.passPowK], [1, 2, { "1": 0.5, "2": 1 }, { "1": 0.5, "2": 0 }]);
  assert.deepEqual(now.totals.passed, 3);
  const c = compare(now, before);
  assert.deepEqual(c.regressions, ["a: 2/2 → 1/2 passed"]);
  assert.deepEqual(c.improvements, ["b: 0/2 → 1/2 passed"]);
  assert.deepEqual(c.notes, ["new is new (not in the baseline).", "gone is in the baseline but was not run."]);
});
