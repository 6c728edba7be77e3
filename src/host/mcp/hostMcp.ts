import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import * as nodePath from "node:path";
import * as vscode from "vscode";
import type { McpServerView } from "../../protocol";
import {
  McpHub,
  definitionText,
  describeServer,
  withAutoApprovedTool,
  loadMcpConfigs,
  userMcpConfigPath,
  workspaceMcpConfigPaths,
  type CommandSandbox,
  type McpServerConfig,
  type Tool,
} from "../../core";
import type { Log } from "../log";
import { McpInputs } from "./mcpInputs";

const TRUSTED_KEY = "fathom.mcp.trustedServers";
/** Server name → disabled, as the person set it in the "MCP servers" list. */
const DISABLED_KEY = "fathom.mcp.disabledServers";

const TEMPLATE = `{
  // MCP servers for Fathom, in the common "mcpServers" shape (Claude Desktop, Cline, Cursor).
  // The Fathom CLI reads this file too. Example:
  // "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"] },
  // "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:remote-token}" } }
  "mcpServers": {}
}
`;

/** A configured server that is not running: disabled, or not started yet (or declined). */
function view(config: McpServerConfig, off: Record<string, boolean>): McpServerView {
  const disabled = off[config.name] ?? config.disabled;
  return {
    name: config.name,
    state: disabled ? "disabled" : "stopped",
    tools: 0,
    schemaChars: 0,
    source: config.source,
  };
}

/**
 * MCP in VS Code: the person's own file (~/.config/fathom/mcp.json, shared with the CLI) and
 * the workspace's `.vscode/mcp.json` and `.mcp.json`. Servers start when a task first needs
 * them, not at activation. A server the workspace defines starts only after the person approves
 * its resolved command line or URL (remembered per definition: a changed one asks again), and
 * never in Restricted Mode. `${input:id}` values are asked once and kept in SecretStorage.
 */
export class HostMcp implements vscode.Disposable {
  private hub: McpHub | undefined;
  private sandboxMode = "";
  /** The last task's workspace, trust and sandbox: enabling a server reloads with them. */
  private lastRequest: { root: string; trusted: boolean; sandbox: CommandSandbox | undefined } | undefined;
  /** Problems already shown to the person in this window. */
  private readonly warned = new Set<string>();
  /** What the configs define, for the list before the servers start. */
  private listed: McpServerConfig[] = [];
  /** Workspace servers the person declined in this window (not asked again until reload). */
  private readonly declined = new Set<string>();

  /** Told whenever the servers' states change (the "MCP servers" list). */
  onChange: ((servers: McpServerView[]) => void) | undefined;

  private readonly watcher: vscode.FileSystemWatcher;
  private readonly inputs: McpInputs;
  private listedFor: { root: string | undefined; trusted: boolean } = { root: undefined, trusted: false };

