import { promises as fsp } from "node:fs";
import * as nodePath from "node:path";
import type { BackendProtocol } from "../backends/protocol";
import { BlobStore } from "./blobStore";
import { appendJournal, readJournal, type Content, type JournalEntry } from "./journal";

export type { Content, JournalEntry } from "./journal";

export interface CheckpointStoreOptions {
  /** Fathom's own storage for one workspace (never inside the workspace). */
  dir: string;
  /** Larger files are not kept (the checkpoint says so). Default 10 MB, the backend's edit limit. */
  maxBlobBytes?: number;
  /** Past this, the oldest tasks' checkpoints are pruned. Default 300 MB. A function is read at each use (a setting). */
  maxStorageBytes?: number | (() => number | undefined);
}

export type Checkpoint = Extract<JournalEntry, { t: "cp" }>;

export interface FileRestore {
  path: string;
  /** What restoring does: delete a file Fathom created, or write its earlier text back. */
  action: "delete" | "write";
  /** The text it goes back to (null: deleted). */
  target: string | null;
  /** The file now (null: absent), as read when the plan was made. */
  current: string | null;
  /** Why it is left alone unless the person overrides: changed since Fathom's last write, unsaved, unreadable. */
  conflict?: string;
  /** Why it cannot be restored at all (its earlier content was too large to keep). */
  notKept?: string;
}

export interface RestorePlan {
  taskId: string;
  to: number;
  files: FileRestore[];
  /** Commands run since the checkpoint: their changes are not restored. */
  commands: string[];
  /** How many messages of the conversation the checkpoint had. */
  conversationLength: number;
}

export interface RestoreResult {
  restored: string[];
  conflicts: { path: string; reason: string }[];
  failed: { path: string; reason: string }[];
  commands: string[];
}

const TASK_ID = /^[A-Za-z0-9_-]{1,100}$/;
const DEFAULT_MAX_STORAGE_BYTES = 300 * 1024 * 1024;

/**
 * Checkpoints of the files Fathom changes, kept outside the workspace and without git: before
 * each write the file's earlier text (or "did not exist") goes into a content-addressed blob
 * store and the task's journal, and after it what Fathom wrote. Restoring to a checkpoint puts
 * back only files Fathom changed since, and only where the file still holds what Fathom left
 * there; anything else is a conflict, left as it is unless the person chooses to overwrite it.
 */
