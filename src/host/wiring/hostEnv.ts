import * as path from "node:path";
import * as vscode from "vscode";
import {
  CheckpointStore,
  CompositeBackend,
  FilesystemBackend,
  createAgent,
  createInlineEditAgent,
  type BackendProtocol,
  type DoneReason,
  type Executor,
  type PersonTerminals,
  type Middleware,
  memoryFolders,
} from "../../core";
import type { HostHooks } from "../hooks/hostHooks";
import { memoryWritesAllowed } from "../memory/hostMemories";
import type { ApiKeyStore } from "../apiKeys";
import type { Log } from "../log";
import { EditorAwareBackend, editFeedbackMiddleware } from "../review";
import { vscodeCodeIntelligence } from "../codeIntel/vscodeCodeIntelligence";
import { workspaceFileUri } from "../workspaceUris";
import { CheckpointTexts } from "../review/checkpointTexts";
import type { HostSandbox } from "../terminal/hostSandbox";
import type { HostMcp } from "../mcp/hostMcp";
import { createModelSetup, type ModelSetup } from "../models/modelSetup";
import type { VscodeModels } from "../models/vscodeModels";
import type { SessionGate } from "./sessionGate";
import type { SessionTeamFiles } from "../tasks/teamRun";
import type { SessionEnv } from "../tasks/chatSession";
import { TaskStore } from "../tasks/taskStore";
import type { HostWorktrees } from "../worktrees/hostWorktrees";
import type { TaskTerminals } from "../terminal/taskTerminals";

export interface HostEnvOptions {
  context: vscode.ExtensionContext;
  keys: ApiKeyStore;
  log: Log;
  channel: vscode.LogOutputChannel;
  executor: Executor;
  /** Runs commands in the OS sandbox when the settings say so. */
  sandbox?: HostSandbox;
  /** MCP servers and their tools. */
  mcp?: HostMcp;
  gate: SessionGate;
  /** VS Code's language models (`fathom.provider: "vscode"`). */
  vscodeModels: VscodeModels;
  /** Tests: pretend the workspace is (not) trusted. */
  isTrusted?: () => boolean;
  /** Task worktrees of this workspace's repository. */
  worktrees?: HostWorktrees;
  /** The person's default for new tasks: in a worktree of their own. */
  worktreeByDefault?: () => boolean;
  /** One terminal per task ("Fathom: <title>"); without it, every task uses `executor`. */
  terminals?: TaskTerminals;
  /** The person's own terminals, for the `terminal_output` tool. */
  personTerminals?: PersonTerminals;
  /** The window's limit of tasks at once. */
  slots?: SessionEnv["slots"];
  /** The window's settings, key and model choice (one for all its tasks and one-shot requests). */
  models?: ModelSetup;
  /** The window plays the demo's recording ("Fathom: Try the Demo Task"): the chat says so. */
  demo?: boolean;
  /** Rules, prompt files, skills and custom agents (absent: none are read, as in the demo). */
  teamFiles?: SessionTeamFiles;
  /** The person's hooks, and a workspace's once approved. */
  hooks?: HostHooks;
  /** `/review`'s window side (../codeReview/registerReview.ts). */
  review?: SessionEnv["review"];
}

/** The folder tasks are saved in: the workspace's storage, or a shared one without a workspace. */
export function taskStorageDir(context: vscode.ExtensionContext): string {
  return context.storageUri?.fsPath ?? path.join(context.globalStorageUri.fsPath, "no-workspace");
}

/** The workspace root the agent works in (the first folder), if a folder is open. */
function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The files the agent sees: one folder as `/`, several as `/<folder name>/…`. */
export function fileBackend(): BackendProtocol {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return new FilesystemBackend({ rootDir: folders[0]!.uri.fsPath });
  const routes: Record<string, BackendProtocol> = {};
  for (const folder of folders) routes[`/${folder.name}`] = new FilesystemBackend({ rootDir: folder.uri.fsPath });
  return new CompositeBackend(null, routes);
}

/** A worktree's virtual paths as the files' URIs. */
function worktreeUris(root: string): (virtualPath: string) => vscode.Uri {
  return (p) => vscode.Uri.file(path.join(root, ...p.split("/").filter(Boolean)));
}

