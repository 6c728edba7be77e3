import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { dirNames } from "../dirNames";

/** What `git worktree lock --reason` says on a worktree Fathom made: how Fathom knows its own. */
export const LOCK_PREFIX = "fathom task ";
/** Fathom's record of a task's worktree, kept in the worktree's own admin folder in `.git`. */
export const RECORD_FILE = "fathom-task.json";

export const WORKTREE_STATUSES = ["running", "done", "failed", "cancelled", "applied"] as const;
export type RecordedStatus = (typeof WORKTREE_STATUSES)[number];
/** As shown: `interrupted` is a `running` record whose process is gone (killed, crashed, closed). */
export type WorktreeState = Exclude<RecordedStatus, "running"> | "running" | "interrupted";

const recordSchema = z.object({
  version: z.literal(1),
  taskId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  title: z.string(),
  branch: z.string().startsWith("fathom/"),
  /** The commit it started from: its changes are measured against it. */
  base: z.string().regex(/^[0-9a-f]{40,64}$/),
  /** The worktree's folder. */
  path: z.string(),
  /** The workspace's folder inside the repository ("" at its top). */
  prefix: z.string(),
  createdAt: z.number(),
  status: z.enum(WORKTREE_STATUSES),
  /** The process running it, while `running`. */
  pid: z.number().int().optional(),
  /** Which program runs it: "vscode" or "cli". */
  surface: z.string().optional(),
});
export type WorktreeRecord = z.infer<typeof recordSchema>;

export interface TaskWorktree extends WorktreeRecord {
  state: WorktreeState;
  /** Git's admin folder of this worktree (`.git/worktrees/<name>`), where the record lives. */
  adminDir: string;
  /** The task's root: the worktree's copy of the workspace folder. */
  root: string;
  /** False when the folder was deleted by hand (Discard still cleans up). */
  exists: boolean;
}

export function writeRecord(adminDir: string, record: WorktreeRecord): void {
  const file = path.join(adminDir, RECORD_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(temp, file);
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Every worktree of this repository that Fathom made, read from git's admin folders (so another
 * window or the CLI sees the same list, and a task killed half-way is still found). A worktree
 * counts as Fathom's only when git's lock on it carries Fathom's reason; a record without that
 * lock is ignored, and a lock without a record (killed right after `git worktree add`) is
 * listed from what git knows.
 */
export function readRecords(commonDir: string): TaskWorktree[] {
  const dir = path.join(commonDir, "worktrees");
  const names = dirNames(dir);
  const found: TaskWorktree[] = [];
  for (const name of names) {
    const adminDir = path.join(dir, name);
    const lock = readText(path.join(adminDir, "locked"))?.trim();
    if (!lock?.startsWith(LOCK_PREFIX)) continue;
    const taskId = lock.slice(LOCK_PREFIX.length);
    let record: WorktreeRecord | undefined;
    try {
      const parsed = recordSchema.safeParse(JSON.parse(readText(path.join(adminDir, RECORD_FILE)) ?? "null"));
      if (parsed.success && parsed.data.taskId === taskId) record = parsed.data;
    } catch {
      record = undefined;
    }
    if (!record) {
      const gitdir = readText(path.join(adminDir, "gitdir"))?.trim();
      const branch = /^ref: refs\/heads\/(fathom\/.+)$/.exec(readText(path.join(adminDir, "HEAD"))?.trim() ?? "")?.[1];
      if (!gitdir || !branch) continue;
      record = {
        version: 1,
        taskId,
        title: "(interrupted while it was being created)",
        branch,
        base: "0".repeat(40),
        path: path.dirname(gitdir),
        prefix: "",
        createdAt: 0,
        status: "running",
      };
    }
    const state: WorktreeState = record.status === "running" && !alive(record.pid) ? "interrupted" : record.status;
    found.push({
      ...record,
      state,
      adminDir,
      root: path.join(record.path, record.prefix),
      exists: existsSync(record.path),
    });
  }
  return found.sort((a, b) => b.createdAt - a.createdAt);
}
