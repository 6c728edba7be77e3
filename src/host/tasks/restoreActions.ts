import type { BackendProtocol, Checkpoint, CheckpointStore, RestorePlan, RunState } from "../../core";
import type { ChatState, RestorePreview, TranscriptItem } from "../../protocol";
import type { Logger } from "../log";

/** What the Restore actions need of the chat session. */
export interface RestoreSession {
  readonly state: ChatState;
  readonly isRunning: boolean;
  /** Settles when the run under way (if any) is over. */
  runEnds(): Promise<void>;
  runState(): RunState | null;
  rawIdOf(itemId: string): string;
  /** Replaces the transcript and the conversation the model continues from, and saves. */
  setConversation(items: TranscriptItem[], runState: RunState | null): void;
  setPreview(preview: RestorePreview | null): void;
  notice(level: "info" | "warning" | "error", text: string): void;
  fillComposer(text: string): void;
}

export interface RestoreEnv {
  store: CheckpointStore;
  /** The backend restores write through (the same rules and editors as the agent's writes). */
  backend(): BackendProtocol;
  /** Opens a diff: the file as it is now (null: absent) beside what the restore makes it (null: deleted). */
  compare(path: string, now: string | null, restored: string | null): Promise<void>;
  log: Logger;
}

/** How long Restore waits for a task that has answered and is only finishing (the editor's check of its last writes). */
export const FINISHING_WAIT_MS = 5_000;

const short = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};
const list = (paths: readonly string[]) =>
  paths.length > 4 ? `${paths.slice(0, 4).join(", ")} and ${paths.length - 4} more` : paths.join(", ");

/**
 * "Restore" on a message or an applied edit, and "Edit and resend": finds the checkpoint,
 * shows what would change, and takes back files, conversation or both. Only files Fathom
 * changed are touched; one changed since is a conflict, left as it is unless the person ticks it.
 */
export class RestoreActions {
  private shown: { itemId: string; plan: RestorePlan } | undefined;

  constructor(
    private readonly env: RestoreEnv,
    private readonly session: RestoreSession,
  ) {}

  private async checkpointOf(itemId: string): Promise<{ checkpoint: Checkpoint; index: number } | string> {
    const taskId = this.session.state.taskId;
    if (!taskId) return "There is no task to restore.";
    const top = itemId.split("/")[0];
    const index = this.session.state.items.findIndex((i) => i.id === itemId || i.id === top);
    const item = this.session.state.items[index];
    if (!item) return "That message is no longer in the conversation.";
    const checkpoints = await this.env.store.checkpoints(taskId);
    // A subagent's card is "<task call>/<its call>"; its write names its own call.
    const raw = this.session.rawIdOf(itemId).split("/").pop();
    const checkpoint =
      item.kind === "user"
        ? checkpoints.findLast((c) => c.kind === "message" && c.meta?.itemId === itemId)
        : checkpoints.findLast((c) => c.kind === "write" && (c.meta?.callId ?? c.meta?.toolCallId) === raw);
    if (checkpoint) return { checkpoint, index };
    return checkpoints.length === 0
      ? "This task's checkpoints are gone: deleted to stay under fathom.checkpoints.maxStorageMb (the oldest tasks' go first), or the task predates checkpoints. Its files cannot be restored; the conversation is as it is."
      : "Fathom has no checkpoint for this point of the task (it was made before Fathom kept checkpoints, or nothing was written there).";
  }

  private async busy(): Promise<boolean> {
    if (!this.session.isRunning) return false;
    // The answer is on screen but the run is finishing: a click right after it waits, not refuses.
    const last = this.session.state.items.at(-1);
    if (last?.kind === "assistant" && !last.streaming) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const ended = await Promise.race([
        this.session.runEnds().then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), FINISHING_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (ended && !this.session.isRunning) return false;
    }
    this.session.notice("info", "The task is running. Cancel it (or wait for it to finish) before restoring.");
    return true;
  }

  async preview(itemId: string): Promise<void> {
    if (await this.busy()) return;
    const found = await this.checkpointOf(itemId);
    if (typeof found === "string") return this.session.notice("warning", found);
    const { checkpoint, index } = found;
    const plan = await this.env.store.plan(this.session.state.taskId!, checkpoint.n, this.env.backend());
    this.shown = { itemId, plan };
    this.session.setPreview({
      itemId,
      label:
        checkpoint.kind === "message"
          ? `before your message “${short(checkpoint.label)}”`
          : `before Fathom ${checkpoint.label.replace(/^(\w)/, (c) => c.toLowerCase())}`,
      files: plan.files.map((f) => ({
        path: f.path,
        action: f.action === "delete" ? "delete" : f.current === null ? "recreate" : "write",
        ...(f.conflict ? { conflict: f.conflict } : {}),
        ...(f.notKept ? { notKept: f.notKept } : {}),
      })),
      commands: plan.commands,
      laterItems: this.session.state.items.length - index,
      storageBytes: await this.env.store.usage(),
      storageLimitBytes: this.env.store.maxStorageBytes,
    });
  }

