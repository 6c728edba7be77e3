import * as path from "node:path";
import * as vscode from "vscode";
import { TaskWorktrees, type ApplyResult, type TaskWorktree, type WorktreeSupport } from "../../core";
import type { WorktreeView } from "../../protocol";
import type { Logger } from "../log";
import { CheckpointTexts } from "../review/checkpointTexts";

/**
 * The window's side of task worktrees: whether the workspace can have them (and why not), the
 * repository's list (what git records, so other windows' and the CLI's show too), and the review actions: a file's diff against the task's
 * base, Apply, Discard (asked first), Open in a new window.
 */
export class HostWorktrees implements vscode.Disposable {
  private readonly core: TaskWorktrees | undefined;
  private supportFound: Promise<WorktreeSupport> | undefined;
  private poll: ReturnType<typeof setInterval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly texts = new CheckpointTexts();
  private readonly changes = new vscode.EventEmitter<void>();
  /** The list changed (a worktree made, finished, applied or removed, here or elsewhere). */
  readonly onDidChange = this.changes.event;

  constructor(private readonly o: { root: string | undefined; log: Logger; worktreesDir?: string }) {
    this.core = o.root
      ? new TaskWorktrees({
          repoDir: o.root,
          surface: "vscode",
          ...(o.worktreesDir ? { worktreesDir: o.worktreesDir } : {}),
        })
      : undefined;
  }

  /** Whether a task here can have its own worktree; asked once per window (git does not change under it often). */
  support(): Promise<WorktreeSupport> {
    if (!this.core) return Promise.resolve({ ok: false, reason: "Open a folder to give tasks their own worktree." });
    this.supportFound ??= this.core.support().then((s) => {
      if (s.ok) this.watchAdmin();
      return s;
    });
    return this.supportFound;
  }

  /**
   * Another window or the CLI makes, finishes and removes worktrees too: git's records are
   * read every few seconds (a few small files) and a change is announced.
   */
  private watchAdmin(): void {
    let last = "";
    this.poll = setInterval(() => {
      void this.list().then((list) => {
        const now = JSON.stringify(list.map((w) => [w.taskId, w.state, w.exists]));
        if (last && now !== last) this.changes.fire();
        last = now;
      });
    }, 3000);
  }

  changedSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changes.fire(), 250);
  }

  async list(): Promise<TaskWorktree[]> {
    if (!this.core || !(await this.support()).ok) return [];
    return this.core
      .list()
      .catch((e: unknown) => (this.o.log.warn(`Worktrees: could not list them: ${String(e)}`), []));
  }

  async get(taskId: string): Promise<TaskWorktree | undefined> {
    return (await this.list()).find((w) => w.taskId === taskId);
  }

  /** What the view shows: each worktree with the files it changed (not counted while it runs). */
  async views(inHistory: (taskId: string) => boolean): Promise<WorktreeView[]> {
    const list = await this.list();
    return Promise.all(
      list.map(async (w) => ({
        taskId: w.taskId,
        title: w.title,
        branch: w.branch,
        path: w.path,
        state: w.state,
        files: w.exists && w.state !== "running" ? await this.core!.changes(w.taskId).catch(() => null) : null,
        exists: w.exists,
        inHistory: inHistory(w.taskId),
      })),
    );
  }

  async create(taskId: string, title: string): Promise<TaskWorktree> {
    const made = await this.core!.create(taskId, title);
    this.o.log.info(`Worktree for task ${taskId}: ${made.path} on ${made.branch}`);
    this.changedSoon();
    return made;
  }

  async setStatus(taskId: string, status: "running" | "done" | "failed" | "cancelled"): Promise<void> {
    await this.core
      ?.setStatus(taskId, status)
      .catch((e: unknown) => this.o.log.warn(`Worktree of ${taskId}: ${String(e)}`));
    this.changedSoon();
  }

  async apply(taskId: string): Promise<ApplyResult> {
    const result = await this.core!.apply(taskId).catch((e: unknown): ApplyResult => ({
      ok: false,
      conflicts: [],
      message: `Not applied: ${(e as Error).message}`,
    }));
    this.o.log.info(`Worktree of ${taskId}: ${result.message}`);
    this.changedSoon();
    return result;
  }

  /** Asks first; true when it was discarded. */
  async discard(taskId: string): Promise<boolean> {
    const w = await this.get(taskId);
    if (!w) return false;
    const answer = await vscode.window.showWarningMessage(
      `Discard the worktree of “${w.title}”?`,
      {
        modal: true,
        detail: `Its folder ${w.path} and its branch ${w.branch} are deleted, with any change not applied. Your working tree is not touched.`,
      },
      "Discard",
    );
    if (answer !== "Discard") return false;
    try {
      await this.core!.discard(taskId);
      this.o.log.info(`Worktree of ${taskId} discarded (${w.path}, ${w.branch})`);
      return true;
    } catch (e) {
      void vscode.window.showErrorMessage(`Fathom: ${(e as Error).message}`);
      return false;
    } finally {
      this.changedSoon();
    }
  }

  async open(taskId: string): Promise<void> {
    const w = await this.get(taskId);
    if (!w?.exists)
      return void vscode.window.showWarningMessage("Fathom: that worktree's folder is gone. Discard it to clean up.");
    await vscode.commands.executeCommand("vscode.openFolder", vscode.Uri.file(w.path), { forceNewWindow: true });
  }

  /** A changed file: the task's base beside the worktree's file. */
  async diff(taskId: string, file: string): Promise<void> {
    const w = await this.get(taskId);
    if (!w?.exists || !this.core) return;
    const base = await this.core.baseText(taskId, file);
    const target = path.join(w.path, ...file.split("/"));
    if (path.relative(w.path, target).startsWith("..")) return;
    const left = this.texts.put(
      `/${file}`,
      base ?? "",
      base === null ? "absent at the task's start" : "at the task's start",
    );
    const exists = await vscode.workspace.fs.stat(vscode.Uri.file(target)).then(
      () => true,
      () => false,
    );
    const right = exists ? vscode.Uri.file(target) : this.texts.put(`/${file}`, "", "deleted by the task");
    await vscode.commands.executeCommand(
      "vscode.diff",
      left,
      right,
      `${path.posix.basename(file)} (start ↔ ${w.branch})`,
      { preview: true, preserveFocus: true },
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearInterval(this.poll);
    this.changes.dispose();
  }
}
