/**
 * `fathom eval merge FILE...`: joins the results of every shard of one eval run into the
 * results an unsharded run writes (same records, same figures), after checking the shards make
 * exactly one whole run: all N, each once, of the same suite, mode, model and trials.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { HELP_OPTION, parseCommandArgs } from "../commandArgs";
import { BaselineError, compare, readBaseline, recordedModels, summarize, type EvalResults } from "./results";
import { printResults, shortPath } from "./resultsTable";
import type { TrialRecord } from "./runTrial";
import { planTrials, type ShardInfo } from "./shards";

class MergeError extends Error {}

function readShard(file: string): EvalResults & { shard: ShardInfo } {
  let value: Partial<EvalResults>;
  try {
    value = JSON.parse(readFileSync(file, "utf8")) as Partial<EvalResults>;
  } catch (error) {
    throw new MergeError(`${file}: ${(error as Error).message}`);
  }
  if (value.version !== 1 || !Array.isArray(value.results) || !Array.isArray(value.scenarios))
    throw new MergeError(`${file} is not a results file written by fathom eval.`);
  const shard = value.shard;
  if (!shard || !Number.isInteger(shard.index) || !Number.isInteger(shard.count) || !Array.isArray(shard.suite)) {
    throw new MergeError(
      `${file} holds a whole run, not a shard: merge the files written by fathom eval DIR --shard I/N.`,
    );
  }
  return value as EvalResults & { shard: ShardInfo };
}

const sameSuite = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => name === b[i]);

/** The whole run the shards make, or a MergeError naming what is missing, doubled or mismatched. */
export function mergeShards(files: readonly string[]): EvalResults {
  const shards = files.map((file) => ({ file, results: readShard(file) }));
  const first = shards[0]!;
  const { count, suite } = first.results.shard;
  for (const { file, results } of shards.slice(1)) {
    // A replay's model is each recording's own, so its shards may name different ones.
    const keys =
      first.results.mode === "replay"
        ? (["mode", "provider", "trialsPerScenario"] as const)
        : (["mode", "provider", "model", "trialsPerScenario"] as const);
    const differs = keys.find((key) => results[key] !== first.results[key]);
    if (results.shard.count !== count)
      throw new MergeError(
        `${file} is shard ${results.shard.index}/${results.shard.count}, ${first.file} is of ${count}: merge the shards of one run.`,
      );
    if (differs)
      throw new MergeError(
        `${file} differs from ${first.file} in ${differs} (${String(results[differs])} against ${String(first.results[differs])}): merge the shards of one run.`,
      );
    if (!sameSuite(results.shard.suite, suite))
      throw new MergeError(
        `${file} ran another suite than ${first.file} (its scenarios differ): run every shard from the same checkout.`,
      );
  }
  const byIndex = new Map<number, string>();
  for (const { file, results } of shards) {
    const twice = byIndex.get(results.shard.index);
    if (twice) throw new MergeError(`Shard ${results.shard.index}/${count} is given twice (${twice} and ${file}).`);
    byIndex.set(results.shard.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length) {
    throw new MergeError(
      `Shard${missing.length === 1 ? "" : "s"} ${missing.join(", ")} of ${count} ${missing.length === 1 ? "is" : "are"} missing: run fathom eval DIR --shard ${missing[0]}/${count} (and the others), then merge all ${count}.`,
    );
  }
  // Every planned trial once: an interrupted shard, or a file edited by hand, is not a whole run.
  const trials = first.results.trialsPerScenario;
  const records: TrialRecord[] = [];
  for (const { file, results } of shards) {
    const expected = new Set(
      planTrials(
        suite.map((name) => ({ name })),
        trials,
        results.shard,
      ).map((p) => `${p.scenario.name} #${p.trial}`),
    );
    const got = new Set<string>();
    for (const r of results.results) {
      const key = `${r.name} #${r.trial}`;
      if (!expected.has(key) || got.has(key))
        throw new MergeError(
          `${file} has a trial its shard does not run (${key}): it was not written by fathom eval for shard ${results.shard.index}/${count} of this suite.`,
        );
      got.add(key);
      records.push(r);
    }
    const absent = [...expected].filter((key) => !got.has(key));
    if (absent.length)
      throw new MergeError(
        `${file} lacks ${absent.length} of its shard's ${expected.size} trials (${absent.slice(0, 3).join(", ")}${absent.length > 3 ? ", …" : ""}): the shard was interrupted; run it again.`,
      );
  }
  const { mode, provider, model } = first.results;
  return summarize(records, {
    mode,
    provider,
    model: mode === "replay" ? recordedModels(records) : model,
    trialsPerScenario: trials,
  });
}

/** What merging needs of the process (`fathom eval` passes its own io, which has more). */
export interface MergeIo {
  cwd: string;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

export async function mergeCommand(argv: readonly string[], io: MergeIo): Promise<number> {
  let values;
  let files: string[];
  try {
    const parsed = parseCommandArgs(
      argv,
      {
        output: { type: "string" },
        baseline: { type: "string" },
        json: { type: "boolean" },
        ...HELP_OPTION,
      },
      MergeError,
    );
    values = parsed.values;
    if (values.help) {
      io.out.write(
        "Usage: fathom eval merge FILE... [--output FILE] [--baseline FILE] [--json]\n\nJoins the results of every shard of one run (fathom eval DIR --shard I/N) into one results\nfile (default ./results.json) with the figures of an unsharded run.\n",
      );
      return 0;
    }
    files = parsed.positionals.map((f) => path.resolve(io.cwd, f));
    if (files.length === 0) throw new MergeError("Missing the shards' results: fathom eval merge results/*.json");
    const output = path.resolve(io.cwd, values.output ?? "results.json");
    if (files.includes(output))
      throw new MergeError(
        `${shortPath(io.cwd, output)} is one of the shards: write the merged results elsewhere (--output FILE).`,
      );
    const lost = files.find((f) => !existsSync(f));
    if (lost) throw new MergeError(`${shortPath(io.cwd, lost)} does not exist.`);
    const results = mergeShards(files);
    const baseline = values.baseline === undefined ? undefined : path.resolve(io.cwd, values.baseline);
    const comparison = baseline ? compare(results, readBaseline(baseline)) : undefined;
    writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
    if (values.json) {
      io.out.write(
        `${JSON.stringify({ type: "summary", output, scenarios: results.scenarios, editPrecision: results.editPrecision, totals: results.totals, ...(comparison ? { comparison } : {}) })}\n`,
      );
    } else {
      io.err.write(
        `fathom eval merge: ${files.length} shard${files.length === 1 ? "" : "s"}, ${results.totals.trials} trials of ${results.scenarios.length} scenarios\n`,
      );
      printResults(io.out, results, {
        output: shortPath(io.cwd, output),
        ...(comparison ? { comparison, baseline: shortPath(io.cwd, baseline!) } : {}),
      });
    }
    if (comparison && comparison.regressions.length > 0) return 1;
    if (results.mode === "replay" && results.totals.passed < results.totals.trials) return 1;
    return 0;
  } catch (error) {
    if (!(
      error instanceof MergeError ||
      error instanceof BaselineError ||
      (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ))
      throw error;
    io.err.write(`fathom eval merge: ${(error as Error).message}\n`);
    return 2;
  }
}
