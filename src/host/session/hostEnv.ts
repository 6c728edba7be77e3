import * as path from "node:path";
import * as vscode from "vscode";
import {
  CheckpointStore,
  CompositeBackend,
  FilesystemBackend,
  createAgent,
  createModel,
  type BackendProtocol,
  type Executor,
  type Middleware,
} from "../../core";
import { keyAllowedFor, type ApiKeyStore } from "../apiKeys";
import type { Log } from "../log";
import { EditorAwareBackend, editFeedbackMiddleware, workspaceFileUri } from "../review";
import { CheckpointTexts } from "../review/checkpointTexts";
import { endpointOrigin, providerName, readSettings, setupProblemFor, type FathomSettings } from "../settings";
import type { HostSandbox } from "../terminal/hostSandbox";
import type { HostMcp } from "../mcp/hostMcp";
import type { SessionGate } from "./sessionGate";
import type { SessionEnv } from "./chatSession";
import { TaskStore } from "./taskStore";

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
  /** Tests: pretend the workspace is (not) trusted. */
  isTrusted?: () => boolean;
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
function fileBackend(): BackendProtocol {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return new FilesystemBackend({ rootDir: folders[0]!.uri.fsPath });
  const routes: Record<string, BackendProtocol> = {};
  for (const folder of folders) routes[`/${folder.name}`] = new FilesystemBackend({ rootDir: folder.uri.fsPath });
  return new CompositeBackend(null, routes);
}

/** The session's surroundings in VS Code: settings, SecretStorage, trust, the terminal, diff review. */
export function createHostEnv(o: HostEnvOptions): SessionEnv {
  const warnedIgnored = new Set<string>();
  /** Once per window: a workspace tried to set what only the person may set. */
  const warnIgnored = (settings: FathomSettings) => {
    const fresh = settings.ignoredFromWorkspace.filter((key) => !warnedIgnored.has(key));
    if (fresh.length === 0) return;
    for (const key of fresh) warnedIgnored.add(key);
    const message = `Fathom ignored ${fresh.join(", ")} from this workspace's settings: only your user settings can turn on auto-approval, allow commands or change where requests (and your key) go.`;
    o.log.warn(message);
    void vscode.window.showWarningMessage(message);
  };
  const store = new TaskStore(taskStorageDir(o.context), (text) => o.log.redact(text), (message) => o.log.error(message));
  const maxStorageMb = vscode.workspace.getConfiguration("fathom").inspect<number>("checkpoints.maxStorageMb")?.globalValue;
  const checkpoints = new CheckpointStore({ dir: path.join(taskStorageDir(o.context), "checkpoints"), ...(maxStorageMb && maxStorageMb > 0 ? { maxStorageBytes: maxStorageMb * 1048576 } : {}) });
  const checkpointTexts = new CheckpointTexts();
  const restoreBackend = () => new EditorAwareBackend(fileBackend(), { log: o.channel });
  return {
    store,
    checkpoints,
    restoreBackend,
    async compareCheckpoint(virtualPath, text) {
      const uri = workspaceFileUri(virtualPath);
      if (!uri) return;
      const before = checkpointTexts.put(virtualPath, text ?? "");
      // Beside the chat, not in its place, and without taking the focus from it.
      await vscode.commands.executeCommand("vscode.diff", before, uri, `${path.posix.basename(virtualPath)} (checkpoint ↔ now)`, { preview: true, preserveFocus: true });
    },
    gate: o.gate,
    log: o.log,
    isTrusted: o.isTrusted ?? (() => vscode.workspace.isTrusted),
    // `npm run demo` starts VS Code with FATHOM_DEMO=1; the extension host inherits it.
    demo: process.env.FATHOM_DEMO === "1",
    async readSetup() {
      const settings = readSettings(vscode.workspace.getConfiguration("fathom"));
      warnIgnored(settings);
      const stored = await o.keys.get(settings.provider);
      o.log.addSecret(stored?.key);
      const origin = endpointOrigin(settings.provider, settings.baseUrl);
      // A stored key goes only where it was saved for, or where the person has said yes to.
      const apiKey = stored && keyAllowedFor(stored, origin) ? stored.key : undefined;
      const problem = !workspaceRoot()
        ? { message: "Open a folder (File > Open Folder) to work with Fathom: it reads, edits and runs commands in a workspace." }
        : stored && !apiKey
          ? {
              message: `Your ${providerName(settings.provider)} API key was saved for ${stored.origins.join(", ") || "another host"}, and Base Url now points to ${origin}. Fathom sends it there only once you confirm that host; or set another key for it.`,
              action: "fathom.allowKeyForHost" as const,
              actionLabel: `Send Key to ${new URL(origin).host}`,
            }
          : setupProblemFor(settings, Boolean(apiKey));
      return { settings, ...(apiKey ? { apiKey } : {}), problem };
    },
    createModel(settings, apiKey) {
      return createModel({ provider: settings.provider, model: settings.model, baseUrl: settings.baseUrl, ...(apiKey ? { apiKey } : {}) });
    },
    ...(o.mcp ? { allowMcpToolAlways: (toolName: string) => o.mcp!.allowToolAlways(toolName) } : {}),
    sandboxState: (settings) => (o.sandbox ? o.sandbox.state(settings.sandbox) : "off"),
    async createAgent(options) {
      const root = workspaceRoot()!;
      const backend = new EditorAwareBackend(fileBackend(), { log: o.channel });
      const middleware: Middleware[] = [editFeedbackMiddleware({ notes: backend }), ...options.middleware];
      const executor = o.sandbox ? o.sandbox.executorFor(options.sandbox, options.taskId) : o.executor;
      // MCP servers start with the first task that could use them (never at activation).
      const tools = o.mcp ? await o.mcp.tools(root, (o.isTrusted ?? (() => vscode.workspace.isTrusted))(), o.sandbox?.sandboxFor(options.sandbox)).catch((e: unknown) => (o.log.error(`MCP: ${String(e)}`), [])) : [];
      const mcp = o.mcp;
      const readMcpResource = mcp ? (server: string, uri: string, signal?: AbortSignal) => mcp.readResource(server, uri, signal) : undefined;
      const checkpointed = { store: checkpoints, taskId: options.taskId, onError: (m: string) => o.log.warn(m) };
      void checkpoints.prune(options.taskId).catch((e: unknown) => o.log.warn(`Checkpoints: could not prune: ${String(e)}`));
      return createAgent({ ...options, middleware, workspaceRoot: root, backend, executor, tools, checkpoints: checkpointed, ...(readMcpResource ? { readMcpResource } : {}) });
    },
  };
}
