import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseRunState, type RunState } from "../core/run/runState";
import { CheckpointStore } from "../core/checkpoints/checkpointStore";
import { dirNames } from "../core/dirNames";

/**
 * The CLI's tasks and checkpoints, per workspace, in `$XDG_DATA_HOME/fathom/workspaces/<hash>/`
 * (never in the workspace): `tasks/<id>.json` holds the conversation to continue
 * (`fathom run --task ID`), `checkpoints/` the files' earlier versions.
 */
export function workspaceDataDir(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const real = realpathSync(cwd);
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share");
  const dir = path.join(base, "fathom", "workspaces", createHash("sha256").update(real).digest("hex").slice(0, 16));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "workspace.txt"), `${real}\n`);
  return dir;
}

/** The workspace's checkpoints, capped at FATHOM_CHECKPOINTS_MAX_MB (default 300 MB). */
export function checkpointStoreFor(dataDir: string, env: NodeJS.ProcessEnv = process.env): CheckpointStore {
  const mb = Number(env.FATHOM_CHECKPOINTS_MAX_MB);
  return new CheckpointStore({
    dir: path.join(dataDir, "checkpoints"),
    ...(Number.isFinite(mb) && mb > 0 ? { maxStorageBytes: Math.round(mb * 1048576) } : {}),
  });
}

/** Forgets a saved task (its conversation); its checkpoints are the store's to delete. */
export function removeTask(dataDir: string, id: string): boolean {
  const file = taskFile(dataDir, id);
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}

export interface CliTask {
  version: 1;
  id: string;
  /** The first prompt, as the task's title. */
  title: string;
  createdAt: number;
  updatedAt: number;
  reason: string;
  state: RunState;
}

const TASK_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function newTaskId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

function taskFile(dataDir: string, id: string): string {
  if (!TASK_ID.test(id)) throw new Error(`"${id}" is not a task id; run "fathom tasks" to see them.`);
  return path.join(dataDir, "tasks", `${id}.json`);
}

export function loadTask(dataDir: string, id: string): CliTask {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(taskFile(dataDir, id), "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error(`No task ${id} in this workspace; run "fathom tasks" to see them.`, { cause: error });
    throw new Error(`Task ${id} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const task = raw as CliTask;
  const parsed = parseRunState(task.state);
  if ("error" in parsed) throw new Error(`Task ${id} is damaged: ${parsed.error}`);
  return { ...task, state: parsed.state };
}

/** Atomic: a kill leaves the previous version. */
export function saveTask(dataDir: string, task: CliTask): void {
  const file = taskFile(dataDir, task.id);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(task));
  renameSync(tmp, file);
}

export function listTasks(dataDir: string): CliTask[] {
  const dir = path.join(dataDir, "tasks");
  const names = dirNames(dir);
  const tasks: CliTask[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    try {
      tasks.push(loadTask(dataDir, name.slice(0, -".json".length)));
    } catch {
      // A damaged file is skipped here; `fathom restore` on it says what is wrong.
    }
  }
  return tasks.sort((a, b) => b.updatedAt - a.updatedAt);
}
