/**
 * The limits of one run of a task, shared by the run and every subagent it starts: model calls
 * (the step limit), dollars (the spend cap) and how many subagents may run at once. A subagent
 * spends from the same budget, and every model request checks it first, so `maxSteps` 5 means
 * five requests in all, and a $1 cap is not passed by subagents running in parallel.
 */
export const DEFAULT_MAX_PARALLEL_SUBAGENTS = 4;
/** `task` calls waiting or running at once beyond which more are refused (one turn may ask for 1,000). */
export const MAX_QUEUED_SUBAGENTS = 16;

export type BudgetStop = { reason: "max_steps" | "spend_cap"; message: string };

/**
 * Limits that may tighten the budget while the run goes on, read before each request: Autopilot's
 * (the person may switch to it mid-task). `name` says whose limits they are.
 */
export type ExtraLimits = () => { maxSteps: number; spendCapUsd: number; name: string } | undefined;

export class TaskBudget {
  private steps = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly ownMaxSteps: number,
    private readonly ownSpendCapUsd: number | undefined,
    /** Dollars spent before this run (the task's earlier runs). */
    private spentUsd: number,
    readonly maxParallelSubagents = DEFAULT_MAX_PARALLEL_SUBAGENTS,
    private readonly extra?: ExtraLimits,
  ) {}

  /** The step limit in force now (the lower of the run's own and the extra limits'). */
  get maxSteps(): number {
    const extra = this.extra?.();
    return extra ? Math.min(this.ownMaxSteps, extra.maxSteps) : this.ownMaxSteps;
  }

  /** The spend cap in force now, if any. */
  get spendCapUsd(): number | undefined {
    const extra = this.extra?.()?.spendCapUsd;
    if (extra === undefined) return this.ownSpendCapUsd;
    return this.ownSpendCapUsd === undefined ? extra : Math.min(this.ownSpendCapUsd, extra);
  }

  get stepsUsed(): number {
    return this.steps;
  }

  get costUsd(): number {
    return this.spentUsd;
  }

  /** Why no more model requests may be made, or undefined. Call before each request. */
  exhausted(): BudgetStop | undefined {
    const extra = this.extra?.();
    const maxSteps = this.maxSteps;
    if (this.steps >= maxSteps) {
      const whose = extra && extra.maxSteps < this.ownMaxSteps ? `${extra.name}'s step limit` : "the step limit";
      return {
        reason: "max_steps",
        message: `Stopped after ${this.steps} model calls (${whose}, subagents included). Send a message to continue.`,
      };
    }
    const cap = this.spendCapUsd;
    if (cap !== undefined && this.spentUsd >= cap) {
      const whose = extra && cap === extra.spendCapUsd ? `${extra.name}'s spend cap` : "the spend cap";
      return {
        reason: "spend_cap",
        message: `Stopped: this task has cost $${this.spentUsd.toFixed(4)}, reaching ${whose} of $${cap.toFixed(2)}. Raise the cap or send a message to continue.`,
      };
    }
    return undefined;
  }

  /** A model request is being made. */
  takeStep(): void {
    this.steps++;
  }

  /** Money spent by any request of the task (the loop's, a summary's, a subagent's), as it happens. */
  spend(usd: number): void {
    this.spentUsd += usd;
  }

  /**
   * Waits for a subagent slot. Resolves to a release function, or to null when too many are
   * already waiting (the caller refuses the call).
   */
  async subagentSlot(signal: AbortSignal): Promise<(() => void) | null> {
    if (this.running + this.waiting.length >= MAX_QUEUED_SUBAGENTS) return null;
    if (this.running < this.maxParallelSubagents) this.running++;
    else {
      // Wait for a running one to hand its slot over (the count stays where it is).
      const handedOver = await new Promise<boolean>((resolve) => {
        const wake = () => {
          signal.removeEventListener("abort", onAbort);
          resolve(true);
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          resolve(false);
        };
        this.waiting.push(wake);
        signal.addEventListener("abort", onAbort, { once: true });
      });
      if (!handedOver) return () => undefined;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}
