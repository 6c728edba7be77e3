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

export class TaskBudget {
  private steps = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxSteps: number,
    readonly spendCapUsd: number | undefined,
    /** Dollars spent before this run (the task's earlier runs). */
    private spentUsd: number,
    readonly maxParallelSubagents = DEFAULT_MAX_PARALLEL_SUBAGENTS,
  ) {}

  get stepsUsed(): number {
    return this.steps;
  }

  get costUsd(): number {
    return this.spentUsd;
  }

  /** Why no more model requests may be made, or undefined. Call before each request. */
  exhausted(): BudgetStop | undefined {
    if (this.steps >= this.maxSteps) {
      return {
        reason: "max_steps",
        message: `Stopped after ${this.steps} model calls (the step limit, subagents included). Send a message to continue.`,
      };
    }
    if (this.spendCapUsd !== undefined && this.spentUsd >= this.spendCapUsd) {
      return {
        reason: "spend_cap",
        message: `Stopped: this task has cost $${this.spentUsd.toFixed(4)}, reaching the spend cap of $${this.spendCapUsd.toFixed(2)}. Raise the cap or send a message to continue.`,
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
