import * as vscode from "vscode";
import { ChildProcessExecutor } from "../core";
import { ApiKeyStore } from "./apiKeys";
import { AttentionNotifier } from "./attention";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chatView/chatViewProvider";
import { connectChatView, registerChatView } from "./chatView/chatViewWiring";
import { Log } from "./log";
import { ReviewGate, registerReviewCommands } from "./review";
import { ChatSession } from "./tasks/chatSession";
import { createHostEnv, fileBackend } from "./wiring/hostEnv";
import { HostTeamFiles } from "./teamFiles/hostTeamFiles";
import { endpointOrigin, readSettings } from "./settings";
import { TerminalExecutor } from "./terminal/terminalExecutor";
import { HostSandbox } from "./terminal/hostSandbox";
import { TaskManager } from "./tasks/taskManager";
import { parallelTasks } from "./tasks/parallelTasks";
import { registerTaskCommands } from "./tasks/taskCommands";
import { registerChangeLenses } from "./tasks/changeLenses";
import { HostMcp } from "./mcp/hostMcp";
import { registerMcpCommands } from "./mcp/mcpCommands";
import { HostHooks } from "./hooks/hostHooks";
import { lmApiFromVscode } from "./models/lmApi";
import { VscodeModels } from "./models/vscodeModels";
import { createModelSetup } from "./models/modelSetup";
import { registerContextCommands } from "./context/contextCommands";
import { TerminalHistory } from "./context/terminalHistory";
import { registerCommitMessage } from "./editor/commitMessage";
import { registerEditSelection } from "./editor/editSelection";
import { registerReview } from "./codeReview/registerReview";
import { isDemoWindow } from "./demo/demoFolders";
import { createDemoModelSetup } from "./demo/demoModelSetup";
import { registerTryDemo } from "./demo/tryDemo";
import { registerGettingStarted } from "./welcome/gettingStarted";
import { registerSetupCommands } from "./setupCommands";

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

/** The window's services a task's session is made from (see `createHostEnv`). */
type SessionServices = Omit<Parameters<typeof createHostEnv>[0], "isTrusted"> & { mcp: HostMcp };

/**
 * The window's tasks: `open` makes them from the saved ones (again on a restart), shows the shown
 * one in the view, keeps the `fathom.taskRunning` context in step with it, and lets `attention`
 * watch each.
 */
function taskWindow(
  services: SessionServices,
  parallel: ReturnType<typeof parallelTasks>,
  view: ChatViewProvider,
  attention: AttentionNotifier,
) {
  const { mcp, log } = services;
  const { worktrees, remoteBranches, worktreeByDefault, maxParallel, terminals, tell } = parallel;
  let tasks: TaskManager | undefined;
  let running = false;
  const open = (isTrusted?: () => boolean) => {
    const make = (reopen: boolean) =>
      new ChatSession(createHostEnv({ ...services, ...(isTrusted ? { isTrusted } : {}) }), { reopen });
    let unwatch: (() => void) | undefined;
    const opened = new TaskManager({
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
    tasks = opened;
    view.tasks = opened;
    view.remoteBranches = remoteBranches;
    opened.shown.setMcpServers(mcp.views());
    return opened.shown;
  };
  return { open, tasks: () => tasks! };
}

/** Tells the person when a task needs them or ends, as their own (user) settings say. */
function windowAttention(view: ChatViewProvider): AttentionNotifier {
  return new AttentionNotifier({
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
}

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
  const attention = windowAttention(view);
  const parallel = parallelTasks(channel, log);
  const { slots, worktrees, worktreeByDefault, remoteBranches, terminals } = parallel;

  // Rules, prompt files, skills and custom agents: read on first use, never at activation (the demo's recording has none).
  const teamFiles = demo
    ? undefined
    : new HostTeamFiles(log, () => (vscode.workspace.workspaceFolders?.length ? fileBackend() : undefined));
  if (teamFiles) context.subscriptions.push(teamFiles);
  view.teamFiles = teamFiles;

  // The person's terminals: their last commands, for chips and the `terminal_output` tool.
  const personTerminals = new TerminalHistory();
  // Findings as comments; Apply fix goes to the task that reviewed (the task window is made below).
  const reviews = registerReview({ tasks: () => tasks(), showChat: () => view.reveal(), log });
  const window = taskWindow(
    {
      review: reviews.review,
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
      personTerminals,
      slots,
      ...(teamFiles ? { teamFiles } : {}),
    },
    parallel,
    view,
    attention,
  );
  const tasks = window.tasks;
  window.open();
  mcp.onChange = (servers) => tasks().forEach((s) => s.setMcpServers(servers));
  connectChatView(view, { mcp, gate, models, sandbox, log });
  // Listed (not started) so the view shows the configured servers before the first task.
  mcp.listConfigured(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, vscode.workspace.isTrusted);

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
    { dispose: () => tasks().dispose() },
    registerReviewCommands(gate),
    personTerminals,
    registerContextCommands({ view, tasks, log, terminals: personTerminals }),
    registerCommitMessage({ models, log }),
    reviews.disposable,
    registerEditSelection({ start: (text, o) => tasks().startTask(text, o), showChat: () => view.reveal(), log }),
    registerTryDemo({ context, log, demo }),
    registerGettingStarted({ context, view, vscodeModels, lm, log, demo }),
    registerChatView(view),
    registerTaskCommands(tasks),
    registerChangeLenses(tasks),
    registerMcpCommands(mcp),
    registerSetupCommands({ context, keys, channel, log, tasks, lm, slots }),
  );
  void vscode.commands.executeCommand("setContext", "fathom.taskRunning", false);
  log.info(`Fathom ${context.extension.packageJSON.version as string} activated in ${Date.now() - started} ms`);

  return {
    get session() {
      return tasks().shown;
    },
    get tasks() {
      return tasks();
    },
    view,
    keys,
    log,
    async restartSession(options = {}) {
      tasks().dispose();
      const next = window.open(options.isTrusted);
      await next.whenReady();
      return next;
    },
  };
}

export async function deactivate(): Promise<void> {
  // MCP servers are stopped here, awaited: disposing context.subscriptions (after this) cannot wait.
  await stopMcp?.();
}
