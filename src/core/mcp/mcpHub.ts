import { shellQuote } from "../trust/shellCommand";
import { existsSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import type { CommandSandbox } from "../executor/sandbox";
import { killSandboxLeftovers } from "../executor/sandboxLeftovers";
import {
  expandVariables,
  parseMcpConfig,
  type McpConfigProblem,
  type McpServerConfig,
  type VariableContext,
} from "./config";
import { McpServer } from "./mcpServer";
import { MAX_MCP_TOOLS, mcpTools } from "./mcpTools";

/** Fathom's own user-level MCP file (`$XDG_CONFIG_HOME/fathom/mcp.json`). */
export function userMcpConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return nodePath.join(env.XDG_CONFIG_HOME || nodePath.join(os.homedir(), ".config"), "fathom", "mcp.json");
}

/** The workspace's own MCP files: VS Code's and the common `.mcp.json`. Written by a stranger. */
export function workspaceMcpConfigPaths(root: string): string[] {
  return [nodePath.join(root, ".vscode", "mcp.json"), nodePath.join(root, ".mcp.json")].filter((f) => existsSync(f));
}

export interface LoadedMcpConfig {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
  /** The `${input:id}` prompts the files declare (VS Code's `inputs`), with the file that declares each. */
  inputs: { file: string; id: string; description?: string; password?: boolean }[];
}

/**
 * Reads config files (missing ones are skipped); a later file's server replaces an earlier one
 * of the same name. A file in `untrusted` (the workspace's own) may define servers but not let
 * their tools run unasked: its autoApprove lists are dropped, and said. `"sandbox": false` counts
 * only in `mayLeaveSandbox` (the person's own file): elsewhere it is dropped, and said.
 */
export function loadMcpConfigs(
  files: readonly string[],
  vars: VariableContext,
  o: { untrusted?: readonly string[]; mayLeaveSandbox?: readonly string[] } = {},
): LoadedMcpConfig {
  const byName = new Map<string, McpServerConfig>();
  const problems: McpConfigProblem[] = [];
  const inputs: LoadedMcpConfig["inputs"] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        problems.push({ file, message: `Cannot read it: ${(error as Error).message}` });
      continue;
    }
    const parsed = parseMcpConfig(text, file);
    problems.push(...parsed.problems);
    inputs.push(...parsed.inputs.map((i) => ({ file, ...i })));
    for (const raw of parsed.servers) {
      if (raw.sandbox === false && !o.mayLeaveSandbox?.includes(file)) {
        delete raw.sandbox;
        problems.push({
          file,
          server: raw.name,
          message: `Server "${raw.name}" asks to start outside the OS sandbox ("sandbox": false); only your own ${userMcpConfigPath()} may say that, so it starts inside the sandbox.`,
        });
      }
      const { server, unresolved } = expandVariables(raw, vars);
      if (unresolved.length > 0) {
        const hint = unresolved.some((u) => u.startsWith("${input:"))
          ? " (an input is asked for in VS Code; elsewhere put the value in an environment variable and use ${env:NAME})"
          : "";
        problems.push({
          file,
          server: raw.name,
          message: `Server "${raw.name}" uses ${unresolved.join(", ")}, which has no value here${hint}; it was not started.`,
        });
        continue;
      }
      if (o.untrusted?.includes(file) && server.autoApprove.length > 0) {
        problems.push({
          file,
          server: raw.name,
          message: `Server "${raw.name}" lists tools to run without asking (${server.autoApprove.join(", ")}); a workspace's file cannot allow that, so they are asked. To allow them, use "Always allow" on a card or your own MCP file.`,
        });
        server.autoApprove = [];
      }
      byName.set(server.name, server);
    }
  }
  return { servers: [...byName.values()], problems, inputs };
}

/** An MCP resource the person can mention as `@mcp:<server>:<uri>`. */
export interface McpResourceRef {
  server: string;
  uri: string;
  name: string;
  mimeType?: string;
}

export interface McpHubOptions {
  /** Stdio servers start inside this OS sandbox (the workspace writable, no network). */
  sandbox?: CommandSandbox;
  workspaceRoot: string;
  log?: (line: string) => void;
  /** A server started, failed, stopped or changed its tools. */
  onChange?: () => void;
}

/**
 * The servers of a run: started in parallel, their tools (at most 1,000 in all; 128 per
 * request), stopped together. A disabled server is listed but never started; the person can
 * enable or disable one while the hub runs.
 */
export class McpHub {
  readonly servers: McpServer[] = [];
  private readonly enabled = new Set<string>();
  /** However this process ends (process.exit, a second Ctrl-C), its servers end with it. */
  private readonly onExit = () => this.killNow();
  /** The tag in the command line of each sandboxed server's processes (its latest start). */
  private readonly tags = new Map<McpServer, string>();

  constructor(
    configs: readonly McpServerConfig[],
    private readonly options: McpHubOptions,
  ) {
    this.update(configs);
    process.on("exit", this.onExit);
  }

