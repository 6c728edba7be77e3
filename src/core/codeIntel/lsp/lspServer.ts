import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import type { MessageConnection } from "vscode-jsonrpc";
import type * as lsp from "vscode-languageserver-protocol";
import type { CommandSandbox } from "../../executor/sandbox";
import { killSandboxLeftovers } from "../../executor/sandboxLeftovers";
import { processTree, signalTree, waitForExit, type ProcessRef } from "../../mcp/processTree";
import { shellQuote } from "../../trust/shellCommand";
import { lspLib } from "../../vendor/libraries";
import type { LanguageServerSpec } from "./languageServers";

/** Lines of the server's stderr kept to explain a crash. */
const STDERR_LINES = 20;
/** How long a polite shutdown may take before the process is signalled. */
const STOP_GRACE_MS = 1_500;

export type LspFailure = { error: string; failure: "timeout" | "exited" | "cancelled" | "refused" };

export interface LspServerOptions {
  spec: LanguageServerSpec;
  /** Absolute workspace root: the server's working directory and its only workspace folder. */
  root: string;
  /** Starts the server inside it (the workspace writable, no network), as any command. */
  sandbox?: CommandSandbox;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  onDiagnostics(params: lsp.PublishDiagnosticsParams): void;
}

/**
 * One language server process and its LSP connection over stdio (vscode-languageserver-protocol
 * types them, vscode-jsonrpc frames them). Started inside the OS sandbox when there is one; stopped politely
 * (shutdown, exit) and then, whatever is left of its process tree, signalled and killed, with
 * the sandbox's leftovers found by their tag. Every request has a time limit.
 */
