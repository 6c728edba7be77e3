/**
 * `fathom eval DIR`: runs every scenario under DIR K times (in parallel up to a limit), prints a
 * table and writes DIR/results.json. Live against any provider, or offline from each scenario's
 * recording (--replay); --baseline compares with an earlier results file.
 */
import { writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HELP_OPTION, parseCommandArgs, PROVIDERS, SERVER_OPTIONS } from "../commandArgs";
import { CommandSandbox, sandboxUnavailable } from "../../core/executor/sandbox";
import { DEFAULT_MODELS, type Provider } from "../../core/model/createModel";
import { BaselineError, compare, readBaseline, recordedModels, summarize, type EvalResults } from "./results";
import { mergeCommand } from "./mergeCommand";
import { printResults, shortPath } from "./resultsTable";
import {
  runTrial,
  DEFAULT_EVAL_MAX_STEPS,
  DEFAULT_EVAL_TIMEOUT_S,
  type TrialOptions,
  type TrialRecord,
} from "./runTrial";
import { loadScenarios, ScenarioError, type Scenario } from "./scenario";
import { parseShard, planTrials, shardResultsName, type Shard } from "./shards";

export const EVAL_USAGE = `Usage: fathom eval DIR [--trials K] [--replay] [--provider P] [--model M] [--json] [--baseline FILE]
                  [--shard I/N]
       fathom eval merge FILE... [--output FILE] [--baseline FILE] [--json]

Runs every scenario under DIR (a folder with scenario.json and workspace/, or DIR itself) K
times, each trial on a fresh copy of its workspace with edits and commands approved, then runs
the scenario's check in it (exit 0 = solved). Prints a table (pass@k, pass^k, steps, tokens,
cost, time, tool and edit failures, edit precision) and writes DIR/results.json.

Options:
  --trials K        trials per scenario (default 1)
  --replay          play each scenario's cassette.jsonl instead of calling a model (no network,
                    no key); a trial whose run leaves its recording fails, showing where
  --record          run live and keep each passing trial's session as the scenario's
                    cassette.jsonl (one trial per scenario)
  --provider NAME   openai | anthropic | openai-compatible (default: openai, or anthropic when
                    only ANTHROPIC_API_KEY is set)
  --model ID        model id (default: the provider's default)
  --base-url URL    API base URL (for openai-compatible servers)
  --parallel N      trials running at once (default: the number of CPUs, at most 4)
  --baseline FILE   compare with an earlier results.json; exit 1 if a scenario passed fewer trials
  --output FILE     write the results there instead of DIR/results.json
  --shard I/N       run only the I-th of N disjoint slices of the scenarios × trials (a trial's
                    slice is a hash of its scenario's name and number, so adding a scenario moves
                    no other); writes DIR/results-shard-I-of-N.json unless --output says
  --keep            keep each trial's folder (workspace, events.jsonl, answer.md) and print it
  --no-sandbox      run the agent's commands and the checks with your full rights, not in the
                    OS sandbox (only for scenarios you trust)
  --json            print each trial's record and then the summary as JSON lines
  -h, --help        show this help

Keys come from OPENAI_API_KEY or ANTHROPIC_API_KEY. A scenario runs at most ${DEFAULT_EVAL_MAX_STEPS} model
calls and ${DEFAULT_EVAL_TIMEOUT_S} s unless its scenario.json says otherwise.
\`fathom eval merge\` joins the results of every shard of one run (all N, each once, the same
suite, mode and model) into one results file (default ./results.json) with the figures an
unsharded run gives, prints its table and compares it with --baseline.

Exit codes: 0 done, 1 a regression against --baseline (or, with --replay, a failed trial),
2 usage error (or shards that do not make one whole run).`;

export interface EvalIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

class EvalUsageError extends Error {}

interface EvalOptions {
  dir: string;
  trials: number;
  mode: TrialOptions["mode"];
  live?: NonNullable<TrialOptions["live"]>;
  parallel: number;
  baseline?: string;
  output: string;
  keep: boolean;
  sandbox: boolean;
  json: boolean;
  shard?: Shard;
}

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new EvalUsageError(`${flag} must be a whole number from ${min} to ${max} (got "${value}").`);
  return n;
}

