import * as vscode from "vscode";
import type { ChatState, HostToWebviewChat, ToolItem } from "../protocol";
import { openToolItems } from "./session/chatState";

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
  private session: AttentionSession | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private status: ChatState["status"] | undefined;
  /** Approvals already announced (each once). */
  private readonly announced = new Set<string>();
  private ended: string | undefined;

  constructor(private readonly o: AttentionOptions) {
    this.disposables.push(
      o.view.onDidChangeVisibility(() => this.update()),
      vscode.window.onDidChangeWindowState(() => this.update()),
    );
  }

  attach(session: AttentionSession): void {
    this.unsubscribe?.();
    this.session = session;
    this.status = session.state.status;
    this.announced.clear();
    this.ended = undefined;
    this.unsubscribe = session.onMessage((message) => {
      if (message.type === "status" || message.type === "state" || message.type === "itemUpdated" || message.type === "itemAppended") this.onChange();
    });
    this.update();
  }

  private unseen(): boolean {
    return !this.o.view.visible || !this.o.focused();
  }

  private onChange(): void {
    const state = this.session?.state;
    if (!state) return;
    const previous = this.status;
    // Streaming and running tools change items often; only approvals and a status change matter.
    if (state.status === previous && state.status !== "awaiting_approval") return;
    this.status = state.status;
    const waiting = waitingItems(state);
    if (this.unseen()) {
      for (const item of waiting) {
        if (this.announced.has(item.id)) continue;
        this.announced.add(item.id);
        if (this.o.settings().approvals) void this.announceApproval(item);
      }
      if (previous !== state.status && ENDED.includes(state.status) && (previous === "running" || previous === "awaiting_approval")) {
        this.ended = state.title || "the task";
        if (this.o.settings().taskEnd) void this.announceEnd(state);
      }
    }
    this.update();
  }

  private async announceApproval(item: ToolItem): Promise<void> {
    const notify = this.o.notify ?? ((m: string, ...a: string[]) => vscode.window.showInformationMessage(m, ...a));
    const what = item.proposal ? `change ${item.proposal.path}` : item.exec ? `run \`${oneLine(item.exec.command)}\`` : item.title;
    const choice = await notify(`Fathom is waiting for your approval to ${what}.`, "Approve", "Show");
    // Decided meanwhile (in the chat or the diff): nothing to do.
    if (!this.session || !waitingItems(this.session.state).some((i) => i.id === item.id)) return;
    if (choice === "Approve") this.session.approve(item.id);
    else if (choice === "Show") {
      await this.o.showChat();
      if (item.proposal) this.session.openDiff(item.id);
    }
  }

  private async announceEnd(state: ChatState): Promise<void> {
    const notify = this.o.notify ?? ((m: string, ...a: string[]) => vscode.window.showInformationMessage(m, ...a));
    const title = state.title || "The task";
    const text = state.status === "completed" ? `Fathom finished: ${title}.` : `Fathom stopped: ${title}${state.banner?.message ? ` (${state.banner.message})` : ""}.`;
    if ((await notify(text, "Show")) === "Show") await this.o.showChat();
  }

  /** The badge: approvals waiting, or an ended task not seen yet. */
  private update(): void {
    const state = this.session?.state;
    const waiting = state ? waitingItems(state).length : 0;
    if (!this.unseen()) this.ended = undefined;
    if (waiting > 0 && this.unseen()) {
      this.o.view.setBadge({ value: waiting, tooltip: waiting === 1 ? "Fathom is waiting for your approval" : `Fathom is waiting for ${waiting} approvals` });
    } else if (this.ended !== undefined) {
      this.o.view.setBadge({ value: 1, tooltip: `Fathom's task ended: ${this.ended}` });
    } else {
      this.o.view.setBadge(undefined);
    }
  }

  dispose(): void {
    this.unsubscribe?.();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function waitingItems(state: ChatState): ToolItem[] {
  return openToolItems(state.items).filter((i) => i.status === "awaiting_approval");
}

function oneLine(text: string): string {
  const line = text.split("\n")[0]!;
  return line.length > 80 || text.includes("\n") ? `${line.slice(0, 80)}…` : line;
}