  close(): void {
    this.shown = undefined;
    this.session.setPreview(null);
  }

  /** The diff of one file in the panel: as it is now, beside what the restore makes it. */
  async compare(path: string): Promise<void> {
    const file = this.shown?.plan.files.find((f) => f.path === path);
    if (file) await this.env.compare(path, file.current, file.target);
  }

  async restore(itemId: string, what: "files" | "conversation" | "both", overwrite: readonly string[]): Promise<void> {
    if (await this.busy()) return;
    const found = await this.checkpointOf(itemId);
    if (typeof found === "string") return this.session.notice("warning", found);
    const { checkpoint, index } = found;
    // Planned again: the files may have changed since the preview. Only conflicts the person saw may be overwritten.
    const plan = await this.env.store.plan(this.session.state.taskId!, checkpoint.n, this.env.backend());
    const seen = new Set(
      this.shown?.itemId === itemId ? this.shown.plan.files.filter((f) => f.conflict).map((f) => f.path) : [],
    );
    this.close();
    const said: string[] = [];
    const where =
      checkpoint.kind === "message"
        ? `before your message “${short(checkpoint.label)}”`
        : `before Fathom ${checkpoint.label.replace(/^(\w)/, (c) => c.toLowerCase())}`;
    if (what !== "conversation") {
      const result = await this.env.store.restore(plan, this.env.backend(), {
        overwrite: new Set(overwrite.filter((p) => seen.has(p))),
      });
      const deleted = result.restored.filter((p) => plan.files.find((f) => f.path === p)?.target === null);
      const putBack = result.restored.filter((p) => !deleted.includes(p));
      said.push(
        result.restored.length
          ? `Files restored to ${where}:${putBack.length ? ` put back ${list(putBack)}` : ""}${putBack.length && deleted.length ? ";" : ""}${deleted.length ? ` deleted ${list(deleted)} (Fathom created ${deleted.length > 1 ? "them" : "it"})` : ""}.`
          : `No file needed restoring to ${where}.`,
      );
      if (result.conflicts.length)
        said.push(
          `Left as they are (changed after Fathom's last change): ${list(result.conflicts.map((c) => c.path))}.`,
        );
      if (result.failed.length)
        said.push(`Not restored: ${result.failed.map((f) => `${f.path} (${f.reason})`).join("; ")}.`);
      if (result.commands.length)
        said.push(
          `Not restored: what ${result.commands.length > 1 ? `${result.commands.length} commands` : "a command"} changed (${list(result.commands)}).`,
        );
      this.env.log.info(
        `restore ${checkpoint.n}: ${result.restored.length} restored, ${result.conflicts.length} conflicts, ${result.failed.length} failed`,
      );
    }
    if (what !== "files") {
      this.truncate(index, plan.conversationLength);
      said.push(`The conversation is back to ${where}.`);
    }
    if (what === "conversation") {
      const changed = plan.files.filter((f) => !f.notKept);
      if (changed.length)
        said.push(
          `Files not restored (you chose the conversation only): ${list(changed.map((f) => f.path))} keep${changed.length > 1 ? "" : "s"} Fathom's changes.`,
        );
    }
    const leftSomething = said.some(
      (s) => s.startsWith("Left as") || (s.startsWith("Not restored: ") && !s.startsWith("Not restored: what")),
    );
    this.session.notice(leftSomething ? "warning" : "info", said.join(" "));
  }

  /** Edit and resend: the conversation goes back to before the message, whose text returns to the message box. */
  async editMessage(itemId: string): Promise<void> {
    if (await this.busy()) return;
    const item = this.session.state.items.find((i) => i.id === itemId);
    if (item?.kind !== "user") return;
    const found = await this.checkpointOf(itemId);
    if (typeof found === "string") return this.session.notice("warning", found);
    this.truncate(found.index, found.checkpoint.conversationLength);
    this.session.fillComposer(item.text);
  }

  private truncate(index: number, conversationLength: number): void {
    const runState = this.session.runState();
    const items = this.session.state.items.slice(0, index);
    this.session.setConversation(
      items,
      runState ? { ...runState, messages: runState.messages.slice(0, conversationLength) } : null,
    );
  }
}
