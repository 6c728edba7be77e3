// `fathom eval` as a child process, live against the scripted model server and from recordings:
// trials, results.json, pass@k, --baseline, --record then --replay, usage errors.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedModelServer,
  faults,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { cliEnv, runCli, type CliRun } from "../../support/cliProcess";

const servers: ScriptedModelServer[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cli = (args: string[]): Promise<CliRun> => runCli(["eval", ...args], cliEnv());

/** A suite with one scenario: make greet() say "Hello, NAME!". */
function suite(): { dir: string; scenario: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-evalcli-"));
  dirs.push(dir);
  const scenario = path.join(dir, "greet");
  mkdirSync(path.join(scenario, "workspace"), { recursive: true });
  writeFileSync(path.join(scenario, "workspace", "greet.js"), "exports.greet = (name) => `Hello, ${name}.`;\n");
  writeFileSync(
    path.join(scenario, "scenario.json"),
    JSON.stringify({
      prompt: "greet should end with an exclamation mark",
      check: `node -e "process.exit(require('./greet.js').greet('Ada') === 'Hello, Ada!' ? 0 : 1)"`,
      maxSteps: 5,
    }),
  );
  return { dir, scenario };
}

const solves: ScriptedTurn[] = [
  { toolCalls: [{ name: "read_file", arguments: { file_path: "/greet.js" } }] },
  {
    toolCalls: [
      { name: "edit_file", arguments: { file_path: "/greet.js", old_string: "${name}.`", new_string: "${name}!`" } },
    ],
  },
  { text: "Done." },
];
// Fails to match once (recovering from the error), then gives up on the wrong file.
const misses: ScriptedTurn[] = [
  {
    toolCalls: [
      { name: "edit_file", arguments: { file_path: "/greet.js", old_string: "Hi, ${name}.", new_string: "Hi!" } },
    ],
  },
  { text: "I could not find it." },
];

async function server(turns: ScriptedTurn[]): Promise<ScriptedModelServer> {
  const s = await startScriptedModelServer(turns);
  servers.push(s);
  return s;
}

const live = (s: ScriptedModelServer) => [
  "--provider",
  "openai-compatible",
  "--base-url",
  s.baseUrlOpenAI,
  "--model",
  "gpt-4.1-mini",
  "--no-sandbox",
  "--parallel",
  "1",
];

interface TrialLine {
  type: "trial";
  [k: string]: unknown;
}

test("K trials: a record per trial with every field, pass@k and pass^k per scenario, results.json", async () => {
  const { dir } = suite();
  const s = await server([...solves, ...misses]);
  const run = await cli([dir, "--trials", "2", "--json", ...live(s)]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as TrialLine | { type: "summary"; [k: string]: unknown });
  const trials = lines.filter((l): l is TrialLine => l.type === "trial");
  assert.equal(trials.length, 2);
  for (const t of trials) {
    for (const field of [
      "name",
      "trial",
      "passed",
      "steps",
      "inputTokens",
      "outputTokens",
      "cacheReadTokens",
      "costUsd",
      "durationMs",
      "toolCalls",
      "editFailures",
    ]) {
      assert.ok(field in t, `trial record has ${field}`);
    }
  }
  const [first, second] = trials.sort((a, b) => (a.trial as number) - (b.trial as number));
  assert.deepEqual([first!.passed, first!.steps, first!.editFailures], [true, 3, 0]);
  assert.deepEqual(first!.toolCalls, {
    read_file: { attempts: 1, failures: 0 },
    edit_file: { attempts: 1, failures: 0 },
  });
  assert.ok((first!.costUsd as number) > 0, "gpt-4.1-mini has a price in the model table");
  assert.deepEqual([second!.passed, second!.editFailures], [false, 1]);
  assert.deepEqual(second!.toolCalls, { edit_file: { attempts: 1, failures: 1 } });

  const results = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as {
    results: TrialLine[];
    scenarios: {
      name: string;
      passed: number;
      trials: number;
      passAtK: Record<string, number>;
      passPowK: Record<string, number>;
    }[];
    editPrecision: Record<string, number>;
  };
  assert.equal(results.results.length, 2);
  assert.deepEqual(
    results.scenarios.map((x) => [x.name, x.passed, x.trials, x.passAtK, x.passPowK]),
    [["greet", 1, 2, { "1": 0.5, "2": 1 }, { "1": 0.5, "2": 0 }]],
  );
  assert.deepEqual(
    [
      results.editPrecision.attempts,
      results.editPrecision.firstTry,
      results.editPrecision.failed,
      results.editPrecision.abandoned,
    ],
    [2, 1, 1, 1],
  );

  // The human table, with pass@2 and pass^2 columns.
  const s2 = await server([...solves, ...misses]);
  const table = await cli([dir, "--trials", "2", ...live(s2)]);
  assert.match(table.stdout, /\| scenario \| passed \| pass@1 \| pass@2 \| pass\^2 \|/);
  assert.match(table.stdout, /\| greet {4}\| {4}1\/2 \| {3}0\.50 \| {3}1\.00 \| {3}0\.00 \|/);
  assert.match(table.stdout, /Edit precision: 1 of 2 edits applied on the first try \(50%\), in 2 attempts\./);
  assert.match(table.stdout, /✗ greet #2: check failed \(exit 1\)/);
});

test("--baseline: exit 1 when a scenario passed fewer trials than before, naming it", async () => {
  const { dir } = suite();
  const baseline = path.join(dir, "baseline.json");
  const good = await cli([dir, "--output", baseline, ...live(await server(solves))]);
  assert.equal(good.code, 0, good.stderr);
  const same = await cli([dir, "--baseline", baseline, ...live(await server(solves))]);
  assert.equal(same.code, 0, same.stdout);
  assert.match(same.stdout, /Against .*baseline\.json: 0 regressions\./);
  const worse = await cli([dir, "--baseline", baseline, ...live(await server(misses))]);
  assert.equal(worse.code, 1);
  assert.match(worse.stdout, /Against .*baseline\.json: 1 regression\.\nregressed: greet: 1\/1 → 0\/1 passed/);
});

test("--record keeps a passing trial's session as the scenario's cassette; --replay plays it offline", async () => {
  const { dir, scenario } = suite();
  const s = await server(solves);
  const rec = await cli([dir, "--record", ...live(s)]);
  assert.equal(rec.code, 0, rec.stderr);
  assert.match(rec.stderr, /✓ greet #1 \(3 steps, [\d.]+ s, session kept as greet\/cassette\.jsonl\)/);
  await s.close();
  const replay = await cli([dir, "--replay", "--no-sandbox", "--trials", "2", "--json"]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  const summary = JSON.parse(replay.stdout.trim().split("\n").at(-1)!) as {
    totals: { passed: number; trials: number };
  };
  assert.deepEqual([summary.totals.passed, summary.totals.trials], [2, 2]);

  // The workspace changed: the replay leaves its recording, the trial fails and says where.
  writeFileSync(path.join(scenario, "workspace", "greet.js"), "exports.greet = (name) => `Hi, ${name}.`;\n");
  const diverged = await cli([dir, "--replay", "--no-sandbox"]);
  assert.equal(diverged.code, 1);
  assert.match(diverged.stdout, /✗ greet #1: the replay left its recording: at message 3: read_file's result differs/);
  assert.match(diverged.stdout, /greet #1:\nThe replay left the recording at model request 2/);

  // A failing recorded run is kept aside, and the scenario's cassette stays.
  const kept = readFileSync(path.join(scenario, "cassette.jsonl"), "utf8");
  const bad = await cli([dir, "--record", ...live(await server(misses))]);
  assert.match(bad.stderr, /session kept as greet\/cassette\.failed\.jsonl/);
  assert.equal(readFileSync(path.join(scenario, "cassette.jsonl"), "utf8"), kept);
  assert.ok(existsSync(path.join(scenario, "cassette.failed.jsonl")));
});

test("a scenario's timeoutSeconds stops a trial that hangs", async () => {
  const { dir, scenario } = suite();
  const file = path.join(scenario, "scenario.json");
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), timeoutSeconds: 1 }));
  const run = await cli([dir, "--json", ...live(await server([faults.stall("thinking…")]))]);
  const t = JSON.parse(run.stdout.split("\n")[0]!) as { passed: boolean; reason: string };
  assert.deepEqual([t.passed, t.reason], [false, "timeout"]);
});

test("usage errors say what to do (exit 2)", async () => {
  const { dir, scenario } = suite();
  const cases: [string[], RegExp][] = [
    [[], /Missing DIR: fathom eval test\/evals/],
    [[dir, "--replay", "--provider", "openai"], /--replay answers as each recording's model: leave out --provider/],
    [
      [dir, "--record", "--trials", "2", "--provider", "openai-compatible"],
      /--record keeps one session per scenario: leave out --trials/,
    ],
    [[dir, "--trials", "0"], /--trials must be a whole number from 1 to 100/],
    [[dir, "--provider", "openai"], /Set OPENAI_API_KEY to run live, or pass --replay/],
    [[path.join(dir, "nope"), "--replay"], /is not a folder/],
  ];
  for (const [args, message] of cases) {
    const run = await cli(args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
  writeFileSync(path.join(scenario, "scenario.json"), JSON.stringify({ prompt: "x", check: "true", maxStep: 3 }));
  const typo = await cli([dir, "--replay"]);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /scenario\.json: \(top\): Unrecognized key: "maxStep"/);
  const other = path.join(dir, "other");
  cpSync(scenario, other, { recursive: true });
  rmSync(path.join(other, "workspace"), { recursive: true });
  writeFileSync(path.join(other, "scenario.json"), JSON.stringify({ prompt: "x", check: "true" }));
  const noWorkspace = await cli([other, "--replay"]);
  assert.match(noWorkspace.stderr, /has no workspace\/ folder/);
});