export class LspServer {
  private readonly stderr: string[] = [];
  private exitNote: string | undefined;
  private readonly exited: Promise<void>;
  private readonly onProcessExit = () => this.killNow();
  /** The process tree, as last seen alive (a sandboxed server's real process is a grandchild). */
  private tree: ProcessRef[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
    private readonly o: LspServerOptions,
    private readonly tag: string | undefined,
  ) {
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.exitNote = `exited (${signal ?? `code ${code}`})`;
        resolve();
      }),
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) this.stderr.push(line.trimEnd().slice(0, 300));
      this.stderr.splice(0, Math.max(0, this.stderr.length - STDERR_LINES));
    });
    process.on("exit", this.onProcessExit);
  }

  /** Spawns the server and initializes it; throws an Error whose message is written for the model. */
  static async start(o: LspServerOptions, timeoutMs: number): Promise<LspServer> {
    const { spec, root, sandbox } = o;
    let command = spec.command;
    let args = spec.args;
    let tag: string | undefined;
    if (sandbox) {
      const wrapped = await sandbox.wrap([spec.command, ...spec.args].map(shellQuote).join(" "), root);
      command = "/bin/sh";
      args = ["-c", wrapped.command];
      tag = wrapped.tag;
    }
    const child = spawn(command, args, { cwd: root, env: o.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    const spawned = await new Promise<Error | undefined>((resolve) => {
      child.once("spawn", () => resolve(undefined));
      child.once("error", resolve);
    });
    if (spawned) throw new Error(`${spec.name} could not start: ${spawned.message}`);
    // A server that dies mid-write must not take the run down with an unhandled EPIPE.
    child.stdin?.on("error", () => undefined);
    const lib = lspLib();
    const connection = lib.createMessageConnection(
      new lib.StreamMessageReader(child.stdout!),
      new lib.StreamMessageWriter(child.stdin!),
    );
    const server = new LspServer(child, connection, o, tag);
    connection.onNotification("textDocument/publishDiagnostics", (params: lsp.PublishDiagnosticsParams) =>
      o.onDiagnostics(params),
    );
    // What a server asks of its client: settings (none: its defaults), registrations, progress.
    connection.onRequest("workspace/configuration", (params: lsp.ConfigurationParams) => params.items.map(() => null));
    connection.onRequest("workspace/workspaceFolders", () => [{ uri: rootUri(root), name: "workspace" }]);
    for (const method of ["client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create"])
      connection.onRequest(method, () => null);
    // A server that answers before it has found the workspace's files (pyright) says when it has.
    const ready = spec.readyMessage;
    const found = ready
      ? new Promise<void>((resolve) =>
          connection.onNotification("window/logMessage", (p: lsp.LogMessageParams) => {
            if (ready.test(p.message)) resolve();
          }),
        )
      : undefined;
    connection.onError(([error]) => o.log?.(`${spec.name}: ${error.message}`));
    connection.listen();
    const init = await server.request<lsp.InitializeResult>("initialize", initializeParams(o), { timeoutMs });
    if ("error" in init) {
      // A server that exits at once fails the write first (EPIPE): its exit and last words say more.
      await Promise.race([server.exited, new Promise((r) => setTimeout(r, 1_000).unref())]);
      await new Promise((r) => setTimeout(r, 100));
      const why = server.running ? init.error : server.exitReason;
      await server.stop();
      throw new Error(`${spec.name} did not start: ${why}`);
    }
    await connection.sendNotification("initialized", {});
    if (found) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([found, server.exited, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
      clearTimeout(timer);
    }
    server.tree = processTree(child.pid!);
    o.log?.(`${spec.name} started (pid ${child.pid}${sandbox ? ", in the OS sandbox" : ""})`);
    return server;
  }

  /** The spawned process (the sandbox's shell when sandboxed). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The processes of this server now (tests check none is left after a run). */
  processes(): ProcessRef[] {
    return this.child.pid ? processTree(this.child.pid) : [];
  }

  get running(): boolean {
    return this.exitNote === undefined;
  }

  /** Why it is not running, with its last words. */
  get exitReason(): string {
    const last = this.stderr.slice(-3).join(" | ");
    return `${this.o.spec.name} ${this.exitNote ?? "stopped"}${last ? ` (its last output: ${last})` : ""}`;
  }

  async request<R>(
    method: string,
    params: unknown,
    o: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ value: R } | LspFailure> {
    if (!this.running) return { error: this.exitReason, failure: "exited" };
    if (o.signal?.aborted) return { error: "cancelled", failure: "cancelled" };
    const source = new (lspLib().CancellationTokenSource)();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<LspFailure>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            error: `${this.o.spec.name} did not answer ${method} within ${Math.round(o.timeoutMs / 1000)} s`,
            failure: "timeout",
          }),
        o.timeoutMs,
      );
      onAbort = () => resolve({ error: "cancelled", failure: "cancelled" });
      o.signal?.addEventListener("abort", onAbort, { once: true });
      void this.exited.then(() => resolve({ error: this.exitReason, failure: "exited" }));
    });
    const answered = this.connection.sendRequest<R>(method, params, source.token).then(
      (value): { value: R } => ({ value }),
      (error: unknown): LspFailure =>
        this.running
          ? { error: (error as Error).message ?? String(error), failure: "refused" }
          : { error: this.exitReason, failure: "exited" },
    );
    try {
      const r = await Promise.race([answered, stopped]);
      if ("failure" in r && (r.failure === "timeout" || r.failure === "cancelled")) source.cancel();
      return r;
    } finally {
      clearTimeout(timer);
      if (onAbort) o.signal?.removeEventListener("abort", onAbort);
      source.dispose();
    }
  }

  notify(method: string, params: unknown): void {
    if (this.running) void this.connection.sendNotification(method, params).catch(() => undefined);
  }

  /**
   * Shutdown and exit (the polite way, briefly), then SIGTERM and SIGKILL to whatever of its
   * process tree is left, then the sandbox's leftovers by tag: no orphan survives the task.
   */
  async stop(): Promise<void> {
    process.off("exit", this.onProcessExit);
    const tree = this.running && this.child.pid ? processTree(this.child.pid) : this.tree;
    if (this.running) {
      const bye = await this.request("shutdown", null, { timeoutMs: STOP_GRACE_MS });
      if (!("error" in bye)) this.notify("exit", null);
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, STOP_GRACE_MS).unref())]);
    }
    this.connection.dispose();
    const left = await waitForExit(tree, 100);
    if (left.length > 0) {
      signalTree(left, "SIGTERM");
      if ((await waitForExit(left, STOP_GRACE_MS)).length > 0) signalTree(left, "SIGKILL");
    }
    if (this.running) this.child.kill("SIGKILL");
    if (this.tag) await killSandboxLeftovers(this.tag);
  }

  /** Kills its processes at once (synchronous, for an exiting process). */
  killNow(): void {
    const tree = this.child.pid ? processTree(this.child.pid) : [];
    signalTree(tree.length ? tree : this.tree, "SIGKILL");
  }
}

function rootUri(root: string): string {
  return pathToFileURL(root).href;
}

function initializeParams(o: LspServerOptions): lsp.InitializeParams {
  const uri = rootUri(o.root);
  return {
    // Not our pid: inside the sandbox's PID namespace it would name no process, and the server would quit.
    processId: null,
    clientInfo: { name: "Fathom" },
    rootUri: uri,
    workspaceFolders: [{ uri, name: "workspace" }],
    ...(o.spec.initializationOptions ? { initializationOptions: o.spec.initializationOptions } : {}),
    capabilities: {
      workspace: {
        workspaceFolders: true,
        configuration: true,
        symbol: {},
        workspaceEdit: { documentChanges: true, resourceOperations: ["create", "rename", "delete"] },
      },
      textDocument: {
        synchronization: { dynamicRegistration: false, didSave: false },
        definition: { linkSupport: true },
        references: {},
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        hover: { contentFormat: ["markdown", "plaintext"] },
        rename: { prepareSupport: false },
        publishDiagnostics: { relatedInformation: false, versionSupport: true },
      },
    },
  };
}
