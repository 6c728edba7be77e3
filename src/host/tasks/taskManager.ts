import type { ApplyResult, Attachment, InlineEditRequest, WorktreeSupport, ReviewTarget } from "../../core";
import {
  noRemoteBranches,
  type ChatState,
  type OpenTaskView,
  type ParallelView,
  type RemoteBranchesView,
  type WorktreeView,
} from "../../protocol";
import type { Logger } from "../log";
import type { ChatSession } from "./chatSession";

/** What the manager needs of the window's task worktrees (`HostWorktrees` in VS Code). */
export interface WorktreeActions {
  support(): Promise<WorktreeSupport>;
  views(inHistory: (taskId: string) => boolean): Promise<WorktreeView[]>;
  onDidChange(listener: () => void): { dispose(): void };
  apply(taskId: string): Promise<ApplyResult>;
  /** Asks the person first; true when discarded. */
  discard(taskId: string): Promise<boolean>;
  open(taskId: string): Promise<void>;
  diff(taskId: string, path: string): Promise<void>;
}

export interface TaskManagerOptions {
  /** The window's first session (it reopens the task left open). */
  first: ChatSession;
  /** A session for another task (starts empty). */
  create(): ChatSession;
  /** Puts a session in the chat view. */
  show(session: ChatSession): void;
  /**
   * Watches a session for approvals and endings the person cannot see (the attention notifier).
   * `label` names the task when several are open ("" otherwise).
   */
  watch?(session: ChatSession, o: { shown(): boolean; show(): void; label(): string }): () => void;
  worktrees?: WorktreeActions;
  /** The remotes' `fathom/*` branches (`HostRemoteBranches`): listed beside the worktrees. */
  remote?: {
    readonly current: RemoteBranchesView;
    onDidChange(listener: () => void): { dispose(): void };
    probe(): void;
  };
  worktreeByDefault(): boolean;
  maxParallel(): number;
  /** A task left the window (its terminal executor can go). */
  released?(taskId: string): void;
  /** Says something the person must see now (a refused Apply). */
  tell?(level: "info" | "warning", text: string): void;
  log: Logger;
}

interface Entry {
  key: string;
  session: ChatSession;
  stop: (() => void)[];
}

const BUSY: readonly ChatState["status"][] = ["running", "awaiting_approval"];
/** Open tasks listed at most (running ones are never taken out). */
const MAX_LISTED = 8;

/**
 * The window's tasks at once. Each task is its own `ChatSession` (transcript, todos,
 * approvals, terminal); one is shown in the chat view, the others run on. A new task starts
 * beside a running one; a finished task stays listed until the person closes it (it stays in
 * History), or, past a few, the oldest go. The view's task list and the repository's worktrees are sent to
 * every session as `parallel`, so whichever is shown has them.
 */
export class TaskManager {
  private readonly entries: Entry[] = [];
  private shownKey = "";
  private counter = 0;
  private worktreeViews: WorktreeView[] = [];
  private mode: ParallelView["worktreeMode"] = { available: false, byDefault: false };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly stopWorktrees: { dispose(): void } | undefined;
  private readonly stopRemote: { dispose(): void } | undefined;
  private disposed = false;

  constructor(private readonly o: TaskManagerOptions) {
    this.add(o.first);
    this.shownKey = this.entries[0]!.key;
    o.show(o.first);
    this.stopWorktrees = o.worktrees?.onDidChange(() => void this.refreshWorktrees());
    this.stopRemote = o.remote?.onDidChange(() => this.publish());
    void this.refreshWorktrees();
  }

  get shown(): ChatSession {
    return this.entry(this.shownKey)!.session;
  }

  get sessions(): ChatSession[] {
    return this.entries.map((e) => e.session);
  }

  /** A new task: beside the shown one when it runs (or waits for the person), in its place otherwise. */
  async newTask(): Promise<void> {
    const shown = this.shown;
    if (!shown.isRunning && !BUSY.includes(shown.state.status)) return shown.newTask();
    const empty = this.entries.find((e) => e.session.state.taskId === null && !e.session.isRunning);
    if (empty) return this.switchTo(empty.key);
    const session = this.add(this.o.create());
    await session.whenReady();
    this.switchTo(this.keyOf(session)!);
  }

  /**
   * Starts a task from outside the chat (a quick fix, an inline edit, a review): in a new task (beside a
   * running one, or in place of a finished one), or added to the shown task (queued while it
   * runs). The chat shows it. Returns the session it went to. An inline edit (`inlineEdit`) works on
   * the person's own file, never in a worktree.
   */
  async startTask(
    text: string,
    options: {
      attachments?: Attachment[];
      where: "new" | "current";
      inlineEdit?: InlineEditRequest;
      review?: ReviewTarget;
    },
  ): Promise<ChatSession> {
    if (options.where === "new" && this.shown.state.taskId !== null) await this.newTask();
    const session = this.shown;
    await session.send(text, undefined, {
      ...(options.attachments?.length ? { attachments: options.attachments } : {}),
      ...(options.inlineEdit ? { inlineEdit: options.inlineEdit } : {}),
      ...(options.review ? { review: options.review } : {}),
    });
    return session;
  }

  /** Opens a saved task: its session when it is open, else beside a running task, else in place. */
  async openTask(taskId: string): Promise<void> {
    const open = this.entries.find((e) => e.session.state.taskId === taskId);
    if (open) return this.switchTo(open.key);
    if (!this.shown.isRunning) return this.shown.openTask(taskId);
    const session = this.add(this.o.create());
    await session.whenReady();
    this.switchTo(this.keyOf(session)!);
    await session.openTask(taskId);
  }