export function parseEvalArgs(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): EvalOptions | "help" {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      trials: { type: "string" },
      replay: { type: "boolean" },
      record: { type: "boolean" },
      ...SERVER_OPTIONS,
      model: { type: "string" },
      parallel: { type: "string" },
      baseline: { type: "string" },
      output: { type: "string" },
      keep: { type: "boolean" },
      "no-sandbox": { type: "boolean" },
      json: { type: "boolean" },
      shard: { type: "string" },
      ...HELP_OPTION,
    },
    EvalUsageError,
  );
  if (values.help) return "help";
  if (positionals.length !== 1)
    throw new EvalUsageError(
      positionals.length === 0
        ? "Missing DIR: fathom eval test/evals"
        : `One DIR only (got ${positionals.join(", ")}).`,
    );
  const dir = path.resolve(cwd, positionals[0]!);
  const trials = wholeNumber("--trials", values.trials, 1, 100) ?? 1;
  const parallel =
    wholeNumber("--parallel", values.parallel, 1, 64) ?? Math.max(1, Math.min(4, os.availableParallelism()));
  if (values.replay && values.record) throw new EvalUsageError("Use --replay or --record, not both.");
  const mode: TrialOptions["mode"] = values.replay ? "replay" : values.record ? "record" : "live";
  if (mode === "record" && trials !== 1)
    throw new EvalUsageError("--record keeps one session per scenario: leave out --trials.");
  let shard: Shard | undefined;
  try {
    shard = values.shard === undefined ? undefined : parseShard(values.shard);
  } catch (error) {
    throw new EvalUsageError((error as Error).message);
  }
  if (shard && values.baseline !== undefined)
    throw new EvalUsageError(
      "A shard holds part of the suite: compare the merged results instead (fathom eval merge FILE... --baseline FILE).",
    );
  const options: EvalOptions = {
    dir,
    trials,
    mode,
    parallel,
    output: path.resolve(cwd, values.output ?? path.join(dir, shard ? shardResultsName(shard) : "results.json")),
    ...(shard ? { shard } : {}),
    keep: values.keep === true,
    sandbox: values["no-sandbox"] !== true,
    json: values.json === true,
    ...(values.baseline !== undefined ? { baseline: path.resolve(cwd, values.baseline) } : {}),
  };
  if (mode === "replay") {
    const given = (["provider", "model", "base-url"] as const).filter((f) => values[f] !== undefined);
    if (given.length)
      throw new EvalUsageError(
        `--replay answers as each recording's model: leave out ${given.map((f) => `--${f}`).join(", ")}.`,
      );
    return options;
  }
  const providerArg = values.provider ?? (!env.OPENAI_API_KEY && env.ANTHROPIC_API_KEY ? "anthropic" : "openai");
  if (!PROVIDERS.includes(providerArg as Provider))
    throw new EvalUsageError(`--provider must be one of ${PROVIDERS.join(", ")} (got "${providerArg}").`);
  const provider = providerArg as Provider;
  const apiKey = (provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY) ?? "";
  if (!apiKey && provider !== "openai-compatible") {
    throw new EvalUsageError(
      `Set ${provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"} to run live, or pass --replay to play the recorded sessions.`,
    );
  }
  const baseUrl = values["base-url"];
  if (baseUrl !== undefined) {
    try {
      new URL(baseUrl);
    } catch {
      throw new EvalUsageError(`--base-url "${baseUrl}" is not a URL; for example http://localhost:11434/v1`);
    }
  }
  options.live = {
    provider,
    model: values.model?.trim() || DEFAULT_MODELS[provider],
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
  };
  return options;
}

/** Runs `jobs` with at most `limit` at once, in order of start. */
async function pool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

