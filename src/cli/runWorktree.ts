import { TaskWorktrees } from "../core/worktrees/taskWorktrees";
import type { TaskWorktree } from "../core/worktrees/worktreeRecords";
import type { DoneReason } from "../core/run/events";

/** Where a `fathom run` works: the folder it was given, or the task's own worktree. */
export type TaskPlace =
  | { root: string; worktree?: TaskWorktree; finish(reason: DoneReason | undefined): Promise<void> }
  | { error: string; usage: boolean };

/**
 * `--worktree` makes the task's worktree (refusing, with the reason, where git cannot have
 * one); `--task ID` of a task that ran in a worktree works there again. Otherwise the folder.
 */
export async function placeTask(
  cwd: string,
  taskId: string,
  o: { worktree?: { name?: string }; prompt: string; continuing: boolean },
): Promise<TaskPlace> {
  const wts = new TaskWorktrees({ repoDir: cwd, surface: "cli" });
  let worktree: TaskWorktree | undefined;
  if (o.worktree) {
    const support = await wts.support();
    if (!support.ok)
      return { error: `--worktree: ${support.reason} Run without --worktree to work in ${cwd} itself.`, usage: true };
    try {
      worktree = await wts.create(taskId, o.prompt, o.worktree.name);
    } catch (error) {
      return { error: `Could not make the task's worktree: ${(error as Error).message}`, usage: false };
    }
  } else if (o.continuing && (await wts.support()).ok) {
    worktree = await wts.get(taskId);
    if (worktree && !worktree.exists)
      return {
        error: `Task ${taskId} ran in ${worktree.path}, which is gone. Discard it: fathom discard ${taskId}`,
        usage: false,
      };
    if (worktree?.state === "running")
      return {
        error: `Task ${taskId} is running in another process. Wait for it, or stop it, before continuing it.`,
        usage: false,
      };
    if (worktree) await wts.setStatus(taskId, "running");
  }
  if (!worktree) return { root: cwd, finish: async () => {} };
  return {
    root: worktree.root,
    worktree,
    async finish(reason) {
      await wts
        .setStatus(taskId, reason === "completed" ? "done" : reason === "cancelled" ? "cancelled" : "failed")
        .catch(() => undefined);
    },
  };
}