  /** Shows another open task (the others run on). */
  switchTo(key: string): void {
    const target = this.entry(key);
    if (!target || key === this.shownKey) return;
    this.shownKey = key;
    this.o.show(target.session);
    this.prune();
    this.publish();
  }

  /** Takes a task that is not running out of the list (it stays in History). */
  async closeTask(key: string): Promise<void> {
    const entry = this.entry(key);
    if (!entry || entry.session.isRunning || BUSY.includes(entry.session.state.status)) return;
    if (this.entries.length === 1) return entry.session.newTask();
    if (key === this.shownKey) this.switchTo(this.entries.find((e) => e !== entry)!.key);
    this.remove(entry);
    this.publish();
  }

  /** At most a few finished tasks stay listed: the oldest not shown go first. */
  private prune(): void {
    const idle = this.entries.filter(
      (e) => e.key !== this.shownKey && !e.session.isRunning && !BUSY.includes(e.session.state.status),
    );
    for (const entry of idle.slice(0, Math.max(0, this.entries.length - MAX_LISTED))) this.remove(entry);
  }

  async worktreeAction(
    taskId: string,
    action: "diff" | "apply" | "discard" | "open" | "openTask",
    path?: string,
  ): Promise<void> {
    const wt = this.o.worktrees;
    if (!wt) return;
    const session = this.entries.find((e) => e.session.state.taskId === taskId)?.session;
    switch (action) {
      case "diff":
        if (path) await wt.diff(taskId, path);
        return;
      case "open":
        return wt.open(taskId);
      case "openTask":
        return this.openTask(taskId);
      case "apply": {
        const result = await wt.apply(taskId);
        const where = session ?? this.shown;
        where.notice(result.ok ? "info" : "warning", result.message);
        if (!result.ok) this.o.tell?.("warning", result.message);
        return this.refreshWorktrees();
      }
      case "discard":
        if (session?.isRunning)
          return this.o.tell?.("warning", "The task is running. Cancel it before discarding its worktree.");
        if (await wt.discard(taskId)) session?.notice("info", "Its worktree and branch were discarded.");
        return this.refreshWorktrees();
    }
  }

  /** The task is open in a session other than the shown one. */
  openElsewhere(taskId: string): boolean {
    return this.entries.some((e) => e.key !== this.shownKey && e.session.state.taskId === taskId);
  }

  forEach(action: (session: ChatSession) => unknown): void {
    for (const e of this.entries) action(e.session);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.stopWorktrees?.dispose();
    this.stopRemote?.dispose();
    for (const e of this.entries.splice(0)) {
      for (const stop of e.stop) stop();
      e.session.dispose();
    }
  }

  private add(session: ChatSession): ChatSession {
    const entry: Entry = { key: `k${++this.counter}`, session, stop: [] };
    entry.stop.push(
      session.onMessage((m) => {
        if (m.type === "status" || m.type === "state")
          this.changed(
            m.type === "status" && (m.status === "completed" || m.status === "failed" || m.status === "cancelled"),
          );
      }),
    );
    if (this.o.watch)
      entry.stop.push(
        this.o.watch(session, {
          shown: () => this.shownKey === entry.key,
          show: () => this.switchTo(entry.key),
          label: () => (this.entries.length > 1 ? session.state.title || "new task" : ""),
        }),
      );
    this.entries.push(entry);
    this.publish();
    return session;
  }

  private remove(entry: Entry): void {
    this.entries.splice(this.entries.indexOf(entry), 1);
    for (const stop of entry.stop) stop();
    const taskId = entry.session.state.taskId;
    entry.session.dispose();
    if (taskId) this.o.released?.(taskId);
  }

  private entry(key: string): Entry | undefined {
    return this.entries.find((e) => e.key === key);
  }

  private keyOf(session: ChatSession): string | undefined {
    return this.entries.find((e) => e.session === session)?.key;
  }

  /** A task's status changed: the list follows at once, the worktrees (git) a moment later. */
  private changed(ended: boolean): void {
    this.publish();
    if (ended) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.refreshWorktrees(), 300);
    }
  }

  private refreshes = 0;

  private async refreshWorktrees(): Promise<void> {
    const wt = this.o.worktrees;
    if (!wt || this.disposed) return;
    // Refreshes overlap (git is slow on a large repository): only the latest one's list counts.
    const generation = ++this.refreshes;
    const support = await wt.support();
    const history = new Set(this.shown.state.history.map((t) => t.id));
    const views = support.ok ? await wt.views((id) => history.has(id)) : [];
    if (generation !== this.refreshes) return;
    this.mode = support.ok
      ? { available: true, byDefault: this.o.worktreeByDefault() }
      : { available: false, reason: support.reason, byDefault: false };
    if (support.ok) this.o.remote?.probe();
    this.worktreeViews = views;
    this.publish();
  }

  private publish(): void {
    if (this.disposed) return;
    const branches = new Map(this.worktreeViews.map((w) => [w.taskId, w.branch]));
    const tasks: OpenTaskView[] = this.entries.map((e) => {
      const state = e.session.state;
      const branch = state.taskId ? branches.get(state.taskId) : undefined;
      return {
        key: e.key,
        taskId: state.taskId,
        title: state.title || "New task",
        status: state.status,
        needsYou: state.status === "awaiting_approval",
        shown: e.key === this.shownKey,
        ...(branch ? { branch } : {}),
      };
    });
    const parallel: ParallelView = {
      tasks,
      worktrees: this.worktreeViews,
      worktreeMode: { ...this.mode, byDefault: this.mode.available && this.o.worktreeByDefault() },
      maxParallel: this.o.maxParallel(),
      remote: this.o.remote?.current ?? noRemoteBranches(),
    };
    for (const e of this.entries) e.session.setParallel(parallel);
  }
}
