/**
 * An eval's results: the trials, each scenario's pass@k and pass^k, edit precision over all
 * trials, and the comparison with an earlier results file (--baseline).
 *
 * With n trials of which c passed, pass@k (some of k tries solves it) = 1 − C(n−c, k) / C(n, k)
 * and pass^k (all of k tries solve it) = C(c, k) / C(n, k), the unbiased estimates for each
 * k ≤ n. pass@1 = pass^1 = c / n.
 */
import { readFileSync } from "node:fs";
import { addPrecision, emptyPrecision, type EditPrecision } from "./trialMetrics";
import type { TrialRecord } from "./runTrial";
import type { ShardInfo } from "./shards";

export interface ScenarioSummary {
  name: string;
  trials: number;
  passed: number;
  /** By k, from 1 to the number of trials. */
  passAtK: Record<string, number>;
  passPowK: Record<string, number>;
  meanSteps: number;
  meanCostUsd: number;
  meanDurationMs: number;
  toolFailures: number;
  editFailures: number;
}

export interface EvalResults {
  version: 1;
  createdAt: string;
  mode: "live" | "record" | "replay";
  provider: string;
  model: string;
  trialsPerScenario: number;
  /** One record per trial. */
  results: TrialRecord[];
  scenarios: ScenarioSummary[];
  editPrecision: EditPrecision;
  totals: {
    trials: number;
    passed: number;
    costUsd: number;
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    durationMs: number;
  };
  /** Present when this is one shard's results (`--shard I/N`): `fathom eval merge` joins them. */
  shard?: ShardInfo;
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

export function passAtK(n: number, c: number, k: number): number {
  return n - c < k ? 1 : 1 - choose(n - c, k) / choose(n, k);
}

export function passPowK(n: number, c: number, k: number): number {
  return choose(c, k) / choose(n, k);
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;
const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

export function summarize(
  records: TrialRecord[],
  meta: Pick<EvalResults, "mode" | "provider" | "model" | "trialsPerScenario" | "shard">,
): EvalResults {
  const byName = new Map<string, TrialRecord[]>();
  for (const r of [...records].sort((a, b) => a.name.localeCompare(b.name) || a.trial - b.trial)) {
    byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  }
  const scenarios: ScenarioSummary[] = [...byName].map(([name, trials]) => {
    const n = trials.length;
    const c = trials.filter((t) => t.passed).length;
    const ks = Array.from({ length: n }, (_, i) => i + 1);
    return {
      name,
      trials: n,
      passed: c,
      passAtK: Object.fromEntries(ks.map((k) => [String(k), round(passAtK(n, c, k))])),
      passPowK: Object.fromEntries(ks.map((k) => [String(k), round(passPowK(n, c, k))])),
      meanSteps: round(mean(trials.map((t) => t.steps)), 2),
      meanCostUsd: round(mean(trials.map((t) => t.costUsd)), 6),
      meanDurationMs: Math.round(mean(trials.map((t) => t.durationMs))),
      toolFailures: trials.reduce((a, t) => a + Object.values(t.toolCalls).reduce((b, s) => b + s.failures, 0), 0),
      editFailures: trials.reduce((a, t) => a + t.editFailures, 0),
    };
  });
  const editPrecision = emptyPrecision();
  for (const r of records) addPrecision(editPrecision, r.edits);
  const sum = (f: (r: TrialRecord) => number) => records.reduce((a, r) => a + f(r), 0);
  return {
    version: 1,
    createdAt: new Date().toISOString(),
    ...meta,
    results: [...byName.values()].flat(),
    scenarios,
    editPrecision,
    totals: {
      trials: records.length,
      passed: records.filter((r) => r.passed).length,
      costUsd: round(
        sum((r) => r.costUsd),
        6,
      ),
      inputTokens: sum((r) => r.inputTokens),
      outputTokens: sum((r) => r.outputTokens),
      cacheReadTokens: sum((r) => r.cacheReadTokens),
      durationMs: sum((r) => r.durationMs),
    },
  };
}

/** The models a replay answered as (each recording's own), sorted, so a merge of shards names them alike. */
export function recordedModels(records: readonly TrialRecord[]): string {
  return [...new Set(records.map((r) => `${r.provider}/${r.model}`))]
    .filter((m) => m !== "/")
    .sort()
    .join(", ");
}

export interface Comparison {
  regressions: string[];
  improvements: string[];
  notes: string[];
}

export class BaselineError extends Error {}

/** Reads an earlier results file; throws a BaselineError saying what is wrong. */
export function readBaseline(file: string): EvalResults {
  let value: Partial<EvalResults>;
  try {
    value = JSON.parse(readFileSync(file, "utf8")) as Partial<EvalResults>;
  } catch (error) {
    throw new BaselineError(`--baseline ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (value.version !== 1 || !Array.isArray(value.scenarios))
    throw new BaselineError(`--baseline ${file} is not a results.json written by fathom eval.`);
  return value as EvalResults;
}

/** A scenario regresses when a smaller share of its trials passed than in the baseline. */
export function compare(now: EvalResults, baseline: EvalResults): Comparison {
  const out: Comparison = { regressions: [], improvements: [], notes: [] };
  const before = new Map(baseline.scenarios.map((s) => [s.name, s]));
  for (const s of now.scenarios) {
    const b = before.get(s.name);
    if (!b) {
      out.notes.push(`${s.name} is new (not in the baseline).`);
      continue;
    }
    const rate = s.passed / s.trials;
    const was = b.passed / b.trials;
    const line = `${s.name}: ${b.passed}/${b.trials} → ${s.passed}/${s.trials} passed`;
    if (rate < was) out.regressions.push(line);
    else if (rate > was) out.improvements.push(line);
  }
  const names = new Set(now.scenarios.map((s) => s.name));
  for (const b of baseline.scenarios)
    if (!names.has(b.name)) out.notes.push(`${b.name} is in the baseline but was not run.`);
  return out;
}
