import * as vscode from "vscode";
import { ChildProcessExecutor } from "../core";
import { ApiKeyStore, confirmKeyForHost, promptForApiKey } from "./apiKeys";
import { AttentionNotifier } from "./attention";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chatView/chatViewProvider";
import { Log } from "./log";
import { ReviewGate, registerReviewCommands } from "./review";
import { ChatSession } from "./tasks/chatSession";
import { createHostEnv, fileBackend } from "./wiring/hostEnv";
import { HostTeamFiles } from "./teamFiles/hostTeamFiles";
import { endpointOrigin, readSettings } from "./settings";
import { TerminalExecutor } from "./terminal/terminalExecutor";
import { HostSandbox } from "./terminal/hostSandbox";
import { TaskTerminals } from "./terminal/taskTerminals";
import { TaskManager } from "./tasks/taskManager";
import { TaskSlots } from "./tasks/taskSlots";
import { HostRemoteBranches } from "./worktrees/hostRemoteBranches";
import { HostWorktrees } from "./worktrees/hostWorktrees";
import { HostMcp } from "./mcp/hostMcp";
import { HostHooks } from "./hooks/hostHooks";
import { memoryAction } from "./memory/hostMemories";
import { lmApiFromVscode } from "./models/lmApi";
import { VscodeModels } from "./models/vscodeModels";
import { createModelSetup } from "./models/modelSetup";
import { registerContextCommands } from "./context/contextCommands";
import { FirstTaskWarmUp } from "./firstTaskWarmUp";
import { registerCommitMessage } from "./editor/commitMessage";
import { registerEditSelection } from "./editor/editSelection";
import { isDemoWindow } from "./demo/demoFolders";
import { createDemoModelSetup } from "./demo/demoModelSetup";
import { registerTryDemo } from "./demo/tryDemo";
import { registerGettingStarted } from "./welcome/gettingStarted";

/**
 * What `activate` returns. Meant for Fathom's own tests in the extension host (other
 * extensions should not rely on it): the live session, and a way to rebuild it from storage
 * as a window reload would.
 */
export interface FathomApi {
  readonly session: ChatSession;
  /** The window's tasks at once (the shown one is `session`). */
  readonly tasks: TaskManager;
  readonly view: ChatViewProvider;
  readonly keys: ApiKeyStore;
  readonly log: Log;
  /**
   * Drops the session without saving anything more (as a reload or crash would) and loads a
   * new one from the saved tasks. `isTrusted` overrides workspace trust for the new session.
   */
  restartSession(options?: { isTrusted?: () => boolean }): Promise<ChatSession>;
}

