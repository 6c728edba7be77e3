// The starter suite (test/evals) replayed offline, as CI runs it: every scenario has a recorded
// session (cassette.jsonl, made by test/evals/record.ts against the scripted model), the agent
// runs it for real on a fresh copy of the scenario's workspace, and the scenario's check passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sandboxUnavailable } from "../../../src/core/executor/sandbox";
import type { EvalResults } from "../../../src/cli/eval/results";
import { loadScenarios } from "../../../src/cli/eval/scenario";

const ROOT = path.resolve(__dirname, "../../..");
const SUITE = path.join(ROOT, "test/evals");
const unavailable = process.platform === "linux" ? sandboxUnavailable() : "not Linux";
if (unavailable && process.env.CI) throw new Error(`The OS sandbox is not available in CI: ${unavailable}`);

const REQUIRED = [
  "create-file",
  "edit-file",
  "edit-crlf",
  "multi-file",
  "rename-function",
  "read-summarize",
  "fix-failing-test",
  "large-file",
  "long-output",
  "rejected-edit",
  "todo-list",
  "stay-in-workspace",
];

test("the starter suite has the required scenarios, each with a recorded session", () => {
  const scenarios = loadScenarios(SUITE);
  for (const name of REQUIRED) {
    const s = scenarios.find((x) => x.name === name);
    assert.ok(s, `test/evals/${name}`);
    assert.ok(s.cassetteFile && existsSync(s.cassetteFile), `test/evals/${name}/cassette.jsonl`);
  }
  assert.ok(scenarios.length >= 12);
});

/** `fathom eval ARGS` as a child process, offline. */
async function evalCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "src/cli/main.ts"), "eval", ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}

// Commands run in the OS sandbox where it can (always in CI); our own scenarios are trusted elsewhere.
const sandboxFlag = unavailable ? ["--no-sandbox"] : [];
/** The unsharded replay's results, which the shards' merge must equal. */
let whole: EvalResults | undefined;

test("fathom eval test/evals --replay: every scenario passes offline, results.json has every field", async () => {
  const out = mkdtempSync(path.join(tmpdir(), "fathom-suite-"));
  const output = path.join(out, "results.json");
  const { code, stdout, stderr } = await evalCli([SUITE, "--replay", "--output", output, ...sandboxFlag]);
  try {
    assert.equal(code, 0, `${stdout}\n${stderr}`);
    const results = JSON.parse(readFileSync(output, "utf8")) as EvalResults;
    whole = results;
    assert.equal(results.mode, "replay");
    assert.deepEqual(
      results.results.filter((r) => !r.passed).map((r) => r.name),
      [],
    );
    for (const name of REQUIRED)
      assert.ok(
        results.scenarios.some((s) => s.name === name && s.passed === 1),
        name,
      );
    for (const r of results.results) {
      assert.ok(
        r.steps > 0 && r.inputTokens > 0 && r.outputTokens > 0 && r.durationMs >= 0 && r.divergence === undefined,
        r.name,
      );
    }
    // What the scenarios exercise shows in the numbers.
    const by = (name: string) => results.results.find((r) => r.name === name)!;
    assert.deepEqual(
      [by("large-file").edits.failed, by("large-file").edits.nextAppliedFromError],
      [1, 1],
      "large-file: one edit fails to match and the error alone fixes it",
    );
    assert.equal(by("stay-in-workspace").edits.refused, 1);
    assert.equal(by("rejected-edit").edits.attempts, 1, "a rejected edit is not an attempt");
    assert.ok(by("todo-list").toolCalls.write_todos!.attempts >= 2);
    assert.match(stdout, /\| \*\*all\*\* +\| +(\d+)\/\1 \| +1\.00 \|/);
    assert.match(stdout, /Edit precision: \d+ of \d+ edits applied on the first try/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

/** What must not differ between a merged and an unsharded run: everything but times and dates. */
function figures(results: EvalResults): unknown {
  const { createdAt: _createdAt, totals, scenarios, results: records, ...rest } = results;
  const { durationMs: _durationMs, ...counts } = totals;
  return {
    ...rest,
    totals: counts,
    scenarios: scenarios.map(({ meanDurationMs: _mean, ...s }) => s),
    results: records.map(({ durationMs: _d, folder: _f, ...r }) => r),
  };
}

test("fathom eval --replay --shard I/3 on three machines, then fathom eval merge: the figures of the unsharded run", async (t) => {
  if (!whole) return t.skip("the unsharded replay did not finish");
  const out = mkdtempSync(path.join(tmpdir(), "fathom-shards-"));
  try {
    const runs = await Promise.all(
      [1, 2, 3].map((i) =>
        evalCli([
          SUITE,
          "--replay",
          "--shard",
          `${i}/3`,
          "--parallel",
          "2",
          "--output",
          path.join(out, `shard-${i}.json`),
          ...sandboxFlag,
        ]),
      ),
    );
    for (const run of runs) assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(runs[0]!.stderr, /shard 1\/3: \d+ of 12 trials/);
    const sizes = [1, 2, 3].map(
      (i) => (JSON.parse(readFileSync(path.join(out, `shard-${i}.json`), "utf8")) as EvalResults).totals.trials,
    );
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      whole.totals.trials,
      `each trial in one shard: ${sizes.join(" + ")}`,
    );
    const merged = path.join(out, "results.json");
    const merge = await evalCli([
      "merge",
      ...[3, 1, 2].map((i) => path.join(out, `shard-${i}.json`)),
      "--output",
      merged,
    ]);
    assert.equal(merge.code, 0, `${merge.stdout}\n${merge.stderr}`);
    assert.match(merge.stdout, /\| \*\*all\*\* +\| +(\d+)\/\1 \| +1\.00 \|/);
    const result = JSON.parse(readFileSync(merged, "utf8")) as EvalResults;
    assert.equal(result.shard, undefined, "the merge is a whole run");
    assert.deepEqual(figures(result), figures(whole));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
