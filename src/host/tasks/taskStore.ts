import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { InlineEditRequestSchema, parseRunState, type InlineEditRequest, type RunState } from "../../core";
import type { TaskStatus, TaskSummary, TodoItem, TranscriptItem, UsageView } from "../../protocol";

/**
 * Tasks saved per workspace: `<dir>/tasks/<id>.json` (the transcript the person saw plus the
 * core's RunState to resume) and `<dir>/index.json` (the history list and the open task).
 * Every write is atomic (temp file + rename) and writes of one file are coalesced: the newest
 * content wins, and nothing is written twice at once. No vscode here (unit-tested).
 */

export interface SavedTask {
  version: 1;
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** At save time; "running"/"awaiting_approval" found on load mean the window went away mid-task. */
  status: TaskStatus;
  model: { provider: string; model: string };
  items: TranscriptItem[];
  todos: TodoItem[];
  usage: UsageView;
  alwaysAllowed: string[];
  /** The custom agent it runs as (the Agent box), so a reloaded task keeps its narrower tools. */
  agent?: string;
  /** Rules files in force ("Rules (N)"). */
  rules?: string[];
  /** What the core needs to continue; null before the first step. */
  runState: RunState | null;
  /** The inline edit (Edit Selection) its latest message asked for: a resume or retry runs that edit. */
  inlineEdit?: InlineEditRequest;
}

interface TaskIndex {
  version: 1;
  tasks: TaskSummary[];
  /** The task the view showed last (reopened after a reload). */
  openTaskId: string | null;
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;

export function isTaskId(id: string): boolean {
  return ID.test(id);
}

export class TaskStore {
  private readonly writers = new Map<string, { pending: string | undefined; running: Promise<void> | undefined }>();
  private index: TaskIndex | undefined;

  constructor(
    readonly dir: string,
    /** Applied to every file's text before it is written (removes secrets). */
    private readonly redact: (text: string) => string = (t) => t,
    private readonly onError: (message: string) => void = () => undefined,
  ) {}

  async list(): Promise<TaskSummary[]> {
    return [...(await this.readIndex()).tasks].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async openTaskId(): Promise<string | null> {
    return (await this.readIndex()).openTaskId;
  }

  async load(id: string): Promise<SavedTask | { error: string }> {
    if (!isTaskId(id)) return { error: `"${id}" is not a task id` };
    let text: string;
    try {
      text = await readFile(this.taskFile(id), "utf8");
    } catch {
      return { error: `The saved task ${id} was not found; it may have been deleted.` };
    }
    try {
      const task = JSON.parse(text) as SavedTask;
      if (task.version !== 1 || task.id !== id || !Array.isArray(task.items))
        return { error: `The saved task ${id} is not in a format this Fathom reads.` };
      if (task.runState) {
        const parsed = parseRunState(task.runState);
        task.runState = "state" in parsed ? parsed.state : null;
      }
      if (task.inlineEdit !== undefined) {
        const edit = InlineEditRequestSchema.safeParse(task.inlineEdit);
        if (edit.success) task.inlineEdit = edit.data;
        else delete task.inlineEdit;
      }
      return task;
    } catch (err) {
      return {
        error: `The saved task ${id} could not be read (${(err as Error).message}). The file is kept: ${this.taskFile(id)}`,
      };
    }
  }

  /** Saves the task and its line in the history. Resolves when both are on disk. */
  /** Saves the task as it is now: it is serialized before anything is awaited, so the caller may go on changing it (no copy needed). */
  async save(task: SavedTask): Promise<void> {
    const json = JSON.stringify(task);
    const summary: TaskSummary = { id: task.id, title: task.title, status: task.status, updatedAt: task.updatedAt };
    const index = await this.readIndex();
    const at = index.tasks.findIndex((t) => t.id === summary.id);
    if (at >= 0) index.tasks[at] = summary;
    else index.tasks.push(summary);
    await Promise.all([this.write(this.taskFile(summary.id), json), this.writeIndex()]);
  }

  async setOpenTask(id: string | null): Promise<void> {
    const index = await this.readIndex();
    if (index.openTaskId === id) return;
    index.openTaskId = id;
    await this.writeIndex();
  }

  async remove(id: string): Promise<void> {
    if (!isTaskId(id)) return;
    const index = await this.readIndex();
    index.tasks = index.tasks.filter((t) => t.id !== id);
    if (index.openTaskId === id) index.openTaskId = null;
    await Promise.all([rm(this.taskFile(id), { force: true }), this.writeIndex()]);
  }

  /** Waits for every write under way. */
  async flush(): Promise<void> {
    while ([...this.writers.values()].some((w) => w.running)) {
      await Promise.all([...this.writers.values()].map((w) => w.running));
    }
  }

  taskFile(id: string): string {
    return path.join(this.dir, "tasks", `${id}.json`);
  }

  private get indexFile(): string {
    return path.join(this.dir, "index.json");
  }

  private async readIndex(): Promise<TaskIndex> {
    if (this.index) return this.index;
    let index: TaskIndex = { version: 1, tasks: [], openTaskId: null };
    try {
      const parsed = JSON.parse(await readFile(this.indexFile, "utf8")) as Partial<TaskIndex>;
      if (parsed.version === 1 && Array.isArray(parsed.tasks)) {
        index = {
          version: 1,
          tasks: parsed.tasks.filter((t) => t && typeof t.id === "string" && isTaskId(t.id)),
          openTaskId: typeof parsed.openTaskId === "string" ? parsed.openTaskId : null,
        };
      }
    } catch {
      // No index yet (or an unreadable one): start a new one; task files stay where they are.
    }
    this.index ??= index;
    return this.index;
  }

  private writeIndex(): Promise<void> {
    return this.write(this.indexFile, JSON.stringify(this.index));
  }

  /** Coalesced atomic write: while one write runs, only the newest pending text is kept. */
  private write(file: string, text: string): Promise<void> {
    let writer = this.writers.get(file);
    if (!writer) {
      writer = { pending: undefined, running: undefined };
      this.writers.set(file, writer);
    }
    writer.pending = this.redact(text);
    if (!writer.running) {
      const w = writer;
      w.running = (async () => {
        while (w.pending !== undefined) {
          const next = w.pending;
          w.pending = undefined;
          await this.atomicWrite(file, next);
        }
        w.running = undefined;
      })();
      return w.running;
    }
    // A write is under way; it will pick up this text. Resolve when it has.
    return writer.running;
  }

  private async atomicWrite(file: string, text: string): Promise<void> {
    const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(temp, text, "utf8");
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true }).catch(() => undefined);
      this.onError(
        `Could not save ${file}: ${(err as Error).message}. The task stays in memory; check the disk and permissions.`,
      );
    }
  }
}
