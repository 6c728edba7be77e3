/**
 * Eval shards: `fathom eval DIR --shard I/N` runs the I-th of N disjoint slices of the suite's
 * scenarios × trials, so a CI matrix or a Kubernetes Indexed Job spreads one eval over N
 * machines with no scheduler of Fathom's own; `fathom eval merge` joins the shards' results.
 *
 * A trial's shard is a hash of its scenario's name and trial number, not its position in the
 * suite: adding or removing a scenario moves no other trial to another shard, and the k trials
 * of one scenario spread over the shards (a long scenario does not load one machine k times).
 */
import { createHash } from "node:crypto";

export interface Shard {
  /** 1-based, as people count machines. */
  index: number;
  count: number;
}

/** What a shard's results.json keeps, so a merge can check it has the whole suite, once. */
export interface ShardInfo extends Shard {
  /** Every scenario of the suite (all shards), by name. */
  suite: string[];
  /** How many trials this shard was given. */
  planned: number;
}

export const MAX_SHARDS = 1000;

export class ShardError extends Error {}

/** Parses "I/N" (1 ≤ I ≤ N ≤ 1000). */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new ShardError(
      `--shard must be I/N with 1 ≤ I ≤ N ≤ ${MAX_SHARDS}, e.g. --shard 2/4 for the second of four machines (got "${text}"). A Kubernetes Indexed Job counts from 0: pass $((JOB_COMPLETION_INDEX + 1))/N.`,
    );
  }
  return { index, count };
}

/** The shard (1-based) that runs trial `trial` of scenario `name` when there are `count`. */
export function shardOf(name: string, trial: number, count: number): number {
  const digest = createHash("sha256").update(`${name}\0${trial}`).digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

export interface PlannedTrial<S> {
  scenario: S;
  /** 1-based. */
  trial: number;
}

/** The trials of `scenarios` × `trials` that `shard` runs (all of them without a shard), in suite order. */
export function planTrials<S extends { name: string }>(
  scenarios: readonly S[],
  trials: number,
  shard?: Shard,
): PlannedTrial<S>[] {
  const plan: PlannedTrial<S>[] = [];
  for (const scenario of scenarios) {
    for (let trial = 1; trial <= trials; trial++) {
      if (!shard || shardOf(scenario.name, trial, shard.count) === shard.index) plan.push({ scenario, trial });
    }
  }
  return plan;
}

/** Where a shard's results go unless --output says: beside the suite, one file per shard. */
export function shardResultsName(shard: Shard): string {
  return `results-shard-${shard.index}-of-${shard.count}.json`;
}
