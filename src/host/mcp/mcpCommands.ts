import * as vscode from "vscode";
import type { HostMcp } from "./hostMcp";

/** The MCP servers' commands: open the configuration, and restart, show the log of, enable or disable a server. */
export function registerMcpCommands(mcp: HostMcp): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand("fathom.openMcpConfig", () => mcp.openConfig()),
    vscode.commands.registerCommand("fathom.restartMcpServer", (name: unknown) =>
      typeof name === "string" ? mcp.restart(name) : undefined,
    ),
    vscode.commands.registerCommand("fathom.showMcpServerLog", (name: unknown) =>
      typeof name === "string" ? mcp.showLog(name) : undefined,
    ),
    vscode.commands.registerCommand("fathom.setMcpServerEnabled", (name: unknown, on: unknown) =>
      typeof name === "string" && typeof on === "boolean" ? mcp.setEnabled(name, on) : undefined,
    ),
  );
}
