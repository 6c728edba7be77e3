// Eval shards: --shard I/N's slices partition the suite's scenarios × trials exactly and stay put
// when a scenario is added; `fathom eval merge` refuses shards that do not make one whole run.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { evalCommand } from "../../../src/cli/eval/evalCommand";
import { mergeShards } from "../../../src/cli/eval/mergeCommand";
import { summarize, type EvalResults } from "../../../src/cli/eval/results";
import type { TrialRecord } from "../../../src/cli/eval/runTrial";
import { loadScenarios } from "../../../src/cli/eval/scenario";
import { parseShard, planTrials, shardOf } from "../../../src/cli/eval/shards";
import { emptyPrecision } from "../../../src/cli/eval/trialMetrics";

const SUITE = loadScenarios(path.resolve(__dirname, "../../../test/evals"));
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("--shard I/N: 1 ≤ I ≤ N, anything else says how to write it", () => {
  assert.deepEqual(parseShard("2/7"), { index: 2, count: 7 });
  assert.deepEqual(parseShard(" 1 / 1 "), { index: 1, count: 1 });
  for (const bad of ["0/3", "4/3", "3", "1/0", "a/b", "1/1001", "-1/3", "1.5/3"]) {
    assert.throws(() => parseShard(bad), /--shard must be I\/N .*JOB_COMPLETION_INDEX/, bad);
  }
});

test("N = 1, 3, 7: the shards partition the starter suite × 3 trials exactly", () => {
  const all = planTrials(SUITE, 3).map((p) => `${p.scenario.name}#${p.trial}`);
  assert.equal(all.length, SUITE.length * 3);
  for (const count of [1, 3, 7]) {
    const slices = Array.from({ length: count }, (_, i) =>
      planTrials(SUITE, 3, { index: i + 1, count }).map((p) => `${p.scenario.name}#${p.trial}`),
    );
    const joined = slices.flat();
    assert.equal(new Set(joined).size, joined.length, `N=${count}: no trial in two shards`);
    assert.deepEqual([...joined].sort(), [...all].sort(), `N=${count}: every trial in some shard`);
    if (count === 3)
      assert.ok(
        slices.every((s) => s.length > 0),
        `N=3: every machine gets work (${slices.map((s) => s.length).join(", ")})`,
      );
  }
});

test("adding or removing a scenario moves no other trial to another shard", () => {
  const before = new Map(
    planTrials(SUITE, 3).map((p) => [`${p.scenario.name}#${p.trial}`, shardOf(p.scenario.name, p.trial, 7)]),
  );
  const grown = [...SUITE.map((s) => ({ name: s.name })), { name: "a-new-scenario" }, { name: "zzz-another" }].sort(
    (a, b) => a.name.localeCompare(b.name),
  );
  const shrunk = grown.filter((s) => s.name !== SUITE[0]!.name);
  for (const suite of [grown, shrunk]) {
    for (let index = 1; index <= 7; index++) {
      for (const p of planTrials(suite, 3, { index, count: 7 })) {
        const was = before.get(`${p.scenario.name}#${p.trial}`);
        if (was !== undefined) assert.equal(index, was, `${p.scenario.name}#${p.trial}`);
      }
    }
  }
});

/** A trial's record as fathom eval writes it (the figures vary by scenario and trial). */
function record(name: string, trial: number): TrialRecord {
  const n = name.length + trial;
  return {
    name,
    trial,
    passed: n % 4 !== 0,
    steps: n,
    inputTokens: 100 * n,
    outputTokens: 10 * n,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: n / 1000,
    durationMs: 1000,
    toolCalls: { read_file: { attempts: n, failures: n % 2 } },
    editFailures: n % 3,
    edits: { ...emptyPrecision(), attempts: n, applied: n, firstTry: n },
    provider: "openai",
    model: "gpt-test",
    reason: "completed",
    check: { exitCode: n % 4 !== 0 ? 0 : 1, output: "" },
  };
}

const META = { mode: "live" as const, provider: "openai", model: "gpt-test", trialsPerScenario: 3 };
const names = SUITE.map((s) => s.name);