/** The session's surroundings in VS Code: settings, SecretStorage, trust, the terminal, diff review. */
export function createHostEnv(o: HostEnvOptions): SessionEnv {
  const store = new TaskStore(
    taskStorageDir(o.context),
    (text) => o.log.redact(text),
    (message) => o.log.error(message),
  );
  // User settings only (a repository could otherwise fill the disk); read at each use, so a change applies at once.
  const maxStorageBytes = () => {
    const mb = vscode.workspace.getConfiguration("fathom").inspect<number>("checkpoints.maxStorageMb")?.globalValue;
    return typeof mb === "number" && mb > 0 ? Math.round(mb * 1048576) : undefined;
  };
  const checkpoints = new CheckpointStore({
    dir: path.join(taskStorageDir(o.context), "checkpoints"),
    maxStorageBytes,
  });
  const checkpointTexts = new CheckpointTexts();
  /** Restores write where the task worked: its worktree, or the workspace. */
  const restoreBackend = (root?: string) =>
    root
      ? new EditorAwareBackend(new FilesystemBackend({ rootDir: root }), { log: o.channel, toUri: worktreeUris(root) })
      : new EditorAwareBackend(fileBackend(), { log: o.channel });
  return {
    store,
    checkpoints,
    restoreBackend,
    async currentText(virtualPath, root) {
      const now = await restoreBackend(root).currentText(virtualPath);
      return "error" in now ? undefined : now.text;
    },
    async compareCheckpoint(virtualPath, now, restored) {
      const uri = workspaceFileUri(virtualPath);
      if (!uri) return;
      // Left: the file itself (a live document) when it exists; right: what the restore writes.
      const left = now === null ? checkpointTexts.put(virtualPath, "", "absent now") : uri;
      const right = checkpointTexts.put(
        virtualPath,
        restored ?? "",
        restored === null ? "deleted by the restore" : "after the restore",
      );
      const name = path.posix.basename(virtualPath);
      const title =
        restored === null
          ? `${name} (now ↔ deleted by the restore)`
          : now === null
            ? `${name} (absent now ↔ recreated by the restore)`
            : `${name} (now ↔ after the restore)`;
      // Beside the chat, not in its place, and without taking the focus from it.
      await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: true, preserveFocus: true });
    },
    async compareChanges(virtualPath, base, created, root) {
      const uri = root ? worktreeUris(root)(virtualPath) : workspaceFileUri(virtualPath);
      if (!uri) return;
      // Left: the file at the task's start (read-only); right: the file itself, so Keep and Undo lenses show on it.
      const left = checkpointTexts.put(
        virtualPath,
        base,
        created ? "absent at the task's start" : "at the task's start",
      );
      const name = path.posix.basename(virtualPath);
      await vscode.commands.executeCommand("vscode.diff", left, uri, `${name} (task start ↔ now)`, { preview: true });
    },
    gate: o.gate,
    log: o.log,
    isTrusted: o.isTrusted ?? (() => vscode.workspace.isTrusted),
    // `npm run demo` starts VS Code with FATHOM_DEMO=1; the extension host inherits it.
    demo: o.demo === true || process.env.FATHOM_DEMO === "1",
    ...(o.models ?? createModelSetup(o)),
    ...(o.mcp ? { allowMcpToolAlways: (toolName: string) => o.mcp!.allowToolAlways(toolName) } : {}),
    sandboxState: (settings) => (o.sandbox ? o.sandbox.state(settings.sandbox) : "off"),
    ...(o.slots ? { slots: o.slots } : {}),
    ...(o.teamFiles ? { teamFiles: o.teamFiles } : {}),
    ...(o.review ? { review: o.review } : {}),
    ...(o.worktrees ? { taskRoot: async (taskId: string) => (await o.worktrees!.get(taskId))?.root } : {}),
    ...(o.worktrees
      ? {
          placeTask: (p) => placeTask(o.worktrees!, p, o.worktreeByDefault?.() ?? false),
          taskEnded: (taskId, reason) => void taskEndedIn(o.worktrees!, taskId, reason),
        }
      : {}),
    async createAgent(options) {
      // A task in its worktree sees that folder as `/`, and its editors are the worktree's files.
      const root = options.root ?? workspaceRoot()!;
      const inWorktree = options.root !== undefined;
      const toUri = inWorktree ? worktreeUris(root) : undefined;
      const backend = new EditorAwareBackend(inWorktree ? new FilesystemBackend({ rootDir: root }) : fileBackend(), {
        log: o.channel,
        ...(toUri ? { toUri } : {}),
      });
      const middleware: Middleware[] = [
        editFeedbackMiddleware({ log: o.log, ...(toUri ? { toUri } : {}) }),
        ...options.middleware,
      ];
      const checkpointed = { store: checkpoints, taskId: options.taskId, onError: (m: string) => o.log.warn(m) };
      void checkpoints
        .prune(options.taskId)
        .catch((e: unknown) => o.log.warn(`Checkpoints: could not prune: ${String(e)}`));
      // An inline edit needs no terminal, sandbox or MCP servers: it only proposes one file's change.
      if (options.inlineEdit)
        return createInlineEditAgent(
          { ...options, middleware, workspaceRoot: root, backend, checkpoints: checkpointed },
          options.inlineEdit,
        );
      const inner = o.terminals ? o.terminals.for(options.taskId, options.title) : o.executor;
      const executor = o.sandbox ? o.sandbox.executorFor(options.sandbox, options.taskId, inner) : inner;
      // MCP servers start with the first task that could use them (never at activation).
      const tools = o.mcp
        ? await o.mcp
            .tools(
              workspaceRoot()!,
              (o.isTrusted ?? (() => vscode.workspace.isTrusted))(),
              o.sandbox?.sandboxFor(options.sandbox),
            )
            .catch((e: unknown) => (o.log.error(`MCP: ${String(e)}`), []))
        : [];
      const mcp = o.mcp;
      const readMcpResource = mcp
        ? (server: string, uri: string, signal?: AbortSignal) => mcp.readResource(server, uri, signal)
        : undefined;
      const trusted = (o.isTrusted ?? (() => vscode.workspace.isTrusted))();
      // Hooks are read where the person works and run in the task's folder; a workspace's inside the sandbox.
      const hookSandbox = o.sandbox?.sandboxFor(options.sandbox);
      const hooks = o.hooks
        ? await o.hooks
            .forTask(workspaceRoot()!, { trusted, sandboxed: hookSandbox !== undefined })
            .catch((e: unknown) => (o.log.error(`Hooks: ${String(e)}`), []))
        : [];
      const memory = { folders: memoryFolders(workspaceRoot()!), allowWrites: memoryWritesAllowed(trusted) };
      // The web's consent is the sandbox's: the person's allowed domains (user settings) are read without asking.
      const webFetch = { allowDomains: options.sandbox.allowedDomains };
      return createAgent({
        ...options,
        middleware,
        workspaceRoot: root,
        backend,
        executor,
        tools,
        checkpoints: checkpointed,
        memory,
        webFetch,
        // VS Code's language servers see the workspace's files, not a worktree's copies.
        ...(inWorktree ? {} : { codeIntelligence: vscodeCodeIntelligence() }),
        ...(o.personTerminals ? { personTerminals: o.personTerminals } : {}),
        ...(hooks.length
          ? { hooks: { hooks, cwd: root, sessionId: options.taskId, ...(hookSandbox ? { sandbox: hookSandbox } : {}) } }
          : {}),
        ...(readMcpResource ? { readMcpResource } : {}),
      });
    },
  };
}

