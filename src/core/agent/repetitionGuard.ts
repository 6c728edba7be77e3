/**
 * Notices the model going round in circles:
 * - the same call with the same arguments again and again. The count for a call resets when
 *   another edit or command succeeds (the workspace may have changed, so reading a file or
 *   running the tests again is then legitimate);
 * - a short cycle of calls repeated (edit A→B, edit B→A, edit A→B, …), which undo each other,
 *   so no single call repeats while nothing moves. Successful edits do not reset this one.
 */
export const REPEAT_WARN_AT = 3;
export const REPEAT_STOP_AT = 5;
/** Cycles of 2 to 4 calls; a cycle seen twice in a row warns, three times stops. */
const CYCLE_PERIODS = [2, 3, 4] as const;
export const CYCLE_WARN_AT = 2;
export const CYCLE_STOP_AT = 3;
const HISTORY = Math.max(...CYCLE_PERIODS) * CYCLE_STOP_AT;

export type RepetitionVerdict =
  | { verdict: "ok" }
  /** `period` is set for a cycle of that many calls; `count` is how many times it (or the call) was made. */
  | { verdict: "warn"; count: number; period?: number }
  | { verdict: "stop"; count: number; period?: number };

export class RepetitionGuard {
  private readonly counts = new Map<string, number>();
  private readonly history: string[] = [];
  /** Results of calls made since the workspace last changed, by call (see `previousResult`). */
  private readonly results = new Map<string, { content: string; isError?: boolean }>();

  constructor(
    private readonly warnAt = REPEAT_WARN_AT,
    private readonly stopAt = REPEAT_STOP_AT,
  ) {}

  /** Records a call about to run and says whether to run it. */
  record(name: string, args: unknown): RepetitionVerdict {
    const key = callKey(name, args);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    this.history.push(key);
    if (this.history.length > HISTORY) this.history.shift();
    if (count >= this.stopAt) return { verdict: "stop", count };
    const cycle = this.cycle();
    if (cycle && cycle.count >= CYCLE_STOP_AT) return { verdict: "stop", ...cycle };
    if (count >= this.warnAt) return { verdict: "warn", count };
    if (cycle && cycle.count >= CYCLE_WARN_AT) return { verdict: "warn", ...cycle };
    return { verdict: "ok" };
  }

  /** The shortest cycle the latest calls end with, and how many times in a row it ran. */
  private cycle(): { period: number; count: number } | undefined {
    const h = this.history;
    for (const period of CYCLE_PERIODS) {
      if (h.length < period * 2) return undefined;
      const block = h.slice(-period);
      // All the same call is the identical-repeat case above, not a cycle.
      if (block.every((k) => k === block[0])) continue;
      let count = 1;
      while (
        h.length >= period * (count + 1) &&
        h.slice(-period * (count + 1), -period * count).every((k, i) => k === block[i])
      )
        count++;
      if (count >= 2) return { period, count };
    }
    return undefined;
  }

  /** A call changed the workspace: every other call's count starts again, and its earlier results are stale. */
  workspaceChanged(name: string, args: unknown): void {
    const key = callKey(name, args);
    const own = this.counts.get(key);
    this.counts.clear();
    if (own !== undefined) this.counts.set(key, own);
    const result = this.results.get(key);
    this.results.clear();
    if (result) this.results.set(key, result);
  }

  /** Keeps a call's result, to answer the same call again while nothing else is written or run. */
  remember(name: string, args: unknown, result: { content: string; isError?: boolean }): void {
    this.results.set(callKey(name, args), { content: result.content, ...(result.isError ? { isError: true } : {}) });
  }

  /** The result of this exact call made before, when nothing has been written or run since. */
  previousResult(name: string, args: unknown): { content: string; isError?: boolean } | undefined {
    return this.results.get(callKey(name, args));
  }
}

/** Name plus arguments with object keys sorted, so `{a,b}` and `{b,a}` are the same call. */
export function callKey(name: string, args: unknown): string {
  return `${name}:${JSON.stringify(sortKeys(args))}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}
