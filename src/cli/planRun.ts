import type { RunState, TaskMode } from "../core/run/runState";
import { startPlan } from "../core/middleware/planMode";

/**
 * What `fathom run` sends for `--plan` (plan mode: reads only, ends with a plan) and
 * `--task ID --act` (start that task's plan: Act mode, its steps as todos). Without either, a
 * saved task goes on in its own mode: a message to a planned task asks for changes to the plan.
 */
export function planRun(o: {
  plan: boolean;
  act: boolean;
  prompt: string;
  saved?: RunState;
}): { input: string; state?: RunState; mode?: TaskMode } | { error: string } {
  if (o.act) {
    if (!o.saved)
      return { error: "--act starts a saved task's plan: give it with --task ID (fathom tasks lists them)." };
    const started = startPlan(o.saved);
    if ("error" in started) return started;
    const extra = o.prompt.trim() ? `\n\nThe person adds: ${o.prompt.trim()}` : "";
    return { input: `${started.input}${extra}`, state: started.state, mode: "act" };
  }
  return { input: o.prompt, ...(o.saved ? { state: o.saved } : {}), ...(o.plan ? { mode: "plan" as const } : {}) };
}

/** The lines printed after a plan-mode run (stderr), saying how to go on. */
export function planNextSteps(taskId: string, capped: boolean): string {
  return `${capped ? "The plan was long and was cut (see its end).\n" : ""}Plan saved with task ${taskId}. Start it: fathom run --task ${taskId} --act; ask for changes: fathom run --task ${taskId} "what to change"\n`;
}