/** Writes shard files of `count` from the whole run's records; `edit` may spoil one. */
function writeShards(count: number, edit?: (index: number, results: EvalResults) => EvalResults | undefined): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-merge-"));
  dirs.push(dir);
  const files: string[] = [];
  for (let index = 1; index <= count; index++) {
    const plan = planTrials(SUITE, 3, { index, count });
    let results: EvalResults | undefined = summarize(
      plan.map((p) => record(p.scenario.name, p.trial)),
      { ...META, shard: { index, count, suite: names, planned: plan.length } },
    );
    results = edit ? edit(index, results) : results;
    if (!results) continue;
    const file = path.join(dir, `shard-${index}.json`);
    writeFileSync(file, JSON.stringify(results));
    files.push(file);
  }
  return files;
}

test("merge of 7 shards: the same records and figures as the run that was not sharded", () => {
  const whole = summarize(
    planTrials(SUITE, 3).map((p) => record(p.scenario.name, p.trial)),
    META,
  );
  const merged = mergeShards(writeShards(7).reverse());
  assert.deepEqual({ ...merged, createdAt: "" }, { ...whole, createdAt: "" });
});

test("merge refuses what is not one whole run, saying what to do", () => {
  const refused = (files: string[], pattern: RegExp) => assert.throws(() => mergeShards(files), pattern);
  refused(
    writeShards(3, (i, r) => (i === 2 ? undefined : r)),
    /Shard 2 of 3 is missing: run fathom eval DIR --shard 2\/3/,
  );
  const three = writeShards(3);
  refused([...three, three[0]!], /Shard 1\/3 is given twice/);
  refused(
    [...writeShards(3).slice(0, 2), writeShards(4)[2]!],
    /is shard 3\/4, .* is of 3: merge the shards of one run/,
  );
  refused(
    writeShards(3, (i, r) => (i === 3 ? { ...r, model: "other-model" } : r)),
    /differs from .* in model \(other-model against gpt-test\)/,
  );
  refused(
    writeShards(3, (i, r) => (i === 3 ? { ...r, shard: { ...r.shard!, suite: [...names, "extra"] } } : r)),
    /ran another suite/,
  );
  refused(
    writeShards(3, (i, r) => (i === 1 ? { ...r, results: r.results.slice(1) } : r)),
    /lacks 1 of its shard's \d+ trials .*: the shard was interrupted; run it again/,
  );
  refused(
    writeShards(3, (i, r) => (i === 1 ? { ...r, results: [...r.results, r.results[0]!] } : r)),
    /has a trial its shard does not run/,
  );
  refused(
    writeShards(1, (_, r) => {
      const { shard: _s, ...whole } = r;
      return whole;
    }),
    /holds a whole run, not a shard/,
  );
});

test("fathom eval merge: usage errors exit 2 with the reason; the merged file is written where asked", async () => {
  const io = () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = "";
    let stderr = "";
    out.on("data", (d: Buffer) => (stdout += d.toString()));
    err.on("data", (d: Buffer) => (stderr += d.toString()));
    return { io: { cwd: tmpdir(), env: {}, out, err }, text: () => ({ stdout, stderr }) };
  };
  const none = io();
  assert.equal(await evalCommand(["merge"], none.io), 2);
  assert.match(none.text().stderr, /Missing the shards' results: fathom eval merge results\/\*\.json/);
  const files = writeShards(3);
  const clash = io();
  assert.equal(await evalCommand(["merge", ...files, "--output", files[0]!], clash.io), 2);
  assert.match(clash.text().stderr, /is one of the shards: write the merged results elsewhere/);
  const ok = io();
  const output = path.join(path.dirname(files[0]!), "merged.json");
  assert.equal(await evalCommand(["merge", ...files, "--output", output], ok.io), 0);
  assert.match(ok.text().stdout, /gpt-test, 3 trials per scenario, live/);
  assert.match(
    ok.text().stdout,
    new RegExp(`Results: ${path.relative(tmpdir(), output).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
  );
});
