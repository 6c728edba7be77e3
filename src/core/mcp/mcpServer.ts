import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Resource as McpResourceInfo,
  type Tool as McpToolInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { describeServer, type McpServerConfig } from "./config";
import { withLoginShellPath } from "./loginShellPath";

export type McpServerState = "stopped" | "starting" | "ready" | "failed";

/** Keeps the last lines a server wrote to stderr, for the person and the log. */
const STDERR_LINES = 40;

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
      return Promise.reject(new Error(`${this.problem ?? `The MCP server "${this.name}" failed.`} It is started again in ${Math.ceil(wait / 1000)} s.`));
    }
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.state = "starting";
    this.problem = undefined;
    this.options.onStateChange?.();
    const client = new Client({ name: "fathom", version: "0.1.0" }, { capabilities: {} });
    const timeout = this.config.timeoutMs;
    try {
      await withTimeout(this.connectTransport(client), timeout, `did not answer within ${Math.round(timeout / 1000)} s`);
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        await this.refreshTools().catch((e: unknown) => this.options.log?.(`${this.name}: could not refresh tools: ${String(e)}`));
        this.options.onToolsChanged?.();
        this.options.onStateChange?.();
      });
      client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
        await this.refreshResources().catch((e: unknown) => this.options.log?.(`${this.name}: could not refresh resources: ${String(e)}`));
      });
      this.client = client;
      await this.refreshTools();
      // Resources are a convenience for `@`: a server that fails to list them still works.
      await this.refreshResources().catch((e: unknown) => this.options.log?.(`${this.name}: could not list resources: ${String(e)}`));
      this.state = "ready";
      this.failures = 0;
      this.options.onStateChange?.();
    } catch (error) {
      this.markFailed();
      const tail = this.stderr.slice(-3).join(" | ");
      this.problem = `The MCP server "${this.name}" (${describeServer(this.config)}) could not start: ${(error as Error).message}${tail ? `. Its last output: ${tail}` : ""}`;
      this.options.log?.(this.problem);
      await client.close().catch(() => undefined);
      throw new Error(this.problem, { cause: error });
    }
  }

  private async connectTransport(client: Client): Promise<void> {
    if (this.config.transport === "stdio") {
      await client.connect(await this.stdioTransport());
      return;
    }
    const url = new URL(this.config.url ?? "");
    const requestInit = { headers: this.config.headers };
    if (this.config.transport === "sse") {
      await client.connect(new SSEClientTransport(url, { requestInit }));
      return;
    }
    try {
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
    } catch (error) {
      // Older servers speak only the 2024 HTTP+SSE transport.
      this.options.log?.(`${this.name}: Streamable HTTP failed (${(error as Error).message}); trying SSE`);
      await client.connect(new SSEClientTransport(url, { requestInit }));
    }
  }

  private async stdioTransport(): Promise<Transport> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.options.baseEnv ?? (await withLoginShellPath()))) if (v !== undefined) env[k] = v;
    if (this.config.envFile) Object.assign(env, readEnvFile(this.config.envFile));
    Object.assign(env, this.config.env);
    const command = this.config.command ?? "";
    const spawn = this.options.wrapCommand ? await this.options.wrapCommand(command, this.config.args) : { command, args: this.config.args };
    const transport = (this.stdio = new StdioClientTransport({ command: spawn.command, args: spawn.args, env, ...(this.config.cwd || this.options.cwd ? { cwd: this.config.cwd || this.options.cwd } : {}), stderr: "pipe" }));
    transport.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) this.stderr.push(line.trimEnd());
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
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : {}, { timeout: this.config.timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < 10_000);
    const disabled = new Set(this.config.disabledTools);
    this.tools = tools.filter((t) => !disabled.has(t.name));
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
    const result = await client.readResource({ uri }, { timeout: this.config.timeoutMs, ...(signal ? { signal } : {}) });
    return result.contents
      .map((c) => ("text" in c && typeof c.text === "string" ? c.text : `[binary ${c.mimeType ?? "data"}, ${Math.round(((c as { blob?: string }).blob?.length ?? 0) * 0.75 / 1024)} KB: not attached]`))
      .join("\n\n");
  }

  /** Calls a tool; a crash or timeout becomes an error result, and a cancel stops the call. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (this.state !== "ready") await this.start();
    const client = this.client;
    if (!client) throw new Error(this.problem ?? `The MCP server "${this.name}" is not running.`);
    return (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.config.timeoutMs })) as CallToolResult;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.state = "stopped";
    this.retryAt = 0;
    await client?.close().catch(() => undefined);
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
  } catch {
    return out;
  }
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) out[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, "$2");
  }
  return out;
}
