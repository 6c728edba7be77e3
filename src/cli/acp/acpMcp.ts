import type { McpServer } from "@agentclientprotocol/sdk";
import { DEFAULT_MCP_TIMEOUT_MS, type McpServerConfig } from "../../core/mcp/config";

/** Where an editor's MCP servers come from, as Fathom's messages name them. */
export const EDITOR_MCP_SOURCE = "the editor (ACP session/new)";

/**
 * The MCP servers an editor passes in `session/new`, as Fathom's own server configs. The editor
 * is a stranger to Fathom's trust: its servers start only inside the OS sandbox, have no
 * autoApprove (a tool runs unasked only where any server's would: annotated read-only, under the
 * read policy), and a name Fathom's own config uses stays Fathom's (workspaceMcp.ts). Only
 * stdio servers are offered (`mcpCapabilities` says so); others are reported.
 */
export function editorMcpServers(servers: readonly McpServer[]): { servers: McpServerConfig[]; problems: string[] } {
  const out: McpServerConfig[] = [];
  const problems: string[] = [];
  for (const server of servers) {
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      problems.push(
        `MCP server "${server.name}" from the editor is not started: Fathom takes stdio servers from an editor, not ${server.type}.`,
      );
      continue;
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    if (out.some((s) => s.name === stdio.name)) {
      problems.push(`MCP server "${stdio.name}" from the editor is not started: the editor passed two of that name.`);
      continue;
    }
    out.push({
      name: stdio.name,
      transport: "stdio",
      command: stdio.command,
      args: [...stdio.args],
      env: Object.fromEntries(stdio.env.map((v) => [v.name, v.value])),
      headers: {},
      disabled: false,
      timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
      autoApprove: [],
      disabledTools: [],
      source: EDITOR_MCP_SOURCE,
      // Its environment may hold the editor's keys for the server: never shown or logged.
      secrets: stdio.env.map((v) => v.value).filter((v) => v.length >= 8),
    });
  }
  return { servers: out, problems };
}