/** Kept for deactivate, which VS Code awaits (briefly) when it closes. */
let stopMcp: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): FathomApi {
  const started = Date.now();
  const channel = vscode.window.createOutputChannel("Fathom", { log: true });
  const log = new Log(channel);
  // A key saved before keys were bound to an origin belongs to where the person's settings sent it.
  const keys = new ApiKeyStore(context.secrets, (provider) =>
    endpointOrigin(
      provider,
      provider === "openai-compatible" ? readSettings(vscode.workspace.getConfiguration("fathom")).baseUrl : "",
    ),
  );
  const view = new ChatViewProvider(context.extensionUri, log);
  const executor = new TerminalExecutor({ fallback: new ChildProcessExecutor(), log: channel });
  const gate = new ReviewGate({ log: channel, drafts: context.workspaceState });
  // VS Code's and Fathom's own storage hold secrets too: no sandboxed command may read them.
  const mcp = new HostMcp({ context, log, channel });
  const hooks = new HostHooks({ context, log });
  stopMcp = () => mcp.stop();
  const sandbox = new HostSandbox(executor, {
    log: channel,
    privateFolders: () => [context.globalStorageUri.fsPath, ...(context.storageUri ? [context.storageUri.fsPath] : [])],
  });

  const lm = lmApiFromVscode();
  const vscodeModels = new VscodeModels(lm);
  // A folder "Try the Demo Task" made plays the bundled recording instead of the person's model.
  const demo = isDemoWindow(
    context.globalState,
    (vscode.workspace.workspaceFolders ?? []).map((f) => (f.uri.scheme === "file" ? f.uri.fsPath : f.uri.toString())),
  );
  const models = demo ? createDemoModelSetup({ context, log }) : createModelSetup({ context, keys, log, vscodeModels });

  const attention = new AttentionNotifier({
    view,
    settings: () => {
      // The person's own choice: a workspace cannot silence what asks for them.
      const c = vscode.workspace.getConfiguration("fathom.notifications");
      return {
        approvals: c.inspect<boolean>("approvals")?.globalValue ?? true,
        taskEnd: c.inspect<boolean>("taskEnd")?.globalValue ?? true,
      };
    },
    focused: () => vscode.window.state.focused,
    showChat: () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`),
  });

  const userSetting = <T>(key: string, fallback: T): T =>
    vscode.workspace.getConfiguration("fathom").inspect<T>(key)?.globalValue ?? fallback;
  // The person's own choices: a repository cannot make the window run more tasks at once.
  const maxParallel = () => Math.max(1, Math.min(10, Math.floor(userSetting("tasks.maxParallel", 3))));
  const worktreeByDefault = () => userSetting<boolean>("tasks.worktree", false) === true;
  const slots = new TaskSlots(maxParallel);
  const worktrees = new HostWorktrees({ root: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, log });
  const tell = (level: "info" | "warning", text: string) =>
    void (level === "warning"
      ? vscode.window.showWarningMessage(`Fathom: ${text}`)
      : vscode.window.showInformationMessage(`Fathom: ${text}`));
  const remoteBranches = new HostRemoteBranches({
    root: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    log,
    tell,
  });
  const terminals = new TaskTerminals(
    (terminalName) => new TerminalExecutor({ fallback: new ChildProcessExecutor(), log: channel, terminalName }),
  );

  // Rules, prompt files, skills and custom agents: read on first use, never at activation (the demo's recording has none).
  const teamFiles = demo
    ? undefined
    : new HostTeamFiles(log, () => (vscode.workspace.workspaceFolders?.length ? fileBackend() : undefined));
  if (teamFiles) context.subscriptions.push(teamFiles);
  view.teamFiles = teamFiles;

  let tasks: TaskManager;
  let running = false;
  const open = (isTrusted?: () => boolean) => {
    const make = (reopen: boolean) =>
      new ChatSession(
        createHostEnv({
          context,
          keys,
          log,
          channel,
          executor,
          sandbox,
          mcp,
          hooks,
          gate,
          vscodeModels,
          models,
          demo,
          worktrees,
          worktreeByDefault,
          terminals,
          slots,
          ...(teamFiles ? { teamFiles } : {}),
          ...(isTrusted ? { isTrusted } : {}),
        }),
        { reopen },
      );
    let unwatch: (() => void) | undefined;
    tasks = new TaskManager({
      first: make(true),
      create: () => {
        const session = make(false);
        session.setMcpServers(mcp.views());
        return session;
      },
      show: (session) => {
        unwatch?.();
        view.attach(session);
        const follow = () => {
          const now =
            session.isRunning || session.state.status === "running" || session.state.status === "awaiting_approval";
          if (now !== running) void vscode.commands.executeCommand("setContext", "fathom.taskRunning", (running = now));
        };
        follow();
        unwatch = session.onMessage((message) => {
          if (message.type === "status") follow();
        });
      },
      watch: (session, o) => attention.watch(session, o),
      worktrees,
      remote: remoteBranches,
      worktreeByDefault,
      maxParallel,
      released: (taskId) => terminals.release(taskId),
      tell,
      log,
    });
    view.tasks = tasks;
    view.remoteBranches = remoteBranches;
    tasks.shown.setMcpServers(mcp.views());
    return tasks.shown;
  };
  open();
  mcp.onChange = (servers) => tasks.forEach((s) => s.setMcpServers(servers));
  view.mcpResources = (query) => mcp.matchResources(query);
  view.memoryAction = (action, memoryPath) =>
    memoryAction(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, action, memoryPath, log);
  // A task's first diff need not start the window's diff worker.
  view.onSendMessage = () => void gate.warmUp.warm();
  const warmUp = new FirstTaskWarmUp({
    sandbox,
    warmDiffs: () => void gate.warmUp.warm(),
    readSetup: () => models.readSetup(),
    log,
  });
  view.onComposing = () => warmUp.composing();
  // Listed (not started) so the view shows the configured servers before the first task.
  mcp.listConfigured(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, vscode.workspace.isTrusted);
  const refresh = () =>
    tasks.forEach(
      (s) => void s.refreshSetup().catch((err: unknown) => log.error(`Could not re-read the settings: ${String(err)}`)),
    );

  context.subscriptions.push(
    channel,
    view,
    attention,
    executor,
    gate,
    sandbox,
    mcp,
    worktrees,
    remoteBranches,
    terminals,
    { dispose: () => tasks.dispose() },
    registerReviewCommands(gate),
    registerContextCommands({ view, tasks: () => tasks, log }),
    registerCommitMessage({ models, log }),
    registerEditSelection({ start: (text, o) => tasks.startTask(text, o), showChat: () => view.reveal(), log }),
    registerTryDemo({ context, log, demo }),
    registerGettingStarted({ context, view, vscodeModels, lm, log, demo }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
    vscode.commands.registerCommand("fathom.newTask", () => tasks.newTask()),
    vscode.commands.registerCommand("fathom.cancel", () => tasks.shown.cancel()),
    vscode.commands.registerCommand("fathom.setApiKey", () => promptForApiKey(keys, channel)),
    vscode.commands.registerCommand("fathom.showLog", () => channel.show()),
    vscode.commands.registerCommand("fathom.openMcpConfig", () => mcp.openConfig()),
    vscode.commands.registerCommand("fathom.restartMcpServer", (name: unknown) =>
      typeof name === "string" ? mcp.restart(name) : undefined,
    ),
    vscode.commands.registerCommand("fathom.showMcpServerLog", (name: unknown) =>
      typeof name === "string" ? mcp.showLog(name) : undefined,
    ),
    vscode.commands.registerCommand("fathom.setMcpServerEnabled", (name: unknown, on: unknown) =>
      typeof name === "string" && typeof on === "boolean" ? mcp.setEnabled(name, on) : undefined,
    ),
    vscode.commands.registerCommand("fathom.allowKeyForHost", async () => {
      if (await confirmKeyForHost(keys, channel)) refresh();
    }),
    vscode.commands.registerCommand("fathom.openSettings", () =>
      vscode.commands.executeCommand("workbench.action.openSettings", `@ext:${context.extension.id}`),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("fathom")) refresh();
      if (e.affectsConfiguration("fathom.tasks.maxParallel")) slots.next();
    }),
    context.secrets.onDidChange((e) => {
      if (e.key.startsWith("fathom.apiKey."))
        tasks.forEach(
          (s) =>
            void s
              .keyChanged()
              .catch((err: unknown) => log.error(`Could not continue with the new key: ${String(err)}`)),
        );
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    // A model provider (Copilot signing in, a provider extension starting) came or went.
    ...(typeof lm !== "string" && lm.onDidChangeChatModels
      ? [
          lm.onDidChangeChatModels(() => {
            if (vscode.workspace.getConfiguration("fathom").get("provider") === "vscode") refresh();
          }),
        ]
      : []),
    vscode.workspace.onDidChangeWorkspaceFolders(refresh),
  );
  void vscode.commands.executeCommand("setContext", "fathom.taskRunning", false);
  log.info(`Fathom ${context.extension.packageJSON.version as string} activated in ${Date.now() - started} ms`);

  return {
    get session() {
      return tasks.shown;
    },
    get tasks() {
      return tasks;
    },
    view,
    keys,
    log,
    async restartSession(options = {}) {
      tasks.dispose();
      const next = open(options.isTrusted);
      await next.whenReady();
      return next;
    },
  };
}

export async function deactivate(): Promise<void> {
  // MCP servers are stopped here, awaited: disposing context.subscriptions (after this) cannot wait.
  await stopMcp?.();
}
