import { existsSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import type { CommandSandbox } from "../executor/sandbox";
import type { Tool } from "../tools/tool";
import { expandVariables, parseMcpConfig, type McpConfigProblem, type McpServerConfig, type VariableContext } from "./config";
import { McpServer } from "./mcpServer";
import { MAX_TOOLS, mcpTools } from "./mcpTools";

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
}

/** Reads config files (missing ones are skipped); a later file's server replaces an earlier one of the same name. */
export function loadMcpConfigs(files: readonly string[], vars: VariableContext): LoadedMcpConfig {
  const byName = new Map<string, McpServerConfig>();
  const problems: McpConfigProblem[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") problems.push({ file, message: `Cannot read it: ${(error as Error).message}` });
      continue;
    }
    const parsed = parseMcpConfig(text, file);
    problems.push(...parsed.problems);
    for (const raw of parsed.servers) {
      const { server, unresolved } = expandVariables(raw, vars);
      if (unresolved.length > 0) {
        problems.push({ file, server: raw.name, message: `Server "${raw.name}" uses ${unresolved.join(", ")}, which has no value here; it was not started.` });
        continue;
      }
      byName.set(server.name, server);
    }
  }
  return { servers: [...byName.values()], problems };
}

export interface McpHubOptions {
  /** Stdio servers start inside this OS sandbox (the workspace writable, no network). */
  sandbox?: CommandSandbox;
  workspaceRoot: string;
  log?: (line: string) => void;
  /** A server started, failed, stopped or changed its tools. */
  onChange?: () => void;
}

/** The servers of a run: started in parallel, their tools (at most 128 in all), stopped together. */
export class McpHub {
  readonly servers: McpServer[];

  constructor(configs: readonly McpServerConfig[], private readonly options: McpHubOptions) {
    const sandbox = options.sandbox;
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    this.servers = configs
      .filter((c) => !c.disabled)
      .map(
        (config) =>
          new McpServer(config, {
            ...(options.log ? { log: options.log } : {}),
            ...(options.onChange ? { onStateChange: options.onChange } : {}),
            ...(sandbox
              ? {
                  wrapCommand: async (command: string, args: string[]) => ({
                    command: "/bin/sh",
                    args: ["-c", (await sandbox.wrap([command, ...args].map(quote).join(" "), config.cwd ?? options.workspaceRoot)).command],
                  }),
                }
              : {}),
          }),
      );
  }

  /** Starts every server at once; returns the problems of those that failed (the others work). */
  async start(): Promise<string[]> {
    const results = await Promise.allSettled(this.servers.map((s) => s.start()));
    return results.flatMap((r) => (r.status === "rejected" ? [(r.reason as Error).message] : []));
  }

  /** Tools of the ready servers; `dropped` counts those over the limit. */
  tools(limit = MAX_TOOLS): { tools: Tool[]; dropped: number } {
    return mcpTools(this.servers.filter((s) => s.state === "ready"), limit);
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
  }

  /** Stops a server and starts it again now (the person's Restart). */
  async restart(name: string): Promise<void> {
    const server = this.servers.find((s) => s.name === name);
    if (!server) return;
    await server.stop();
    await server.start().catch(() => undefined);
  }
}