  /** Kills every server's processes now (synchronous). */
  killNow(): void {
    for (const server of this.servers) server.killNow();
  }

  /**
   * Takes a new set of configs: servers removed or changed are stopped (a changed one is
   * replaced), new ones added; the others keep running.
   */
  update(configs: readonly McpServerConfig[]): void {
    const next = new Map(configs.map((c) => [c.name, c]));
    for (const server of [...this.servers]) {
      const config = next.get(server.name);
      if (
        config &&
        JSON.stringify({ ...config, autoApprove: [] }) === JSON.stringify({ ...server.config, autoApprove: [] })
      ) {
        // Only which tools run unasked changed: no restart needed.
        server.config = config;
        continue;
      }
      void this.halt(server);
      this.servers.splice(this.servers.indexOf(server), 1);
      this.enabled.delete(server.name);
    }
    for (const config of configs) {
      if (this.servers.some((s) => s.name === config.name)) continue;
      this.servers.push(this.serverFor(config));
      if (!config.disabled) this.enabled.add(config.name);
    }
  }

  /**
   * Stops a server, and kills what its sandbox left if it was stopped while bubblewrap was still
   * setting up (see executor/sandboxLeftovers.ts).
   */
  private async halt(server: McpServer): Promise<void> {
    await server.stop();
    const tag = this.tags.get(server);
    if (tag) await killSandboxLeftovers(tag);
  }

  private serverFor(config: McpServerConfig): McpServer {
    const { sandbox, log, onChange, workspaceRoot } = this.options;
    if (sandbox && config.sandbox === false && config.transport === "stdio")
      log?.(`"${config.name}" starts outside the OS sandbox, as ${config.source} says ("sandbox": false)`);
    const server: McpServer = new McpServer(config, {
      cwd: workspaceRoot,
      ...(log ? { log } : {}),
      ...(onChange ? { onStateChange: onChange } : {}),
      // A server the person's own file marks "sandbox": false starts with their full rights.
      ...(sandbox && config.sandbox !== false
        ? {
            wrapCommand: async (command: string, args: string[]) => {
              const wrapped = await sandbox.wrap(
                [command, ...args].map(shellQuote).join(" "),
                config.cwd ?? workspaceRoot,
              );
              this.tags.set(server, wrapped.tag);
              return { command: "/bin/sh", args: ["-c", wrapped.command] };
            },
          }
        : {}),
    });
    return server;
  }

  isEnabled(name: string): boolean {
    return this.enabled.has(name);
  }

  /** Starts every enabled server at once; returns the problems of those that failed (the others work). */
  async start(): Promise<string[]> {
    const results = await Promise.allSettled(
      this.servers.filter((s) => this.enabled.has(s.name)).map((s) => s.start()),
    );
    return results.flatMap((r) => (r.status === "rejected" ? [(r.reason as Error).message] : []));
  }

  /** Tools of the ready, enabled servers; `dropped` counts those over the limit. */
  tools(limit = MAX_MCP_TOOLS): ReturnType<typeof mcpTools> {
    return mcpTools(
      this.servers.filter((s) => s.state === "ready" && this.enabled.has(s.name)),
      limit,
    );
  }

  /** Resources of the ready, enabled servers, for `@` mentions. */
  resources(): McpResourceRef[] {
    return this.servers
      .filter((s) => s.state === "ready" && this.enabled.has(s.name))
      .flatMap((s) =>
        s.resources.map((r) => ({
          server: s.name,
          uri: r.uri,
          name: r.title ?? r.name,
          ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        })),
      );
  }

  /** Reads a resource of an enabled server (started if needed). */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<string> {
    const found = this.servers.find((s) => s.name === server && this.enabled.has(s.name));
    if (!found) return Promise.reject(new Error(`No enabled MCP server is named "${server}".`));
    return found.readResource(uri, signal);
  }

  /** Enables (and starts) or disables (and stops) a server; returns why it failed to start, if it did. */
  async setEnabled(name: string, on: boolean): Promise<string | undefined> {
    const server = this.servers.find((s) => s.name === name);
    if (!server) return undefined;
    if (!on) {
      this.enabled.delete(name);
      await this.halt(server);
      this.options.onChange?.();
      return undefined;
    }
    this.enabled.add(name);
    this.options.onChange?.();
    return server.start().then(
      () => undefined,
      (error: Error) => error.message,
    );
  }

  /** Stops every server and what it started, for good (the window or the CLI is closing). */
  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => this.halt(s)));
    process.off("exit", this.onExit);
  }

  /** Stops a server and starts it again now (the person's Restart). */
  async restart(name: string): Promise<void> {
    const server = this.servers.find((s) => s.name === name);
    if (!server || !this.enabled.has(name)) return;
    await this.halt(server);
    await server.start().catch(() => undefined);
  }
}