  /** `log` redacts (and keeps recent lines); `channel` is the same log, to show it. */
  constructor(private readonly o: { context: vscode.ExtensionContext; log: Log; channel: vscode.LogOutputChannel }) {
    this.inputs = new McpInputs(o.context.secrets, o.log);
    // The list follows edits to the person's own file; running servers take them with the next task.
    const file = userMcpConfigPath();
    this.watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(nodePath.dirname(file)), nodePath.basename(file)),
    );
    const relist = () => this.listConfigured(this.listedFor.root, this.listedFor.trusted);
    this.watcher.onDidChange(relist);
    this.watcher.onDidCreate(relist);
    this.watcher.onDidDelete(relist);
  }

  /** The servers as the view lists them: state, tool count, schema size, problem. */
  views(): McpServerView[] {
    if (!this.hub) {
      // Not started yet: list what the configs define, so the person sees them before a task.
      const off = this.disabledByPerson();
      return this.listed.map((c) => view(c, off));
    }
    const hub = this.hub;
    const notStarted = this.listed.filter((c) => !hub.servers.some((s) => s.name === c.name));
    const off = this.disabledByPerson();
    return [
      ...hub.servers.map((s): McpServerView => ({
        name: s.name,
        state: hub.isEnabled(s.name) ? s.state : "disabled",
        tools: s.tools.length,
        schemaChars: JSON.stringify(
          s.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
        ).length,
        ...(s.problem && hub.isEnabled(s.name) ? { problem: s.problem } : {}),
        source: s.config.source,
      })),
      ...notStarted.map((c) => view(c, off)),
    ];
  }

  /** Lists the configured servers without starting any (the view shows them before the first task). */
  listConfigured(root: string | undefined, trusted: boolean): void {
    this.listedFor = { root, trusted };
    const files = [userMcpConfigPath(), ...(root && trusted ? workspaceMcpConfigPaths(root) : [])];
    // Placeholders only: nothing is started from this list, so no value is asked for.
    this.listed = loadMcpConfigs(
      files,
      { workspaceFolder: root ?? "", env: process.env },
      { mayLeaveSandbox: [userMcpConfigPath()] },
    ).servers;
    this.changed();
  }

  async restart(name: string): Promise<void> {
    await this.hub?.restart(name);
    this.changed();
  }

  /** The person's Enable/Disable, remembered across windows (it overrides the config's "disabled"). */
  async setEnabled(name: string, on: boolean): Promise<void> {
    await this.o.context.globalState.update(DISABLED_KEY, { ...this.disabledByPerson(), [name]: !on });
    this.o.log.info(`MCP: the person ${on ? "enabled" : "disabled"} "${name}"`);
    if (!on) await this.hub?.setEnabled(name, false);
    else if (this.lastRequest) {
      // Loaded again so that a workspace server is asked about before it starts.
      const { root, trusted, sandbox } = this.lastRequest;
      await this.tools(root, trusted, sandbox);
    }
    this.changed();
  }

  /** A resource the person mentioned (`@mcp:server:uri`); its server must be running or startable. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<string> {
    if (!this.hub) return Promise.reject(new Error("no MCP server is running; start a task that uses it first"));
    return this.hub.readResource(server, uri, signal);
  }

  /** Resources of the running servers matching the `@` query (name or URI), for the picker. */
  matchResources(query: string, limit = 20): { path: string; resource: { server: string; name: string } }[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return (this.hub?.resources() ?? [])
      .filter((r) => words.every((w) => `${r.server} ${r.name} ${r.uri}`.toLowerCase().includes(w)))
      .slice(0, limit)
      .map((r) => ({ path: `mcp:${r.server}:${r.uri}`, resource: { server: r.server, name: r.name } }));
  }

  /** "Always allow" on an MCP tool's card: added to the server's autoApprove in the person's own file. */
  async allowToolAlways(toolName: string): Promise<void> {
    const origin = this.hub?.tools().origins.get(toolName);
    const userFile = userMcpConfigPath();
    if (!origin || origin.source !== userFile) return; // a workspace's file is never written
    const text = readFileSync(userFile, "utf8");
    const changed = withAutoApprovedTool(text, origin.server, origin.tool);
    if (changed === undefined || changed === text) return;
    writeFileSync(userFile, changed);
    this.o.log.info(`MCP: "${origin.tool}" of "${origin.server}" now runs without asking (autoApprove in ${userFile})`);
  }

  /** Writes a server's last output to Fathom's log and shows it. */
  showLog(name: string): void {
    const server = this.hub?.servers.find((s) => s.name === name);
    const lines = server?.stderr ?? [];
    this.o.log.info(
      `MCP server "${name}": ${server ? `${server.state}${server.problem ? ` (${server.problem})` : ""}` : "not started"}; its last output:${lines.length ? `\n${lines.join("\n")}` : " none"}`,
    );
    this.o.channel.show(true);
  }

  private disabledByPerson(): Record<string, boolean> {
    return this.o.context.globalState.get<Record<string, boolean>>(DISABLED_KEY, {});
  }

  private changed(): void {
    this.onChange?.(this.views());
  }

  /** The MCP tools for a task starting now; servers start (in parallel) the first time. */
  async tools(root: string, trusted: boolean, sandbox: CommandSandbox | undefined): Promise<Tool[]> {
    const userFile = userMcpConfigPath();
    const workspaceFiles = trusted ? workspaceMcpConfigPaths(root) : [];
    const files = [userFile, ...workspaceFiles];
    // Inputs stay `${input:id}` here: their values are asked for only once a server may start.
    // Only the person's own file may start a server outside the sandbox ("sandbox": false).
    const { servers, problems, inputs } = loadMcpConfigs(
      files,
      { workspaceFolder: root, env: process.env },
      { untrusted: workspaceFiles, mayLeaveSandbox: [userFile] },
    );
    for (const p of problems) this.o.log.warn(`MCP: ${p.file}${p.line ? `:${p.line}:${p.column}` : ""}: ${p.message}`);
    if (problems.some((p) => p.line)) {
      const p = problems.find((x) => x.line)!;
      void vscode.window.showWarningMessage(
        `Fathom: ${nodePath.basename(p.file)} line ${p.line}, column ${p.column}: ${p.message}. The other MCP servers still start.`,
      );
    }
    // A server the person disabled is not started, so a workspace one is not asked about until enabled.
    const off = this.disabledByPerson();
    const allowed: McpServerConfig[] = [];
    for (const config of servers) {
      const server = config.name in off ? { ...config, disabled: off[config.name]! } : config;
      if (server.disabled) continue;
      if (server.source !== userFile && !(await this.approved(server))) continue;
      const expanded = await this.inputs.expand(server, inputs);
      if (expanded) allowed.push(expanded);
    }
    this.listed = servers;
    this.lastRequest = { root, trusted, sandbox };
    // The sandbox wraps each stdio command when it starts: a change of sandbox restarts every server.
    const sandboxMode = sandbox ? "sandboxed" : "plain";
    if (this.hub && sandboxMode !== this.sandboxMode) {
      await this.hub.stop();
      this.hub = undefined;
    }
    this.sandboxMode = sandboxMode;
    if (this.hub) this.hub.update(allowed);
    else if (allowed.length) {
      this.hub = new McpHub(allowed, {
        workspaceRoot: root,
        ...(sandbox ? { sandbox } : {}),
        log: (line) => this.o.log.info(`MCP: ${line}`),
        onChange: () => this.changed(),
      });
    }
    this.changed();
    if (!this.hub) return [];
    for (const failure of await this.hub.start()) {
      this.o.log.warn(failure);
      // Said once per problem: a server in back-off fails every task until it is started again.
      if (!this.warned.has(failure.replace(/ in \d+ s\.$/, "")))
        void vscode.window.showWarningMessage(`Fathom: ${failure}`);
      this.warned.add(failure.replace(/ in \d+ s\.$/, ""));
    }
    const { tools, dropped } = this.hub.tools();
    if (dropped > 0)
      this.o.log.warn(
        `MCP: ${dropped} tools left out: Fathom offers at most 1,000 MCP tools. Disable servers or tools you do not need.`,
      );
    return tools;
  }

  /** Whether the person approved starting this workspace-defined server, asking once per definition. */
  private async approved(server: McpServerConfig): Promise<boolean> {
    const definition = createHash("sha256").update(definitionText(server)).digest("hex").slice(0, 16);
    const key = `${server.source}#${server.name}#${definition}`;
    const trusted = this.o.context.globalState.get<string[]>(TRUSTED_KEY, []);
    if (trusted.includes(key)) return true;
    if (this.declined.has(key)) return false;
    const start = "Start Server";
    const answer = await vscode.window.showWarningMessage(
      `This workspace defines the MCP server "${server.name}". Start it?`,
      {
        modal: true,
        detail: `It runs: ${describeServer(server)}\nFrom: ${server.source}\nOnly start servers you trust: they run with the rights the sandbox leaves them.`,
      },
      start,
    );
    if (answer !== start) {
      this.declined.add(key);
      this.o.log.info(`MCP: the person did not start "${server.name}" from ${server.source}`);
      return false;
    }
    await this.o.context.globalState.update(TRUSTED_KEY, [...trusted, key]);
    return true;
  }

  /** "Fathom: Open MCP Configuration": creates the user-level file if needed and opens it. */
  async openConfig(): Promise<void> {
    const file = userMcpConfigPath();
    if (!existsSync(file)) {
      mkdirSync(nodePath.dirname(file), { recursive: true });
      writeFileSync(file, TEMPLATE, { flag: "wx" });
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file));
  }

  /** Stops every server and what it started (deactivate awaits this when VS Code closes). */
  async stop(): Promise<void> {
    const hub = this.hub;
    this.hub = undefined;
    await hub?.stop();
  }

  dispose(): void {
    this.watcher.dispose();
    // After deactivate there is nothing left; otherwise nothing may outlive the extension host.
    this.hub?.killNow();
    void this.stop();
  }
}
