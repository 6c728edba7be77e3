import * as vscode from "vscode";
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from "../../core/approval";
import type { FileChangeProposal } from "../../core/tools/tool";
import { PROPOSAL_SCHEME, ProposedFileSystem } from "./proposedFileSystem";
import { BOM, hasBom, parseProposalUri, proposalTitle, proposalUriParts } from "./reviewText";
import { approvedDecision } from "./approvedText";
import { openDocument } from "../workspaceUris";
import { ProposalDrafts } from "./proposalDrafts";
import { RealLanguageOnUse } from "./realLanguageOnUse";
import { closeDiffEditor, diffTabs, openDiffEditor, replaceText, revealChange, type DiffSides } from "./diffTabs";
import { latency } from "../latency";
import { approvalKey } from "./approvalKey";
import { DiffWarmUp, WARM_UP_TEXT } from "./diffWarmUp";
import { CardWaits } from "./cardWaits";
import { FirstDiff } from "./firstDiff";

export interface ReviewGateOptions {
  log: vscode.LogOutputChannel;
  /**
   * URI scheme of the proposal documents (default `fathom-proposed`). Only one file system
   * may serve a scheme, so a second gate in the same extension host (a test) needs its own.
   */
  scheme?: string;
  /** Where the diff opens (default beside the active editor). */
  viewColumn?: vscode.ViewColumn;
  /**
   * Where the person's unsaved edits of a proposal's right side are kept (the workspace's
   * storage), so they survive a window reload: asked again on resume, the proposal comes back
   * with them. Without it they live only as long as the window.
   */
  drafts?: vscode.Memento;
  /** How long an open diff's proposal waits for the chat to show its card (default 200 ms). */
  cardWaitMs?: number;
}

/** Who settled a request. */
export type ReviewSource = "chat" | "editor" | "superseded" | "cancelled" | "disposed";

/** What the session hears, to update the chat's cards. */
export type ReviewChange =
  | { type: "pending"; toolCallId: string; toolName: string; path?: string }
  | {
      type: "decided";
      toolCallId: string;
      toolName: string;
      path?: string;
      decision: ApprovalDecision;
      by: ReviewSource;
    };

/** A request waiting for the person; an edit's diff sides (and the group they split off) when it has a proposal. */
interface Pending extends Partial<DiffSides> {
  request: ApprovalRequest;
  proposal?: FileChangeProposal;
  settle(decision: ApprovalDecision): void;
}

/** A diff opened while the model still wrote its edit (see `prepare`); `opened` is false if it could not open. */
interface Prepared extends DiffSides {
  path: string;
  before: string;
  opened: Promise<boolean>;
  /** The edit's preview was shown (and scrolled to). */
  previewed?: boolean;
}

const hasSides = (entry: Pending): entry is Pending & DiffSides =>
  entry.beforeUri !== undefined && entry.afterUri !== undefined;

const CANCELLED = "The task was cancelled before the person decided; nothing was written.";
const CLOSED =
  "Fathom's review was closed (the window is closing or the extension stopped) before the person decided; nothing was written.";

/**
 * The host's approval gate. Edit proposals open VS Code's diff editor (left: the file as it
 * was, right: the proposal, editable) without taking focus; the person decides in the chat
 * (`decide`) or from the diff editor's title bar (`approveFromEditor` / `rejectFromEditor`).
 * Other calls (`execute`) simply wait for the chat's decision. Never throws: failures settle
 * as a rejection the model can read.
 */
