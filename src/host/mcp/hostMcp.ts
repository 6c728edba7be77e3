import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import * as nodePath from "node:path";
import * as vscode from "vscode";
import type { McpServerView } from "../../protocol";
import { McpHub, describeServer, loadMcpConfigs, userMcpConfigPath, workspaceMcpConfigPaths, type CommandSandbox, type McpServerConfig, type Tool } from "../../core";

const TRUSTED_KEY = "fathom.mcp.trustedServers";
const INPUT_SECRET = (id: string) => `fathom.mcp.input.${id}`;

const TEMPLATE = `{
  // MCP servers for Fathom, in the common "mcpServers" shape (Claude Desktop, Cline, Cursor).
  // The Fathom CLI reads this file too. Example:
  // "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"] },
  // "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:remote-token}" } }
  "mcpServers": {}
}
`;

/**
 * MCP in VS Code: the person's own file (~/.config/fathom/mcp.json, shared with the CLI) and
 * the workspace's `.vscode/mcp.json` and `.mcp.json`. Servers start when a task first needs
 * them, not at activation. A server the workspace defines starts only after the person approves
 * its resolved command line or URL (remembered per definition: a changed one asks again), and
 * never in Restricted Mode. `${input:id}` values are asked once and kept in SecretStorage.
 */
export class HostMcp implements vscode.Disposable {
  private hub: McpHub | undefined;
  private signature = "";
  /** Workspace servers the person declined in this window (not asked again until reload). */
  private readonly declined = new Set<string>();

  /** Told whenever the servers' states change (the "MCP servers" list). */
  onChange: ((servers: McpServerView[]) => void) | undefined;

  constructor(private readonly o: { context: vscode.ExtensionContext; log: vscode.LogOutputChannel }) {}

  /** The servers as the view lists them: state, tool count, schema size, problem. */
  views(): McpServerView[] {
    return (this.hub?.servers ?? []).map((s) => ({
      name: s.name,
      state: s.state,
      tools: s.tools.length,
      schemaChars: JSON.stringify(s.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).length,
      ...(s.problem ? { problem: s.problem } : {}),
      source: s.config.source,
    }));
  }

  async restart(name: string): Promise<void> {
    await this.hub?.restart(name);
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this.views());
  }

  /** The MCP tools for a task starting now; servers start (in parallel) the first time. */
  async tools(root: string, trusted: boolean, sandbox: CommandSandbox | undefined): Promise<Tool[]> {
    const userFile = userMcpConfigPath();
    const workspaceFiles = trusted ? workspaceMcpConfigPaths(root) : [];
    const files = [userFile, ...workspaceFiles];
    const inputs = await this.resolveInputs(files);
    const { servers, problems } = loadMcpConfigs(files, { workspaceFolder: root, env: process.env, input: (id) => inputs.get(id) });
    for (const p of problems) this.o.log.warn(`MCP: ${p.file}${p.line ? `:${p.line}:${p.column}` : ""}: ${p.message}`);
    if (problems.some((p) => p.line)) {
      const p = problems.find((x) => x.line)!;
      void vscode.window.showWarningMessage(`Fathom: ${nodePath.basename(p.file)} line ${p.line}, column ${p.column}: ${p.message}. The other MCP servers still start.`);
    }
    const allowed: McpServerConfig[] = [];
    for (const server of servers) {
      if (server.source === userFile || (await this.approved(server))) allowed.push(server);
    }
    const signature = JSON.stringify([allowed, sandbox ? "sandboxed" : "plain"]);
    if (signature !== this.signature) {
      await this.hub?.stop();
      this.signature = signature;
      this.hub = allowed.length
        ? new McpHub(allowed, { workspaceRoot: root, ...(sandbox ? { sandbox } : {}), log: (line) => this.o.log.info(`MCP: ${line}`), onChange: () => this.changed() })
        : undefined;
      this.changed();
    }
    if (!this.hub) return [];
    for (const failure of await this.hub.start()) {
      this.o.log.warn(failure);
      void vscode.window.showWarningMessage(`Fathom: ${failure}`);
    }
    const { tools, dropped } = this.hub.tools();
    if (dropped > 0) this.o.log.warn(`MCP: ${dropped} tools left out; at most 128 tools go to the model.`);
    return tools;
  }

  /** Whether the person approved starting this workspace-defined server, asking once per definition. */
  private async approved(server: McpServerConfig): Promise<boolean> {
    const definition = createHash("sha256").update(JSON.stringify(server)).digest("hex").slice(0, 16);
    const key = `${server.source}#${server.name}#${definition}`;
    const trusted = this.o.context.globalState.get<string[]>(TRUSTED_KEY, []);
    if (trusted.includes(key)) return true;
    if (this.declined.has(key)) return false;
    const start = "Start Server";
    const answer = await vscode.window.showWarningMessage(
      `This workspace defines the MCP server "${server.name}". Start it?`,
      { modal: true, detail: `It runs: ${describeServer(server)}\nFrom: ${server.source}\nOnly start servers you trust: they run with the rights the sandbox leaves them.` },
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

  /** `${input:id}` values the files use: from SecretStorage, or asked once (hidden) and kept there. */
  private async resolveInputs(files: string[]): Promise<Map<string, string>> {
    const ids = new Set<string>();
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      for (const m of text.matchAll(/\$\{input:([A-Za-z0-9_.-]+)\}/g)) ids.add(m[1]!);
    }
    const values = new Map<string, string>();
    for (const id of ids) {
      let value = await this.o.context.secrets.get(INPUT_SECRET(id));
      if (value === undefined) {
        value = await vscode.window.showInputBox({ title: `Fathom: MCP value "${id}"`, prompt: "Kept in VS Code's secret storage, never written to a file.", password: true, ignoreFocusOut: true });
        if (value === undefined) continue;
        await this.o.context.secrets.store(INPUT_SECRET(id), value);
      }
      values.set(id, value);
    }
    return values;
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

  dispose(): void {
    void this.hub?.stop();
    this.hub = undefined;
  }
}
