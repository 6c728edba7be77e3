import * as vscode from "vscode";
import { openToolItems, type ChatState, type HostToWebviewChat, type ToolItem } from "../protocol";

/** What the notifier needs of the chat view. */
export interface AttentionView {
  /** The chat view is on screen. */
  readonly visible: boolean;
  setBadge(badge: vscode.ViewBadge | undefined): void;
  readonly onDidChangeVisibility: vscode.Event<void>;
}

/** What it needs of the session. */
export interface AttentionSession {
  readonly state: ChatState;
  onMessage(listener: (message: HostToWebviewChat) => void): () => void;
  approve(itemId: string): void;
  openDiff(itemId: string): void;
}

export interface AttentionOptions {
  view: AttentionView;
  /** `fathom.notifications.*` (user settings). */
  settings(): { approvals: boolean; taskEnd: boolean };
  /** The window has focus. */
  focused(): boolean;
  /** Shows the chat view. */
  showChat(): Thenable<unknown>;
  notify?(message: string, ...actions: string[]): Thenable<string | undefined>;
}

const ENDED: readonly ChatState["status"][] = ["completed", "failed"];

/**
 * Tells the person when Fathom needs them and they cannot see it: a badge on the chat view and
 * a notification (Approve / Show) while an approval waits with the view hidden or the window in
 * the background; a badge and a notification (Show) when a task ends then. The badge goes once
 * the view is seen and nothing waits. Notifications can be turned off in the user settings.
 */