/** The task's worktree: made for a new task that asks for one, found again for one that has one. */
async function placeTask(
  worktrees: HostWorktrees,
  p: { taskId: string; title: string; worktree: boolean | undefined },
  byDefault: boolean,
): Promise<{ root?: string } | { error: string }> {
  const existing = await worktrees.get(p.taskId);
  if (existing) {
    if (!existing.exists)
      return {
        error: `This task ran in ${existing.path}, which is gone. Discard its worktree in the task list to clean up, or start a new task.`,
      };
    // Running in this window means a run that ended without saying so (it failed inside Fathom): take it up again.
    if (existing.state === "running" && existing.pid !== process.pid)
      return {
        error: "This task is running in another window (or the CLI). Continue it there, or wait for it to end.",
      };
    await worktrees.setStatus(p.taskId, "running");
    return { root: existing.root };
  }
  if (!(p.worktree ?? byDefault)) return {};
  const support = await worktrees.support();
  if (!support.ok)
    return p.worktree
      ? { error: `${support.reason} Start the task without a worktree (untick Worktree) to work in this folder.` }
      : {};
  try {
    return { root: (await worktrees.create(p.taskId, p.title)).root };
  } catch (e) {
    return { error: `Could not make the task's worktree: ${(e as Error).message}` };
  }
}

async function taskEndedIn(worktrees: HostWorktrees, taskId: string, reason: DoneReason): Promise<void> {
  if (await worktrees.get(taskId))
    await worktrees.setStatus(
      taskId,
      reason === "completed" ? "done" : reason === "cancelled" ? "cancelled" : "failed",
    );
}
