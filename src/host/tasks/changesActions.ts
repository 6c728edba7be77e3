import {
  TaskChanges,
  undoneNote,
  type BackendProtocol,
  type CheckpointStore,
  type FileChanges,
  type ChangesOutcome,
  type ChangeSelection,
} from "../../core";
import type { ChangesView, ChatState, HostToWebviewChat } from "../../protocol";
import type { Logger } from "../log";

/** What the Changes list needs of the window. */
export interface ChangesEnv {
  store: CheckpointStore;
  /** The backend Undo writes through (the same rules and editors as the agent's writes). */
  backend(): BackendProtocol;
  /** Opens the diff editor: the file at the task's start (or as last kept) beside the file now. */
  compare(path: string, base: string, created: boolean): Promise<void>;
  log: Logger;
}

/** What it needs of the chat session. */
export interface ChangesSession {
  readonly state: ChatState;
  setChanges(changes: ChangesView | null): void;
  /** The core's call id of a transcript item. */
  rawIdOf(itemId: string): string;
  /** The task works in its own worktree (the workspace's editors show other files). */
  inWorktree(): boolean;
  notice(level: "info" | "warning", text: string): void;
  /** A note the model gets before its next request (what the person undid). */
  tellModel(note: string): void;
}

/** A hunk as a CodeLens shows it: where it is in the file now (0-based lines). */
export interface HunkLens {
  id: string;
  line: number;
  lines: number;
}

const REFRESH_DELAY_MS = 150;
const list = (paths: readonly string[]) =>
  paths.length > 4 ? `${paths.slice(0, 4).join(", ")} and ${paths.length - 4} more` : paths.join(", ");

/**
 * The Changes list of a task ("review after"): its changes since its start that the person has
 * not reviewed, per file, with Keep and Undo for a hunk, a file or all. Refreshed after the
 * task's writes and whenever the task is shown again (a reload brings the list back from the
 * checkpoint journal).
 */
export class ChangesActions {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private files: FileChanges[] = [];
  /** Approved edits already marked reviewed (an item is updated more than once). */
  private readonly accepted = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** One review action at a time: two clicks never write from the same reading of a file. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly env: ChangesEnv,
    private readonly session: ChangesSession,
  ) {}

  private changes(): TaskChanges | undefined {
    const taskId = this.session.state.taskId;
    return taskId ? new TaskChanges(this.env.store, taskId, this.env.backend()) : undefined;
  }

  /**
   * Follows the chat: a task shown or ended, or an edit written, reads the list again; an edit
   * the person approved on its card counts as reviewed (the list is for what nobody looked at).
   */
  follow(message: HostToWebviewChat): void {
    if (message.type === "itemUpdated" && message.item.kind === "tool" && message.item.proposal) {
      const { outcome } = message.item.proposal;
      // Once written (the tool is done): its write is then in the journal.
      if (message.item.status === "done" && (outcome === "approved" || outcome === "approved_with_changes")) {
        const callId = this.session.rawIdOf(message.item.id).split("/").pop()!;
        if (!this.accepted.has(callId)) {
          this.accepted.add(callId);
          void this.serial(async () => this.changes()?.accept(callId));
        }
      }
      this.refreshSoon();
    } else if (message.type === "state" || message.type === "status") this.refreshSoon();
  }

  /** Reads the list again soon (several writes in a row read it once). */
  refreshSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }

  refresh(): Promise<void> {
    clearTimeout(this.timer);
    return this.serial(async () => {
      const changes = this.changes();
      this.files = changes ? await changes.list() : [];
      const view: ChangesView | null =
        this.files.length === 0
          ? null
          : {
              files: this.files.map((f) => ({
                path: f.path,
                created: f.created,
                added: f.added,
                removed: f.removed,
                hunks: f.hunks.length,
                conflicts: [...new Set(f.hunks.flatMap((h) => ("conflict" in h.place ? [h.place.conflict] : [])))],
                ...(f.problem ? { problem: f.problem } : {}),
              })),
            };
      // Said only when it changed: every write and status reads the list again.
      if (JSON.stringify(view) !== JSON.stringify(this.session.state.changes)) this.session.setChanges(view);
      for (const listener of this.listeners) listener();
    });
  }

  /** The list changed (the editor's CodeLenses follow it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The hunks of a file as last read that can be undone, where they are in the file now (a conflict is in the list). */
  lensesOf(path: string): HunkLens[] {
    if (this.session.inWorktree()) return [];
    const file = this.files.find((f) => f.path === path);
    return (file?.hunks ?? []).flatMap((h) =>
      "nowStart" in h.place ? [{ id: h.id, line: h.place.nowStart, lines: h.place.nowCount }] : [],
    );
  }

  async open(path: string): Promise<void> {
    const file = this.files.find((f) => f.path === path) ?? (await this.changes()?.file(path));
    if (!file) return this.session.notice("info", `${path} has no changes left to review.`);
    await this.env.compare(path, file.base, file.created);
  }

  keep(target: ChangeSelection = {}): Promise<void> {
    return this.act("keep", target);
  }

  undo(target: ChangeSelection = {}): Promise<void> {
    return this.act("undo", target);
  }

  private async act(action: "keep" | "undo", target: ChangeSelection): Promise<void> {
    await this.serial(async () => {
      const changes = this.changes();
      if (!changes) return;
      const outcome = action === "keep" ? await changes.keep(target) : await changes.undo(target);
      this.env.log.info(
        `changes ${action}: ${outcome.done.length} files, ${outcome.conflicts.length} conflicts, ${outcome.failed.length} failed`,
      );
      if (action === "undo" && outcome.done.length > 0) this.session.tellModel(undoneNote(outcome.done));
      this.say(action, outcome);
    });
    await this.refresh();
  }

  private say(action: "keep" | "undo", outcome: ChangesOutcome): void {
    const said: string[] = [];
    if (action === "undo" && outcome.done.length > 0)
      said.push(
        `Undone: ${list(outcome.done.map((d) => (d.hunks.length < d.of ? `${d.path} (${d.hunks.length} of ${d.of} changes)` : d.path)))}. Fathom will be told at its next turn.`,
      );
    if (outcome.conflicts.length > 0)
      said.push(`Left as they are: ${outcome.conflicts.map((c) => `${c.path} (${c.reason})`).join("; ")}.`);
    if (outcome.failed.length > 0)
      said.push(`Not undone: ${outcome.failed.map((f) => `${f.path} (${f.reason})`).join("; ")}.`);
    if (said.length > 0)
      this.session.notice(outcome.conflicts.length + outcome.failed.length > 0 ? "warning" : "info", said.join(" "));
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch((e: unknown) => this.env.log.warn(`Changes list: ${String(e)}`));
    return run;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.listeners.clear();
  }
}
