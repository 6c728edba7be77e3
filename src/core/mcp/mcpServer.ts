import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  CallToolResult,
  Resource as McpResourceInfo,
  Tool as McpToolInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpLib } from "../vendor/libraries";
import { z } from "zod";
import { describeServer, redactSecrets, type McpServerConfig } from "./config";
import { withLoginShellPath } from "./loginShellPath";
import { processTree, signalTree, waitForExit } from "./processTree";
import { readToolList } from "./toolSchemas";

export type McpServerState = "stopped" | "starting" | "ready" | "failed";

/** Keeps the last lines a server wrote to stderr, for the person and the log. */
const STDERR_LINES = 40;
/**
 * Stopping: a server gets this long to exit once its stdin is closed, then as long again after
 * SIGTERM before SIGKILL, with everything it started. Short, so that closing VS Code (which
 * waits only a few seconds for extensions) still ends them all.
 */
const STOP_GRACE_MS = 700;

/** `tools/list` read loosely: each tool is checked on its own (see toolSchemas.ts). */
const LooseToolListSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

export interface McpServerOptions {
  /** Wraps a stdio command for the OS sandbox: returns the command and arguments to spawn. */
  wrapCommand?: (command: string, args: string[]) => Promise<{ command: string; args: string[] }>;
  /** The environment stdio servers start from (the login shell's PATH, so `npx` under nvm works). */
  baseEnv?: NodeJS.ProcessEnv;
  onToolsChanged?: () => void;
  /** Starting, ready, failed, stopped: for a view of the servers. */
  onStateChange?: () => void;
  log?: (line: string) => void;
  /** Where a stdio server starts when its config names no cwd (the workspace). */
  cwd?: string;
}

/**
 * One MCP server, on the official TypeScript SDK: stdio, or Streamable HTTP falling back to
 * SSE. Starts when first needed, with the server's timeout; its stderr tail is kept; a call can
 * be cancelled (the SDK sends `notifications/cancelled`); `tools/list_changed` refreshes the list.
 */
export class McpServer {
  state: McpServerState = "stopped";
  /** Why it failed, with what to do. */
  problem: string | undefined;
  tools: McpToolInfo[] = [];
  /** Tools whose input schema was unusable (replaced by an empty one), and why. */
  schemaProblems = new Map<string, string>();
  /** What the person can attach with `@` (servers that offer resources). */
  resources: McpResourceInfo[] = [];
  readonly stderr: string[] = [];
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private stdio: StdioClientTransport | undefined;
  /** Restarts after a crash wait 1 s, 2 s, 4 s … up to 30 s. */
  private failures = 0;
  private retryAt = 0;

