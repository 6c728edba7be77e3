/**
 * Notices the model making the same call with the same arguments again and again. The count
 * for a call resets when another edit or command succeeds (the workspace may have changed, so
 * reading a file or running the tests again is then legitimate).
 */
export const REPEAT_WARN_AT = 3;
export const REPEAT_STOP_AT = 5;

export type RepetitionVerdict = { verdict: "ok" } | { verdict: "warn"; count: number } | { verdict: "stop"; count: number };

export class RepetitionGuard {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly warnAt = REPEAT_WARN_AT,
    private readonly stopAt = REPEAT_STOP_AT,
  ) {}

  /** Records a call about to run and says whether to run it. */
  record(name: string, args: unknown): RepetitionVerdict {
    const key = callKey(name, args);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count >= this.stopAt) return { verdict: "stop", count };
    if (count >= this.warnAt) return { verdict: "warn", count };
    return { verdict: "ok" };
  }

  /** A call changed the workspace: every other call's count starts again. */
  workspaceChanged(name: string, args: unknown): void {
    const key = callKey(name, args);
    const own = this.counts.get(key);
    this.counts.clear();
    if (own !== undefined) this.counts.set(key, own);
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