export class ReviewGate implements ApprovalGate, vscode.Disposable {
  readonly scheme: string;
  private readonly fs = new ProposedFileSystem();
  private readonly registration: vscode.Disposable;
  private readonly beforeRegistration: vscode.Disposable;
  /** The left sides of pending proposals, by URI. */
  private readonly beforeTexts = new Map<string, string>();
  private readonly beforeChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly waiting = new Map<string, Pending>();
  /** Diffs of edits the model is still writing, by request id. */
  private readonly prepared = new Map<string, Prepared>();
  private readonly cardWaits: CardWaits;
  private readonly firstDiff = new FirstDiff(() =>
    vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff)),
  );
  private readonly changes = new vscode.EventEmitter<ReviewChange>();
  readonly onDidChange: vscode.Event<ReviewChange> = this.changes.event;
  private disposed = false;

  private readonly drafts: ProposalDrafts;
  /** Call when a task may soon propose an edit (a message was sent). */
  readonly warmUp: DiffWarmUp;
  private readonly draftWatch: vscode.Disposable;
  private readonly realLanguage: RealLanguageOnUse;

  constructor(private readonly options: ReviewGateOptions) {
    this.scheme = options.scheme ?? PROPOSAL_SCHEME;
    this.registration = vscode.workspace.registerFileSystemProvider(this.scheme, this.fs, { isCaseSensitive: true });
    // The left side is read-only: a content provider is one round trip for the window, where a
    // file system is several (stat, read, watch, backups).
    this.beforeRegistration = vscode.workspace.registerTextDocumentContentProvider(`${this.scheme}-before`, {
      provideTextDocumentContent: (uri) => this.beforeTexts.get(uri.toString()) ?? "",
      onDidChange: this.beforeChanged.event,
    });
    this.drafts = new ProposalDrafts(options.drafts);
    this.cardWaits = new CardWaits(options.cardWaitMs ?? 200);
    this.warmUp = new DiffWarmUp(vscode.Uri.from({ scheme: `${this.scheme}-before`, path: "/warm-up" }), options.log);
    this.beforeTexts.set(this.warmUp.uri.toString(), WARM_UP_TEXT);
    this.draftWatch = vscode.workspace.onDidChangeTextDocument((e) => this.noteDraft(e.document));
    this.realLanguage = new RealLanguageOnUse(this.scheme, options.log);
  }

  /** Keeps what the person typed on a proposal's right side (saved shortly after they stop). */
  private noteDraft(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== this.scheme) return;
    const parts = parseProposalUri(doc.uri.query);
    const entry = parts?.side === "after" ? this.waiting.get(parts.toolCallId) : undefined;
    if (!entry?.proposal || !parts) return;
    this.drafts.note(
      parts.toolCallId,
      entry.proposal.path,
      entry.proposal.after,
      (hasBom(entry.proposal.after) ? BOM : "") + doc.getText(),
    );
  }

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (this.disposed) return Promise.resolve({ type: "reject", reason: CLOSED });
    if (signal.aborted) return Promise.resolve({ type: "reject", reason: CANCELLED });
    const id = approvalKey(request);
    // A repeated id (a resumed task asking again) replaces the older request.
    this.finish(id, { type: "reject", reason: "Superseded by a newer request for the same tool call." }, "superseded");
    return new Promise<ApprovalDecision>((resolve) => {
      let early: Prepared | undefined;
      const onAbort = () => this.finish(id, { type: "reject", reason: CANCELLED }, "cancelled");
      const entry: Pending = {
        request,
        settle: (decision) => {
          signal.removeEventListener("abort", onAbort);
          resolve(decision);
        },
      };
      const proposal = request.proposal;
      if (proposal) {
        for (const [otherId, other] of this.waiting) {
          // Another task's proposal for the same path is in its own worktree: only this task's counts.
          if (other.proposal?.path === proposal.path && other.request.task?.id === request.task?.id) {
            this.finish(
              otherId,
              {
                type: "reject",
                reason: `Superseded: a newer proposal for ${proposal.path} replaced this one before the person decided. Nothing was written for this call.`,
              },
              "superseded",
            );
          }
        }
        entry.proposal = proposal;
        early = this.takePrepared(id, proposal.path);
        entry.beforeUri = early?.beforeUri ?? this.uriFor(id, "before", proposal.path);
        entry.afterUri = early?.afterUri ?? this.uriFor(id, "after", proposal.path);
        this.beforeTexts.set(entry.beforeUri.toString(), proposal.before ?? "");
        // The file changed while the model wrote: the open diff's left side follows.
        if (early && early.before !== (proposal.before ?? "")) this.beforeChanged.fire(entry.beforeUri);
        // Asked again after a reload: the person's edits come back, if made to this same proposal.
        const restored = this.drafts.restore(id, proposal.after);
        if (restored !== undefined)
          this.options.log.info(`review: ${id} comes back with the edits the person made before the reload`);
        // An open diff hears of the proposal after the card's message has left (see below).
        this.fs.set(entry.afterUri, restored ?? proposal.after, false, { quiet: early !== undefined });
        // Typed into before the proposal came: a changed document is not reloaded, so the proposal replaces it.
        const typed = early && openDocument(entry.afterUri);
        if (typed && typed.isDirty) void replaceText(typed, restored ?? proposal.after, this.options.log);
        if (early) latency(this.options.log, request.toolCallId, "proposal in the open diff");
      }
      this.waiting.set(id, entry);
      signal.addEventListener("abort", onAbort, { once: true });
      this.options.log.info(
        `review: ${request.toolName} ${id} waits for the person${proposal ? ` (${proposal.path})` : ""}`,
      );
      this.changes.fire({
        type: "pending",
        toolCallId: id,
        toolName: request.toolName,
        ...(proposal ? { path: proposal.path } : {}),
      });
      // The card goes first: the session posts it when it reads the core's event, a tick after
      // this. Opening the diff starts work in the window the card's message would queue behind.
      // An open diff's update waits for the card to be on screen (see CardWaits).
      const show = () =>
        void (
          this.waiting.get(id) === entry &&
          (early && hasSides(entry) ? this.showPrepared(entry, early) : this.show(entry, true))
        );
      // The window's first diff editor waits for the card to be on screen (see FirstDiff).
      if (entry.proposal && early) this.cardWaits.after(id, show);
      else if (entry.proposal) this.firstDiff.schedule(show, (run) => this.cardWaits.after(id, run));
    });
  }

  /**
   * The person's decision, from the chat. Approving takes the right side of the diff as it is
   * now, unsaved edits included: `approve` when unchanged, `edit` with the content otherwise.
   * Returns the decision given to the core, or undefined when nothing waits under that id.
   */
  decide(
    toolCallId: string,
    decision: { type: "approve" } | { type: "reject"; reason?: string },
    by: ReviewSource = "chat",
  ): ApprovalDecision | undefined {
    const entry = this.waiting.get(toolCallId);
    if (!entry) return undefined;
    let final: ApprovalDecision;
    if (decision.type === "reject") {
      const reason = decision.reason?.trim();
      final = reason ? { type: "reject", reason } : { type: "reject" };
    } else {
      final = this.approval(entry);
    }
    this.finish(toolCallId, final, by);
    return final;
  }

  /** Opens (again) the diff editor of a pending proposal. False when there is none. */
  async openDiff(toolCallId: string, options: { preserveFocus?: boolean } = {}): Promise<boolean> {
    const entry = this.waiting.get(toolCallId);
    if (!entry?.proposal) return false;
    return this.show(entry, options.preserveFocus ?? false);
  }

  /**
   * Opens the diff of an edit the model is still writing (`id` as its request's will be), with
   * the file as it is on both sides: the window's work (editor group, editors, the file's
   * language) is done while the model writes, and its proposal, when it comes, only fills in
   * the right side. `drop` closes it when no request follows. `diffFirst`: the diff is where the
   * person follows the edit (an inline edit, which has no card), so it opens in a cold window too.
   */
  prepare(id: string, path: string, before: string | null, taskTitle?: string, diffFirst = false): void {
    if (this.disposed || this.waiting.has(id) || this.prepared.has(id)) return;
    if (!diffFirst && !this.firstDiff.warm) {
      // The window's first diff editor would hold up the card: it opens after it (see FirstDiff).
      this.options.log.debug(`review: ${id}'s diff opens after its card (the window's first diff editor)`);
      return;
    }
    const text = before ?? "";
    const early: Prepared = {
      beforeUri: this.uriFor(id, "before", path),
      afterUri: this.uriFor(id, "after", path),
      path,
      before: text,
      opened: Promise.resolve(false),
    };
    this.beforeTexts.set(early.beforeUri.toString(), text);
    this.fs.set(early.afterUri, text, false);
    this.prepared.set(id, early);
    this.options.log.debug(`review: ${id} opens the diff of ${path} while the model writes its edit`);
    early.opened = this.openSides(
      early,
      path,
      proposalTitle(path, before === null) + (taskTitle ? ` · ${taskTitle}` : ""),
      true,
    );
  }

  /** The edit as the model writes it, on a prepared diff's right side (never over the person's typing); the first scrolls to it. */
  previewPrepared(id: string, after: string): void {
    const early = this.prepared.get(id);
    if (!early || openDocument(early.afterUri)?.isDirty || this.fs.text(early.afterUri) === after) return;
    this.fs.set(early.afterUri, after, false);
    if (early.previewed) return;
    early.previewed = true;
    void early.opened.then(
      (open) => open && revealChange(early.afterUri, early.before, this.fs.text(early.afterUri) ?? after),
    );
  }

  /** The chat shows the request's card: its open diff takes the proposal now. */
  cardShown(id: string): void {
    this.cardWaits.shown(id);
  }

  /** Closes a prepared diff no request came for (the call failed first, or the run ended). */
  drop(id: string): void {
    const early = this.prepared.get(id);
    if (!early) return;
    this.prepared.delete(id);
    void early.opened.then(() => this.closeSides(early, early.path));
  }

  /** The prepared diff of a request, when it shows the same file; another one is closed. */
  private takePrepared(id: string, path: string): Prepared | undefined {
    const early = this.prepared.get(id);
    if (!early) return undefined;
    if (early.path === path) {
      this.prepared.delete(id);
      return early;
    }
    this.drop(id);
    return undefined;
  }

  /** Ids of the requests waiting for the person, oldest first. */
  pending(): string[] {
    return [...this.waiting.keys()];
  }

  /** The URIs of a pending proposal's diff sides (for tests and the session). */
  proposalUris(toolCallId: string): { before: vscode.Uri; after: vscode.Uri } | undefined {
    const e = this.waiting.get(toolCallId);
    return e?.beforeUri && e.afterUri ? { before: e.beforeUri, after: e.afterUri } : undefined;
  }

  /** The pending request a proposal document belongs to (either side of its diff). */
  toolCallIdOf(uri: vscode.Uri | undefined): string | undefined {
    if (!uri || (uri.scheme !== this.scheme && uri.scheme !== `${this.scheme}-before`)) return undefined;
    const id = parseProposalUri(uri.query)?.toolCallId;
    return id !== undefined && this.waiting.has(id) ? id : undefined;
  }

  /** Approve from the diff editor (title-bar action or command). */
  approveFromEditor(uri?: vscode.Uri): ApprovalDecision | undefined {
    const id = this.toolCallIdOf(uri ?? this.activeProposalUri());
    if (id === undefined) {
      void vscode.window.showInformationMessage("No pending Fathom proposal is open in this editor.");
      return undefined;
    }
    return this.decide(id, { type: "approve" }, "editor");
  }

  /** Reject from the diff editor: asks for an optional reason (Escape keeps the proposal). */
  async rejectFromEditor(uri?: vscode.Uri): Promise<ApprovalDecision | undefined> {
    const id = this.toolCallIdOf(uri ?? this.activeProposalUri());
    if (id === undefined) {
      void vscode.window.showInformationMessage("No pending Fathom proposal is open in this editor.");
      return undefined;
    }
    const path = this.waiting.get(id)?.proposal?.path ?? "this change";
    const reason = await vscode.window.showInputBox({
      title: `Reject Fathom's change to ${path}`,
      prompt: "Why? (optional — Fathom passes your reason to the model; Escape keeps the proposal)",
      placeHolder: "e.g. keep the old name; only change the test",
    });
    if (reason === undefined) return undefined;
    return this.decide(id, { type: "reject", reason }, "editor");
  }

  dispose(): void {
    if (this.disposed) return;
    for (const id of [...this.waiting.keys()]) this.finish(id, { type: "reject", reason: CLOSED }, "disposed");
    this.disposed = true;
    this.prepared.clear();
    this.beforeChanged.dispose();
    this.drafts.flush();
    this.draftWatch.dispose();
    this.realLanguage.dispose();
    this.registration.dispose();
    this.beforeRegistration.dispose();
    this.fs.dispose();
    this.changes.dispose();
  }

  private uriFor(toolCallId: string, side: "before" | "after", path: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: side === "before" ? `${this.scheme}-before` : this.scheme,
      ...proposalUriParts(toolCallId, side, path),
    });
  }

  private activeProposalUri(): vscode.Uri | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) return input.modified;
    if (input instanceof vscode.TabInputText) return input.uri;
    return vscode.window.activeTextEditor?.document.uri;
  }

  /** What the person approves: the right side as it is now. */
  private approval(entry: Pending): ApprovalDecision {
    if (!entry.proposal || !entry.afterUri) return { type: "approve" };
    return approvedDecision(entry.proposal, this.fs.text(entry.afterUri), openDocument(entry.afterUri));
  }

  private finish(id: string, decision: ApprovalDecision, by: ReviewSource): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    this.waiting.delete(id);
    // Decided: the draft is done with. A window closing or reloading (which cancels the run
    // first) is no decision: the draft is kept for the resume.
    if (by === "chat" || by === "editor" || by === "superseded") this.drafts.forget(id);
    const path = entry.proposal?.path;
    const detail = decision.type === "reject" && decision.reason ? `: ${decision.reason}` : "";
    this.options.log.info(`review: ${entry.request.toolName} ${id} ${decision.type} (${by})${detail}`);
    latency(this.options.log, entry.request.toolCallId, "decided");
    entry.settle(decision);
    if (!this.disposed) {
      this.changes.fire({
        type: "decided",
        toolCallId: id,
        toolName: entry.request.toolName,
        ...(path ? { path } : {}),
        decision,
        by,
      });
    }
    void this.closeDiff(entry);
    return true;
  }

  private async show(entry: Pending, preserveFocus: boolean): Promise<boolean> {
    const proposal = entry.proposal;
    if (!proposal || !hasSides(entry)) return false;
    // Latency marks carry the core's call id, as the session's do.
    const id = entry.request.toolCallId;
    latency(this.options.log, id, "diff opening");
    const opened = await this.openSides(
      entry,
      proposal.path,
      proposalTitle(proposal.path, proposal.before === null) +
        (entry.request.task ? ` · ${entry.request.task.title}` : ""),
      preserveFocus,
    );
    if (opened) latency(this.options.log, id, "diff opened");
    return opened;
  }

  /**
   * A prepared diff took the proposal: scrolled to the change (once open), then told of it, so it
   * shows where the person looks. Opened again if it could not open or the person closed it.
   */
  private async showPrepared(entry: Pending & DiffSides, early: Prepared): Promise<void> {
    const proposed = this.fs.text(entry.afterUri) ?? "";
    revealChange(entry.afterUri, early.before, proposed);
    this.fs.announce(entry.afterUri);
    const opened = await early.opened;
    if (this.waiting.get(approvalKey(entry.request)) !== entry) return;
    if (opened && diffTabs(entry).length > 0) {
      if (early.createdGroup) entry.createdGroup = early.createdGroup;
      revealChange(entry.afterUri, early.before, proposed);
    } else await this.show(entry, true);
  }

  private async openSides(sides: DiffSides, path: string, title: string, preserveFocus: boolean): Promise<boolean> {
    try {
      await openDiffEditor(sides, title, {
        preserveFocus,
        ...(this.options.viewColumn ? { viewColumn: this.options.viewColumn } : {}),
      });
      this.firstDiff.opened();
      return true;
    } catch (error) {
      this.options.log.warn(`review: could not open the diff of ${path}: ${String(error)}`);
      return false;
    }
  }

  /** Closes the proposal's tabs (and the group split off for them), then forgets its files. */
  private async closeDiff(entry: Pending): Promise<void> {
    if (hasSides(entry)) await this.closeSides(entry, entry.proposal?.path ?? "a proposal");
  }

  private async closeSides(sides: DiffSides, path: string): Promise<void> {
    await closeDiffEditor(sides, this.options.log, path, () => this.fs.backdate(sides.afterUri));
    if (this.disposed) return;
    this.beforeTexts.delete(sides.beforeUri.toString());
    this.fs.remove(sides.afterUri);
  }
}