export async function evalCommand(argv: readonly string[], io: EvalIo): Promise<number> {
  if (argv[0] === "merge") return mergeCommand(argv.slice(1), io);
  let opts: EvalOptions | "help";
  let scenarios: Scenario[];
  try {
    opts = parseEvalArgs(argv, io.cwd, io.env);
    if (opts === "help") {
      io.out.write(`${EVAL_USAGE}\n`);
      return 0;
    }
    scenarios = loadScenarios(opts.dir);
    if (opts.baseline) readBaseline(opts.baseline);
  } catch (error) {
    if (!(error instanceof EvalUsageError || error instanceof ScenarioError || error instanceof BaselineError))
      throw error;
    io.err.write(
      `fathom eval: ${(error as Error).message}\n${error instanceof EvalUsageError ? `Run "fathom eval --help" for usage.\n` : ""}`,
    );
    return 2;
  }
  let sandbox: CommandSandbox | undefined;
  if (opts.sandbox) {
    const problem = sandboxUnavailable();
    if (problem) {
      io.err.write(
        `fathom eval: ${problem} An eval runs the agent's commands unattended, so it needs the sandbox; or pass --no-sandbox for scenarios you trust.\n`,
      );
      return 2;
    }
    sandbox = new CommandSandbox({ allowedDomains: [] });
  }
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    io.err.write("\nStopping the trials… (Ctrl+C again to quit at once)\n");
    controller.abort();
  };
  process.on("SIGINT", onInterrupt);
  const o = opts;
  const what = o.mode === "replay" ? "recorded sessions" : `${o.live!.provider}/${o.live!.model}`;
  const plan = planTrials(scenarios, o.trials, o.shard);
  const slice = o.shard
    ? `, shard ${o.shard.index}/${o.shard.count}: ${plan.length} of ${scenarios.length * o.trials} trials`
    : "";
  io.err.write(
    `fathom eval: ${scenarios.length} scenario${scenarios.length === 1 ? "" : "s"} × ${o.trials} trial${o.trials === 1 ? "" : "s"} with ${what}${slice}, ${Math.max(1, Math.min(o.parallel, plan.length))} at a time${sandbox ? "" : ", commands NOT sandboxed"}\n`,
  );
  const trialOptions: TrialOptions = {
    mode: o.mode,
    ...(o.live ? { live: o.live } : {}),
    ...(sandbox ? { sandbox } : {}),
    keep: o.keep,
    signal: controller.signal,
    retryBaseDelayMs: Number(io.env.FATHOM_RETRY_BASE_DELAY_MS) >= 0 ? Number(io.env.FATHOM_RETRY_BASE_DELAY_MS) : 1000,
  };
  const jobs = plan.map(({ scenario, trial }) => async (): Promise<TrialRecord | undefined> => {
    if (controller.signal.aborted) return undefined;
    const record = await runTrial(scenario, trial, trialOptions);
    if (o.json) io.out.write(`${JSON.stringify({ type: "trial", ...record })}\n`);
    const kept =
      o.mode === "record" && record.reason !== "not_run"
        ? `, session kept as ${path.join(scenario.name, record.passed ? "cassette.jsonl" : "cassette.failed.jsonl")}`
        : "";
    io.err.write(
      `${record.passed ? "✓" : "✗"} ${record.name} #${record.trial} (${record.steps} steps, ${(record.durationMs / 1000).toFixed(1)} s${kept})\n`,
    );
    return record;
  });
  let records: TrialRecord[];
  try {
    records = (await pool(jobs, o.parallel)).filter((r): r is TrialRecord => r !== undefined);
  } finally {
    process.off("SIGINT", onInterrupt);
    await sandbox?.dispose();
  }
  const results: EvalResults = summarize(records, {
    mode: o.mode,
    provider: o.live?.provider ?? "",
    // A replay answers as each recording's model.
    model: o.live?.model ?? recordedModels(records),
    trialsPerScenario: o.trials,
    ...(o.shard ? { shard: { ...o.shard, suite: scenarios.map((s) => s.name), planned: plan.length } } : {}),
  });
  writeFileSync(o.output, `${JSON.stringify(results, null, 2)}\n`);
  const comparison = o.baseline ? compare(results, readBaseline(o.baseline)) : undefined;
  if (o.json) {
    io.out.write(
      `${JSON.stringify({ type: "summary", output: o.output, scenarios: results.scenarios, editPrecision: results.editPrecision, totals: results.totals, ...(comparison ? { comparison } : {}) })}\n`,
    );
  } else {
    printResults(io.out, results, {
      output: shortPath(io.cwd, o.output),
      ...(comparison ? { comparison, baseline: shortPath(io.cwd, o.baseline!) } : {}),
    });
  }
  if (controller.signal.aborted) return 130;
  if (comparison && comparison.regressions.length > 0) return 1;
  if (o.mode === "replay" && results.totals.passed < results.totals.trials) return 1;
  return 0;
}