export class CheckpointStore {
  readonly blobs: BlobStore;
  readonly maxBlobBytes: number;
  private readonly lastN = new Map<string, number>();
  /** Blobs kept but not yet named in a journal: a prune running meanwhile must spare them. */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly options: CheckpointStoreOptions) {
    this.blobs = new BlobStore(nodePath.join(options.dir, "blobs"));
    this.maxBlobBytes = options.maxBlobBytes ?? 10 * 1024 * 1024;
  }

  get maxStorageBytes(): number {
    const cap =
      typeof this.options.maxStorageBytes === "function"
        ? this.options.maxStorageBytes()
        : this.options.maxStorageBytes;
    return cap !== undefined && cap > 0 ? cap : DEFAULT_MAX_STORAGE_BYTES;
  }

  private journalOf(taskId: string): string {
    if (!TASK_ID.test(taskId)) throw new Error(`Not a task id: ${taskId}`);
    return nodePath.join(this.options.dir, "journals", `${taskId}.jsonl`);
  }

  private async append(taskId: string, entry: JournalEntry): Promise<void> {
    const file = this.journalOf(taskId);
    await fsp.mkdir(nodePath.dirname(file), { recursive: true });
    await appendJournal(file, entry);
  }

  /** Takes a checkpoint; returns its number (1, 2, …; 0 is the state before the task). */
  async checkpoint(
    taskId: string,
    o: { kind: Checkpoint["kind"]; label: string; conversationLength: number; meta?: Record<string, unknown> },
  ): Promise<number> {
    let n = this.lastN.get(taskId);
    if (n === undefined) n = (await readJournal(this.journalOf(taskId))).filter((e) => e.t === "cp").length;
    n++;
    this.lastN.set(taskId, n);
    await this.append(taskId, {
      t: "cp",
      n,
      at: Date.now(),
      kind: o.kind,
      label: o.label,
      conversationLength: o.conversationLength,
      ...(o.meta ? { meta: o.meta } : {}),
    });
    return n;
  }

  /** Keeps a file's text (null: absent); a text over the size limit is noted, not kept. */
  async keep(text: string | null): Promise<Content> {
    if (text === null) return null;
    const bytes = Buffer.from(text, "utf8");
    if (bytes.length > this.maxBlobBytes) return { notKept: bytes.length };
    const hash = BlobStore.hashOf(bytes);
    this.inFlight.set(hash, (this.inFlight.get(hash) ?? 0) + 1);
    try {
      return await this.blobs.put(bytes);
    } catch (error) {
      this.settle(hash);
      throw error;
    }
  }

  async recordWrite(taskId: string, path: string, before: Content, after: Content, by?: "restore"): Promise<void> {
    try {
      await this.append(taskId, { t: "w", path, before, after, at: Date.now(), ...(by ? { by } : {}) });
    } finally {
      this.release(before, after);
    }
  }

  /** Kept blobs that are now in a journal, or never will be (the write failed). */
  release(...contents: Content[]): void {
    for (const c of contents) if (typeof c === "string") this.settle(c);
  }

  private settle(hash: string): void {
    const n = (this.inFlight.get(hash) ?? 0) - 1;
    if (n > 0) this.inFlight.set(hash, n);
    else this.inFlight.delete(hash);
  }

  /**
   * A Keep or Undo in the Changes list: the file's reviewed `base` and Fathom's `agent` text from
   * now on. `kept`: which of them were just kept (`keep`), released once the journal names them.
   */
  async recordReview(taskId: string, path: string, base: Content, agent: Content, kept: Content[]): Promise<void> {
    try {
      await this.append(taskId, { t: "rv", path, base, agent, at: Date.now() });
    } finally {
      this.release(...kept);
    }
  }

  /** The task's journal, in order (the Changes list reads it). */
  async journal(taskId: string): Promise<JournalEntry[]> {
    return readJournal(this.journalOf(taskId));
  }

  async recordCommand(taskId: string, command: string): Promise<void> {
    await this.append(taskId, { t: "cmd", command, at: Date.now() });
  }

  /**
   * The task's checkpoints, each with the files Fathom changed after it, and those of them whose
   * text at the checkpoint was over the size kept (`notKept`: restoring cannot bring it back).
   */
  async checkpoints(taskId: string): Promise<(Checkpoint & { files: string[]; notKept: string[] })[]> {
    const entries = await readJournal(this.journalOf(taskId));
    return entries.flatMap((e, i) => {
      if (e.t !== "cp") return [];
      const first = new Map<string, Content>();
      for (const w of entries.slice(i + 1)) if (w.t === "w" && !first.has(w.path)) first.set(w.path, w.before);
      return [{ ...e, files: [...first.keys()], notKept: [...first].filter(([, c]) => isNotKept(c)).map(([p]) => p) }];
    });
  }

  /** Whether the task has a journal (none: never checkpointed, or pruned). */
  async hasTask(taskId: string): Promise<boolean> {
    return fsp.access(this.journalOf(taskId)).then(
      () => true,
      () => false,
    );
  }

  /** What restoring to checkpoint `to` would do (0: before the task), with each file's conflict if any. */
  async plan(taskId: string, to: number, backend: BackendProtocol): Promise<RestorePlan> {
    const entries = await readJournal(this.journalOf(taskId));
    if (entries.length === 0)
      throw new Error(
        `Task ${taskId} has no checkpoints: they were deleted, pruned to stay under the storage cap, or never taken.`,
      );
    const start = to === 0 ? 0 : entries.findIndex((e) => e.t === "cp" && e.n === to);
    if (start < 0) throw new Error(`Task ${taskId} has no checkpoint ${to}.`);
    const firstCp = entries.find((e): e is Checkpoint => e.t === "cp");
    const at = to === 0 ? undefined : (entries[start] as Checkpoint);
    const after = entries.slice(start);
    const byPath = new Map<string, { first: Content; last: Content }>();
    for (const e of after) {
      if (e.t !== "w") continue;
      const seen = byPath.get(e.path);
      if (seen) seen.last = e.after;
      else byPath.set(e.path, { first: e.before, last: e.after });
    }
    const files: FileRestore[] = [];
    for (const [path, { first, last }] of byPath) {
      const now = backend.currentText
        ? await backend.currentText(path)
        : { error: "this workspace cannot be restored" };
      const current = "error" in now ? null : now.text;
      if (isNotKept(first)) {
        files.push({
          path,
          action: "write",
          target: null,
          current,
          notKept: `its earlier content (${sizeText(first.notKept)}) was over the size kept by checkpoints (${sizeText(this.maxBlobBytes)})`,
        });
        continue;
      }
      const target = first === null ? null : (await this.blobs.get(first)).toString("utf8");
      if ("error" in now) {
        files.push({ path, action: target === null ? "delete" : "write", target, current, conflict: now.error });
        continue;
      }
      if (current === target) continue; // already as it was
      const expected = isNotKept(last)
        ? undefined
        : last === null
          ? null
          : (await this.blobs.get(last)).toString("utf8");
      const conflict =
        expected === undefined
          ? "what Fathom wrote was too large to keep, so a later change cannot be ruled out"
          : current !== expected
            ? current === null
              ? "deleted after Fathom's last change"
              : "changed after Fathom's last change"
            : undefined;
      files.push({
        path,
        action: target === null ? "delete" : "write",
        target,
        current,
        ...(conflict ? { conflict } : {}),
      });
    }
    const commands = after.flatMap((e) => (e.t === "cmd" ? [e.command] : []));
    return {
      taskId,
      to,
      files,
      commands,
      conversationLength: at?.conversationLength ?? firstCp?.conversationLength ?? 0,
    };
  }

  /**
   * Carries out a plan: files without a conflict are put back (only if they still hold what the
   * plan read), conflicts are left unless listed in `overwrite`. Each write is atomic.
   */
  async restore(
    plan: RestorePlan,
    backend: BackendProtocol,
    o: { overwrite?: ReadonlySet<string> } = {},
  ): Promise<RestoreResult> {
    const result: RestoreResult = { restored: [], conflicts: [], failed: [], commands: plan.commands };
    for (const f of plan.files) {
      if (f.notKept) {
        result.failed.push({ path: f.path, reason: f.notKept });
        continue;
      }
      if (f.conflict && !o.overwrite?.has(f.path)) {
        result.conflicts.push({ path: f.path, reason: f.conflict });
        continue;
      }
      const w =
        f.target === null
          ? f.current === null
            ? { path: f.path }
            : backend.deleteFile
              ? await backend.deleteFile(f.path, f.current)
              : { error: "this workspace cannot delete files" }
          : await backend.commitChange(f.path, f.current, f.target);
      if (w.error !== undefined) {
        result.failed.push({ path: f.path, reason: w.error });
        continue;
      }
      await this.recordWrite(plan.taskId, f.path, await this.keep(f.current), await this.keep(f.target), "restore");
      result.restored.push(f.path);
    }
    return result;
  }

  /** Tasks with checkpoints, newest first. */
  async tasks(): Promise<{ taskId: string; checkpoints: number; files: number; updatedAt: number }[]> {
    const dir = nodePath.join(this.options.dir, "journals");
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    const out = [];
    for (const name of names) {
      if (!name.endsWith(".jsonl")) continue;
      const taskId = name.slice(0, -".jsonl".length);
      const entries = await readJournal(nodePath.join(dir, name));
      const st = await fsp.stat(nodePath.join(dir, name)).catch(() => null);
      out.push({
        taskId,
        checkpoints: entries.filter((e) => e.t === "cp").length,
        files: new Set(entries.flatMap((e) => (e.t === "w" ? [e.path] : []))).size,
        updatedAt: st?.mtimeMs ?? 0,
      });
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Forgets a task's checkpoints and frees the blobs no other task uses. */
  async deleteTask(taskId: string): Promise<void> {
    await fsp.rm(this.journalOf(taskId), { force: true });
    this.lastN.delete(taskId);
    await this.collectGarbage();
  }

  /** Bytes used: blobs and journals. */
  async usage(): Promise<number> {
    let bytes = 0;
    for (const size of (await this.blobs.list()).values()) bytes += size;
    for (const t of await this.tasks())
      bytes += (await fsp.stat(this.journalOf(t.taskId)).catch(() => ({ size: 0 }))).size;
    return bytes;
  }

  /** Over the cap, deletes the oldest tasks' checkpoints (never `keepTask`'s) until under it. */
  async prune(keepTask?: string): Promise<string[]> {
    const removed: string[] = [];
    let used = await this.usage();
    const oldestFirst = (await this.tasks()).reverse().filter((t) => t.taskId !== keepTask);
    for (const task of oldestFirst) {
      if (used <= this.maxStorageBytes) break;
      await this.deleteTask(task.taskId);
      removed.push(task.taskId);
      used = await this.usage();
    }
    return removed;
  }

  private async collectGarbage(): Promise<void> {
    const keep = new Set<string>(this.inFlight.keys());
    for (const t of await this.tasks()) {
      for (const e of await readJournal(this.journalOf(t.taskId))) {
        const named = e.t === "w" ? [e.before, e.after] : e.t === "rv" ? [e.base, e.agent] : [];
        for (const c of named) if (typeof c === "string") keep.add(c);
      }
    }
    await this.blobs.removeAllBut(keep);
  }
}

/** "12 KB", "3.4 MB". */
export function sizeText(bytes: number): string {
  return bytes < 1048576 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;
}

export function isNotKept(c: Content): c is { notKept: number } {
  return typeof c === "object" && c !== null;
}