  constructor(
    /** Replaced when only its autoApprove list changes (the server keeps running). */
    public config: McpServerConfig,
    private readonly options: McpServerOptions = {},
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Starts the server (once; again after a failure) and lists its tools. */
  start(): Promise<void> {
    if (this.state === "ready") return Promise.resolve();
    const wait = this.retryAt - Date.now();
    if (this.state === "failed" && wait > 0 && !this.starting) {
      return Promise.reject(
        new Error(
          `${this.problem ?? `The MCP server "${this.name}" failed.`} It is started again in ${Math.ceil(wait / 1000)} s.`,
        ),
      );
    }
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.state = "starting";
    this.problem = undefined;
    this.options.onStateChange?.();
    const timeout = this.config.timeoutMs;
    let client: Client | undefined;
    try {
      client = await withTimeout(
        this.connectTransport((c) => (client = c)),
        timeout,
        `did not answer within ${Math.round(timeout / 1000)} s`,
      );
      client.setNotificationHandler(mcpLib().mcpTypes.ToolListChangedNotificationSchema, async () => {
        await this.refreshTools().catch((e: unknown) =>
          this.options.log?.(`${this.name}: could not refresh tools: ${String(e)}`),
        );
        this.options.onToolsChanged?.();
        this.options.onStateChange?.();
      });
      client.setNotificationHandler(mcpLib().mcpTypes.ResourceListChangedNotificationSchema, async () => {
        await this.refreshResources().catch((e: unknown) =>
          this.options.log?.(`${this.name}: could not refresh resources: ${String(e)}`),
        );
      });
      this.client = client;
      await this.refreshTools();
      // Resources are a convenience for `@`: a server that fails to list them still works.
      await this.refreshResources().catch((e: unknown) =>
        this.options.log?.(`${this.name}: could not list resources: ${String(e)}`),
      );
      this.state = "ready";
      this.failures = 0;
      this.options.onStateChange?.();
    } catch (error) {
      this.client = undefined;
      this.markFailed();
      const tail = this.stderr.slice(-3).join(" | ");
      this.problem = this.redact(
        `The MCP server "${this.name}" (${describeServer(this.config)}) could not start: ${(error as Error).message}${tail ? `. Its last output: ${tail}` : ""}`,
      );
      this.options.log?.(this.problem);
      await this.shutdown(client);
      throw new Error(this.problem, { cause: error });
    }
  }

  private newClient(): Client {
    return new (mcpLib().Client)({ name: "fathom", version: "0.1.0" }, { capabilities: {} });
  }

  /** Connects over the configured transport; `using` is told each client tried (to close it on a timeout). */
  private async connectTransport(using: (client: Client) => void): Promise<Client> {
    const client = this.newClient();
    using(client);
    if (this.config.transport === "stdio") {
      await client.connect(await this.stdioTransport());
      return client;
    }
    const url = new URL(this.config.url ?? "");
    const requestInit = { headers: this.config.headers };
    if (this.config.transport === "sse") {
      await client.connect(new (mcpLib().SSEClientTransport)(url, { requestInit }));
      return client;
    }
    try {
      await client.connect(new (mcpLib().StreamableHTTPClientTransport)(url, { requestInit }));
      return client;
    } catch (error) {
      // Older servers speak only the 2024 HTTP+SSE transport; a client connects only once.
      this.options.log?.(
        this.redact(
          `${this.name}: Streamable HTTP failed (${(error as Error).message.split("\n")[0]!.slice(0, 200)}); trying SSE`,
        ),
      );
      await client.close().catch(() => undefined);
      const sse = this.newClient();
      using(sse);
      await sse.connect(new (mcpLib().SSEClientTransport)(url, { requestInit }));
      return sse;
    }
  }

  private async stdioTransport(): Promise<Transport> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.options.baseEnv ?? (await withLoginShellPath())))
      if (v !== undefined) env[k] = v;
    if (this.config.envFile) Object.assign(env, readEnvFile(this.config.envFile));
    Object.assign(env, this.config.env);
    const command = this.config.command ?? "";
    const spawn = this.options.wrapCommand
      ? await this.options.wrapCommand(command, this.config.args)
      : { command, args: this.config.args };
    const transport = (this.stdio = new (mcpLib().StdioClientTransport)({
      command: spawn.command,
      args: spawn.args,
      env,
      ...(this.config.cwd || this.options.cwd ? { cwd: this.config.cwd || this.options.cwd } : {}),
      stderr: "pipe",
    }));
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) this.stderr.push(this.redact(line.trimEnd()));
      this.stderr.splice(0, Math.max(0, this.stderr.length - STDERR_LINES));
    });
    transport.onclose = () => {
      if (this.state === "ready") {
        this.markFailed();
        this.problem = `The MCP server "${this.name}" exited.${this.stderr.length ? ` Its last output: ${this.stderr.slice(-3).join(" | ")}` : ""}`;
        this.options.log?.(this.problem);
        this.client = undefined;
      }
    };
    return transport;
  }

  private markFailed(): void {
    this.state = "failed";
    queueMicrotask(() => this.options.onStateChange?.());
    this.failures++;
    this.retryAt = Date.now() + Math.min(30_000, 1000 * 2 ** (this.failures - 1));
  }

  /** The spawned process of a stdio server (tests kill it to check the restart). */
  get pid(): number | undefined {
    return this.stdio?.pid ?? undefined;
  }

  private async refreshTools(): Promise<void> {
    if (!this.client) return;
    const entries: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.request(
        { method: "tools/list", params: cursor ? { cursor } : {} },
        LooseToolListSchema,
        { timeout: this.config.timeoutMs },
      );
      entries.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && entries.length < 10_000);
    const { tools, schemaProblems, skipped } = readToolList(entries);
    for (const s of skipped) this.options.log?.(`${this.name}: ignored ${s} in its tool list`);
    for (const [tool, why] of schemaProblems)
      this.options.log?.(
        `${this.name}: the input schema of ${tool} is invalid (${why}); it is offered without parameters`,
      );
    const disabled = new Set(this.config.disabledTools);
    this.tools = tools.filter((t) => !disabled.has(t.name));
    this.schemaProblems = schemaProblems;
  }

  private async refreshResources(): Promise<void> {
    if (!this.client?.getServerCapabilities()?.resources) return;
    const resources: McpResourceInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listResources(cursor ? { cursor } : {}, { timeout: this.config.timeoutMs });
      resources.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor && resources.length < 2_000);
    this.resources = resources;
  }

  /** A resource's contents as text (binary parts are described), for an `@` mention. */
  async readResource(uri: string, signal?: AbortSignal): Promise<string> {
    if (this.state !== "ready") await this.start();
    const client = this.client;
    if (!client) throw new Error(this.problem ?? `The MCP server "${this.name}" is not running.`);
    const result = await client.readResource(
      { uri },
      { timeout: this.config.timeoutMs, ...(signal ? { signal } : {}) },
    );
    return result.contents
      .map((c) =>
        "text" in c && typeof c.text === "string"
          ? c.text
          : `[binary ${c.mimeType ?? "data"}, ${Math.round((((c as { blob?: string }).blob?.length ?? 0) * 0.75) / 1024)} KB: not attached]`,
      )
      .join("\n\n");
  }

  /** Calls a tool; a crash or timeout becomes an error result, and a cancel stops the call. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (this.state !== "ready") await this.start();
    const client = this.client;
    if (!client) throw new Error(this.problem ?? `The MCP server "${this.name}" is not running.`);
    return (await client.callTool({ name: tool, arguments: args }, undefined, {
      signal,
      timeout: this.config.timeoutMs,
    })) as CallToolResult;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.state = "stopped";
    this.retryAt = 0;
    await this.shutdown(client);
  }

  /**
   * Closes the connection and ends the server's whole process tree: stdin closed first (the
   * polite way), then SIGTERM, then SIGKILL, each after a short grace.
   */
  private async shutdown(client: Client | undefined): Promise<void> {
    const pid = this.stdio?.pid;
    this.stdio = undefined;
    const tree = pid ? processTree(pid) : [];
    const closing = client?.close().catch(() => undefined);
    if (tree.length > 0 && (await waitForExit(tree, STOP_GRACE_MS)).length > 0) {
      signalTree(tree, "SIGTERM");
      if ((await waitForExit(tree, STOP_GRACE_MS)).length > 0) signalTree(tree, "SIGKILL");
    }
    // The SDK's close waits for the process it spawned, which is gone by now.
    await Promise.race([closing, new Promise((r) => setTimeout(r, STOP_GRACE_MS).unref())]);
  }

  /** Ends the server's processes at once (synchronous, for an exiting process). */
  killNow(): void {
    const pid = this.stdio?.pid;
    if (pid) signalTree(processTree(pid), "SIGKILL");
  }

  private redact(text: string): string {
    return redactSecrets(text, this.config.secrets);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `KEY=value` lines (comments and `export` allowed), as in `.env` files. */
function readEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(
      `its envFile ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); create it or remove "envFile" from the configuration`,
      { cause: error },
    );
  }
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) out[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, "$2");
  }
  return out;
}