export class AttentionNotifier implements vscode.Disposable {
  private readonly watched = new Map<AttentionSession, Watched>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly o: AttentionOptions) {
    this.disposables.push(
      o.view.onDidChangeVisibility(() => this.update()),
      vscode.window.onDidChangeWindowState(() => this.update()),
    );
  }

  /** Watches one session only (the window's single task). */
  attach(session: AttentionSession): void {
    for (const watched of [...this.watched.keys()]) this.unwatch(watched);
    this.watch(session, { shown: () => true, show: () => undefined });
  }

  /**
   * Watches one of the window's tasks. `shown`: it is the task the chat shows (another one's
   * approvals are announced even while the view is on screen); `show` brings it into the view.
   */
  watch(session: AttentionSession, o: { shown(): boolean; show(): void; label?: () => string }): () => void {
    const watched: Watched = {
      status: session.state.status,
      announced: new Set(),
      ended: undefined,
      unsubscribe: () => undefined,
      ...o,
    };
    watched.unsubscribe = session.onMessage((message) => {
      if (
        message.type === "status" ||
        message.type === "state" ||
        message.type === "itemUpdated" ||
        message.type === "itemAppended"
      )
        this.onChange(session, watched);
      else if (message.type === "changes") this.update();
    });
    this.watched.set(session, watched);
    this.update();
    return () => this.unwatch(session);
  }

  private unwatch(session: AttentionSession): void {
    this.watched.get(session)?.unsubscribe();
    this.watched.delete(session);
    this.update();
  }

  private unseen(watched?: Watched): boolean {
    return !this.o.view.visible || !this.o.focused() || (watched !== undefined && !watched.shown());
  }

  private onChange(session: AttentionSession, watched: Watched): void {
    const state = session.state;
    const previous = watched.status;
    // Streaming and running tools change items often; only approvals and a status change matter.
    if (state.status === previous && state.status !== "awaiting_approval") return;
    watched.status = state.status;
    const waiting = waitingItems(state);
    if (this.unseen(watched)) {
      for (const item of waiting) {
        if (watched.announced.has(item.id)) continue;
        watched.announced.add(item.id);
        if (this.o.settings().approvals) void this.announceApproval(session, watched, item);
      }
      if (
        previous !== state.status &&
        ENDED.includes(state.status) &&
        (previous === "running" || previous === "awaiting_approval")
      ) {
        watched.ended = state.title || "the task";
        if (this.o.settings().taskEnd) void this.announceEnd(session, watched);
      }
    }
    this.update();
  }

  private notify(message: string, ...actions: string[]): Thenable<string | undefined> {
    return (this.o.notify ?? ((m: string, ...a: string[]) => vscode.window.showInformationMessage(m, ...a)))(
      message,
      ...actions,
    );
  }

  private async announceApproval(session: AttentionSession, watched: Watched, item: ToolItem): Promise<void> {
    if (item.question) return this.announceQuestion(session, watched, item);
    const what = item.proposal
      ? `change ${item.proposal.path}`
      : item.exec
        ? `run \`${oneLine(item.exec.command)}\``
        : item.title;
    const task = watched.label?.();
    const choice = await this.notify(
      `Fathom${task ? ` (${task})` : ""} is waiting for your approval to ${what}.`,
      "Approve",
      "Show",
    );
    // Decided meanwhile (in the chat or the diff): nothing to do.
    if (!this.watched.has(session) || !waitingItems(session.state).some((i) => i.id === item.id)) return;
    if (choice === "Approve") session.approve(item.id);
    else if (choice === "Show") {
      watched.show();
      await this.o.showChat();
      if (item.proposal) session.openDiff(item.id);
    }
  }

  /** A question is answered in the chat (its choices and field are there): Show brings it up. */
  private async announceQuestion(session: AttentionSession, watched: Watched, item: ToolItem): Promise<void> {
    const task = watched.label?.();
    const choice = await this.notify(`Fathom${task ? ` (${task})` : ""} asks: ${oneLine(item.question!.text)}`, "Show");
    if (choice !== "Show" || !this.watched.has(session) || !waitingItems(session.state).some((i) => i.id === item.id))
      return;
    watched.show();
    await this.o.showChat();
  }

  private async announceEnd(session: AttentionSession, watched: Watched): Promise<void> {
    const state = session.state;
    const title = state.title || "The task";
    const text =
      state.status === "completed"
        ? `Fathom finished: ${title}.`
        : `Fathom stopped: ${title}${state.banner?.message ? ` (${state.banner.message})` : ""}.`;
    if ((await this.notify(text, "Show")) === "Show") {
      watched.show();
      await this.o.showChat();
    }
  }

  /** The badge: approvals waiting, ended tasks not seen yet, or else files in Changes lists not reviewed. */
  private update(): void {
    let waiting = 0;
    let unreviewed = 0;
    const ended: string[] = [];
    for (const [session, watched] of this.watched) {
      if (!this.unseen(watched)) watched.ended = undefined;
      waiting += waitingItems(session.state).length;
      unreviewed += session.state.changes?.files.length ?? 0;
      if (watched.ended !== undefined) ended.push(watched.ended);
    }
    if (waiting > 0 && this.unseen()) {
      this.o.view.setBadge({
        value: waiting,
        tooltip:
          waiting === 1
            ? "Fathom is waiting for you (an approval or an answer)"
            : `Fathom is waiting for you (${waiting} approvals or answers)`,
      });
    } else if (ended.length > 0) {
      this.o.view.setBadge({ value: ended.length, tooltip: `Fathom's task ended: ${ended.join(", ")}` });
    } else if (unreviewed > 0) {
      this.o.view.setBadge({
        value: unreviewed,
        tooltip: `${unreviewed} file${unreviewed === 1 ? "" : "s"} changed by Fathom to review (Changes: Keep or Undo)`,
      });
    } else {
      this.o.view.setBadge(undefined);
    }
  }

  dispose(): void {
    for (const watched of this.watched.values()) watched.unsubscribe();
    this.watched.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

interface Watched {
  status: ChatState["status"];
  /** Approvals already announced (each once). */
  announced: Set<string>;
  ended: string | undefined;
  unsubscribe: () => void;
  shown(): boolean;
  show(): void;
  label?: () => string;
}

function waitingItems(state: ChatState): ToolItem[] {
  return openToolItems(state.items).filter((i) => i.status === "awaiting_approval");
}

function oneLine(text: string): string {
  const line = text.split("\n")[0]!;
  return line.length > 80 || text.includes("\n") ? `${line.slice(0, 80)}…` : line;
}
