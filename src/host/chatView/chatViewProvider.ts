import type { HostRemoteBranches } from "../worktrees/hostRemoteBranches";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  HostToWebviewChatSchema,
  WebviewToHostChatSchema,
  parseMessage,
  type HostToWebviewChat,
  type MemoryView,
  type WebviewToHostChat,
} from "../../protocol";
import { latency } from "../latency";
import type { Logger } from "../log";
import type { ChatSession } from "../tasks/chatSession";
import type { TaskManager } from "../tasks/taskManager";
import { renderWebviewHtml } from "./webviewHtml";
import { rankPaths } from "./fuzzyFiles";
import { ComposerChips } from "../context/composerChips";
import { workspaceFileUri } from "../workspaceUris";
import { isMemoryPath } from "../../core/memory/memoryStore";
import { sendWithCommand } from "./chatCommands";
import type { HostTeamFiles } from "../teamFiles/hostTeamFiles";

export const CHAT_VIEW_ID = "fathom.chat";

/**
 * Hosts the chat webview. The session owns the truth; this class only validates the webview's
 * intents (invalid ones are logged and dropped), hands them to the session, and forwards the
 * session's updates. A (re)loaded webview sends `ready` and gets the whole state.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private session: ChatSession | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  /** The window's tasks at once (new, open, switch, worktree actions); without it, one session. */
  tasks:
    | Pick<TaskManager, "newTask" | "openTask" | "switchTo" | "closeTask" | "worktreeAction" | "openElsewhere">
    | undefined;

  /** The remotes' `fathom/*` branches (Refresh, a file's diff, Apply, Check out). */
  remoteBranches: Pick<HostRemoteBranches, "action"> | undefined;

  /** Told when the person sends a message (before it reaches the task). */
  onSendMessage: (() => void) | undefined;

  /** Told when the person starts writing a message. */
  onComposing: (() => void) | undefined;

  /** The message box's chips (Add Selection / File / Terminal Output / Problems to Chat). */
  readonly chips = new ComposerChips((view) => this.post({ type: "attachments", ...view }));

  /** `@problems` picked in the message box: the host adds the workspace's problems as a chip. */
  onAttachProblems: (() => void) | undefined;

  /** Rules, prompt files, skills and custom agents (the `/` picker, the Agent box, the Team files list). */
  get teamFiles(): HostTeamFiles | undefined {
    return this.team;
  }
  set teamFiles(team: HostTeamFiles | undefined) {
    this.team = team;
    if (team) team.onChange = (teamFiles) => this.post({ type: "teamFiles", teamFiles });
  }
  private team: HostTeamFiles | undefined;

  /** MCP resources offered with the files in the `@` picker. */
  mcpResources: ((query: string) => { path: string; resource: { server: string; name: string } }[]) | undefined;
  /** The Memories list: an action on it, answered with the list as it is after. */
  memoryAction:
    ((action: "list" | "open" | "delete" | "clear", path: string | undefined) => Promise<MemoryView[]>) | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Logger,
  ) {}

  private readonly visibility = new vscode.EventEmitter<void>();
  /** The view was shown, hidden, or closed. */
  readonly onDidChangeVisibility = this.visibility.event;

  /** The view is on screen. */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** Shows the view; once it has been resolved in this window, without taking the focus. */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  /** The badge on the view's icon (undefined removes it). */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    if (this.view) this.view.badge = badge;
  }

  /** Connects a (new) session; the view shows its state at once. */
  attach(session: ChatSession): void {
    this.unsubscribe?.();
    this.session = session;
    this.unsubscribe = session.onMessage((message) => this.post(message));
    this.post({ type: "state", state: session.state });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "dist")],
    };
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri);
    this.disposables.push(
      view.webview.onDidReceiveMessage((data: unknown) => this.receive(data)),
      view.onDidChangeVisibility(() => this.visibility.fire()),
      view.onDidDispose(() => {
        this.view = undefined;
        this.visibility.fire();
      }),
    );
    // Resolving it is showing it.
    this.visibility.fire();
  }

  /** Validates and handles one message from the webview (public so tests can drive the real path). */
  receive(data: unknown): void {
    const parsed = parseMessage(WebviewToHostChatSchema, data);
    if (!parsed.ok) {
      this.log.warn(`Dropped an invalid message from the chat view: ${parsed.error}`);
      return;
    }
    void this.handle(parsed.message).catch((err: unknown) =>
      this.log.error(`Handling "${parsed.message.type}" failed: ${(err as Error)?.stack ?? String(err)}`),
    );
  }

  private async handle(message: WebviewToHostChat): Promise<void> {
    const session = this.session;
    if (!session) return;
    switch (message.type) {
      case "ready":
        await session.whenReady();
        this.post({ type: "state", state: session.state });
        {
          const chips = this.chips.view();
          if (chips.attachments.length || chips.notice || chips.focus) this.post({ type: "attachments", ...chips });
        }
        return;
      case "sendMessage":
        latency(this.log, "message", "received");
        this.onSendMessage?.();
        this.chips.clear();
        return sendWithCommand(session, message);
      case "composing":
        return this.onComposing?.();
      case "listModels":
        return session.listModels(message.requestId);
      case "setModel":
        return session.chooseModel(message.model);
      case "cancel":
        return session.cancel();
      case "newTask":
        return this.tasks ? this.tasks.newTask() : session.newTask();
      case "switchTask":
        return this.tasks?.switchTo(message.key);
      case "closeTask":
        return this.tasks?.closeTask(message.key);
      case "worktreeAction":
        return this.tasks?.worktreeAction(message.taskId, message.action, message.path);
      case "remoteBranchAction":
        return this.remoteBranches?.action(message.action, message.ref, message.path);
      case "approve":
        latency(this.log, message.toolCallId, "approve received");
        return session.approve(message.toolCallId, message.alwaysAllow);
      case "reject":
        return session.reject(message.toolCallId, message.reason);
      case "answerQuestion":
        return session.answer(message.toolCallId, message.answer);
      case "startPlan":
        return session.startPlan(message.itemId, message.text);
      case "openDiff":
        return session.openDiff(message.toolCallId);
      case "cardShown":
        return session.cardShown(message.toolCallId);
      case "retry":
      case "resumeTask":
        return session.retry();
      case "openTask":
        return this.tasks ? this.tasks.openTask(message.taskId) : session.openTask(message.taskId);
      case "removeQueued":
        return session.removeQueued(message.index);
      case "searchFiles":
        return this.searchFiles(message.requestId, message.query);
      case "runCommand":
        await vscode.commands.executeCommand(message.command);
        return;
      case "openFile":
        return this.openFile(message.path);
      case "openAttachment":
        return this.openFile(message.path, message.line);
      case "attachProblems":
        return this.onAttachProblems?.();
      case "removeAttachment":
        return this.chips.remove(message.index);
      case "deleteTask": {
        if (this.tasks?.openElsewhere(message.taskId)) {
          void vscode.window.showInformationMessage(
            "Fathom: that task is open in the Tasks list. Close it there (or let it finish) before deleting it.",
          );
          return;
        }
        const title = session.state.history.find((t) => t.id === message.taskId)?.title ?? "this task";
        const answer = await vscode.window.showWarningMessage(
          `Delete the task “${title}”?`,
          {
            modal: true,
            detail:
              "Its conversation and its checkpoints go: its changes can no longer be restored. Your files are not touched.",
          },
          "Delete Task",
        );
        if (answer === "Delete Task") await session.deleteTask(message.taskId);
        return;
      }
      case "previewRestore":
        return session.restoring?.preview(message.itemId);
      case "restore":
        return session.restoring?.restore(message.itemId, message.what, message.overwrite);
      case "closeRestore":
        return session.restoring?.close();
      case "compareRestore":
        return session.restoring?.compare(message.path);
      case "editMessage":
        return session.restoring?.editMessage(message.itemId);
      case "changesAction": {
        const target = message.path === undefined ? {} : { path: message.path };
        if (message.action === "open") return message.path ? session.changes?.open(message.path) : undefined;
        return message.action === "keep" ? session.changes?.keep(target) : session.changes?.undo(target);
      }
      case "listTeamFiles":
        if (this.team) this.post({ type: "teamFiles", teamFiles: await this.team.view() });
        return;
      case "setAgent": {
        // Only a name the files define: the webview's word is not enough.
        const known =
          message.agent === null || (await this.team?.catalog())?.agents.some((a) => a.name === message.agent);
        if (known) session.setAgent(message.agent);
        else this.log.warn(`Dropped the choice of agent "${message.agent}": no custom agent has that name`);
        return;
      }
      case "openTeamFile":
        return this.team?.open(message.source);
      case "mcpAction":
        if (message.action === "showLog")
          await vscode.commands.executeCommand("fathom.showMcpServerLog", message.server);
        else if (message.action === "restart")
          await vscode.commands.executeCommand("fathom.restartMcpServer", message.server);
        else
          await vscode.commands.executeCommand(
            "fathom.setMcpServerEnabled",
            message.server,
            message.action === "enable",
          );
        return;
      case "memoryAction":
        if (this.memoryAction)
          this.post({ type: "memories", memories: await this.memoryAction(message.action, message.path) });
        return;
    }
  }

  private fileList: { at: number; paths: Promise<string[]> } | undefined;

  /** `@` mentions: the workspace's files (listed at most every 15 s), fuzzy-ranked for the query. */
  private async searchFiles(requestId: number, query: string): Promise<void> {
    if (!this.fileList || Date.now() - this.fileList.at > 15_000) {
      this.fileList = { at: Date.now(), paths: this.listWorkspaceFiles() };
    }
    const files = [
      ...(this.mcpResources?.(query) ?? []),
      ...rankPaths(await this.fileList.paths, query).map((p) => ({ path: p })),
    ];
    this.post({ type: "mentionResults", requestId, files });
  }

  private async listWorkspaceFiles(): Promise<string[]> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const uris = await vscode.workspace.findFiles("**/*", "**/{node_modules,.git}/**", 20_000);
    return uris.map((uri) => (root ? `/${path.relative(root, uri.fsPath).split(path.sep).join("/")}` : uri.fsPath));
  }

  /** Opens a workspace file the chat names (virtual `/src/a.ts` paths); nothing outside the root. */
  private async openFile(virtualPath: string, line?: number): Promise<void> {
    // A memory lives in Fathom's data folder, not in the workspace.
    if (isMemoryPath(virtualPath)) {
      await this.memoryAction?.("open", virtualPath);
      return;
    }
    const target = workspaceFileUri(virtualPath);
    if (!target) {
      this.log.warn(`Refused to open ${virtualPath}: outside the workspace`);
      return;
    }
    try {
      const at = line !== undefined ? new vscode.Position(line - 1, 0) : undefined;
      await vscode.window.showTextDocument(target, {
        preview: true,
        preserveFocus: false,
        ...(at ? { selection: new vscode.Range(at, at) } : {}),
      });
    } catch (err) {
      void vscode.window.showWarningMessage(`Fathom: could not open ${virtualPath}: ${(err as Error).message}`);
    }
  }

  /** False when no view is there to take it. */
  private post(message: HostToWebviewChat): boolean {
    if (!this.view) return false;
    // An answer's first text (once per answer): the hop from the model's first chunk to the screen.
    if (message.type === "itemAppended" && message.item.kind === "assistant") latency(this.log, "answer", "posting");
    // Validate what we send too: a malformed message is a host bug and must not reach the UI.
    const checked = parseMessage(HostToWebviewChatSchema, message);
    if (!checked.ok) {
      this.log.error(`Refused to send an invalid message to the chat view: ${checked.error}`);
      return false;
    }
    void this.view.webview.postMessage(checked.message);
    if (message.type === "itemAppended" && message.item.kind === "assistant") latency(this.log, "answer", "posted");
    return true;
  }

  dispose(): void {
    this.unsubscribe?.();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.visibility.dispose();
  }
}
