import type { AgentEvent, DoneEvent } from "../core/run/events";
import { saveTask } from "./cliTasks";
import { planNextSteps } from "./planRun";
import type { CliOptions } from "./runOptions";
import type { PreparedTask } from "./runPlace";

/**
 * The run's events as the terminal (or a --json caller) sees them: each rendered, a proposed plan
 * kept for the next steps; at the end the task saved, its place finished, and what can be done
 * next said (restore, continue, the worktree's apply or discard).
 */
export function taskEvents(
  opts: CliOptions,
  taskId: string,
  { place, worktree, dataDir, saved }: PreparedTask,
  render: (event: AgentEvent) => void,
) {
  let done: DoneEvent | undefined;
  const rules: string[] = [];
  let plan: Extract<AgentEvent, { type: "plan_proposed" }> | undefined;
  const onEvent = async (event: AgentEvent) => {
    if (event.type === "rules_loaded") rules.push(...event.files.filter((f) => !rules.includes(f)));
    if (event.type === "plan_proposed") {
      plan = event;
      // --json: the plan as an event of its own, with the task to start it from.
      if (opts.json) render({ type: "plan", taskId, text: event.text, capped: event.capped } as unknown as AgentEvent);
      return;
    }
    if (event.type !== "done") return render(event);
    done = event;
    const now = Date.now();
    saveTask(dataDir, {
      version: 1,
      id: taskId,
      title: saved?.title ?? opts.prompt,
      createdAt: saved?.createdAt ?? now,
      updatedAt: now,
      reason: event.reason,
      state: event.state,
    });
    await place.finish(event.reason);
    // --json callers find the task id (and its worktree) in the done event.
    render({
      ...event,
      taskId,
      rules,
      ...(worktree ? { worktree: worktree.path, branch: worktree.branch } : {}),
    } as AgentEvent);
    if (!opts.json && plan) process.stderr.write(planNextSteps(taskId, plan.capped));
    else if (!opts.json)
      process.stderr.write(
        `Task ${taskId} saved. Undo its changes: fathom restore ${taskId}; continue it: fathom run --task ${taskId} "..."\n`,
      );
    if (worktree && !opts.json)
      process.stderr.write(
        `Its changes are in ${worktree.path} (branch ${worktree.branch}). Review: fathom worktrees; take them: fathom apply ${taskId}; drop them: fathom discard ${taskId}\n`,
      );
  };
  return { onEvent, done: () => done };
}
