import { z } from "zod";
import { TaskStatusSchema } from "./taskStatus";

/** A task open in this window (running, waiting for the person, or the one shown). */
export const OpenTaskViewSchema = z.object({
  /** The session's key (a new task has no task id yet). */
  key: z.string(),
  taskId: z.string().nullable(),
  title: z.string(),
  status: TaskStatusSchema,
  /** Waits for the person (an approval). */
  needsYou: z.boolean(),
  shown: z.boolean(),
  /** Its worktree's branch, when it runs in one. */
  branch: z.string().optional(),
});
export type OpenTaskView = z.infer<typeof OpenTaskViewSchema>;

export const WorktreeStateSchema = z.enum(["running", "interrupted", "done", "failed", "cancelled", "applied"]);

/** A task's git worktree (from this window, another one, or the CLI). */
export const WorktreeViewSchema = z.object({
  taskId: z.string(),
  title: z.string(),
  branch: z.string(),
  path: z.string(),
  state: WorktreeStateSchema,
  /** What it changed against its base (null: not counted, or the folder is gone). */
  files: z.array(z.object({ path: z.string(), status: z.enum(["added", "modified", "deleted"]) })).nullable(),
  /** Its folder still exists. */
  exists: z.boolean(),
  /** Saved in this window's task history: it can be opened (and resumed) here. */
  inHistory: z.boolean(),
});
export type WorktreeView = z.infer<typeof WorktreeViewSchema>;

/** A `fathom/*` branch on a remote (the GitHub Action's, another machine's), to review and apply. */
export const RemoteBranchViewSchema = z.object({
  /** `refs/remotes/<remote>/<branch>`: what the view's actions name. */
  ref: z.string(),
  remote: z.string(),
  branch: z.string(),
  subject: z.string(),
  files: z.array(z.object({ path: z.string(), status: z.enum(["added", "modified", "deleted"]) })),
});
export type RemoteBranchView = z.infer<typeof RemoteBranchViewSchema>;

/** The remotes' `fathom/*` branches: fetched when the person opens the Worktrees list or refreshes it. */
export const RemoteBranchesViewSchema = z.object({
  /** The repository has a remote (else there is nothing to fetch). */
  hasRemote: z.boolean(),
  fetching: z.boolean(),
  /** When they were last fetched (null: not yet in this window). */
  fetchedAt: z.number().nullable(),
  branches: z.array(RemoteBranchViewSchema),
  /** Remotes that could not be fetched, with git's reason. */
  problems: z.array(z.string()),
});
export type RemoteBranchesView = z.infer<typeof RemoteBranchesViewSchema>;

/** Tasks at once and worktrees, as the chat view shows them. */
export const ParallelViewSchema = z.object({
  tasks: z.array(OpenTaskViewSchema),
  /** Every Fathom worktree of this repository. */
  worktrees: z.array(WorktreeViewSchema),
  /** Whether a new task can run in a worktree here, why not, and the person's default. */
  worktreeMode: z.object({ available: z.boolean(), reason: z.string().optional(), byDefault: z.boolean() }),
  /** The most tasks that run at once (a user setting). */
  maxParallel: z.number().int().positive(),
  remote: RemoteBranchesViewSchema,
});
export type ParallelView = z.infer<typeof ParallelViewSchema>;

export function initialParallelView(): ParallelView {
  return {
    tasks: [],
    worktrees: [],
    worktreeMode: { available: false, byDefault: false },
    maxParallel: 3,
    remote: noRemoteBranches(),
  };
}

export function noRemoteBranches(): RemoteBranchesView {
  return { hasRemote: false, fetching: false, fetchedAt: null, branches: [], problems: [] };
}
