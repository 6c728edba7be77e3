import { createHash } from "node:crypto";
import * as nodePath from "node:path";
import * as vscode from "vscode";
import { expandInputs, inputIds, type McpServerConfig } from "../../core";
import type { Log } from "../log";

/** A declared input's prompt (VS Code's `inputs`), by file and id. */
export interface InputPrompt {
  file: string;
  id: string;
  description?: string;
  password?: boolean;
}

/**
 * `${input:id}` values: asked once (hidden unless the file says `"password": false`), kept in
 * VS Code's SecretStorage, never written to a file. Each value belongs to the file that asks
 * for it, so a repository's file cannot send a value the person gave for their own server.
 * Asked only for a server that is about to start (after its approval, for a workspace's one).
 */
export class McpInputs {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Log,
  ) {}

  /** The server with its inputs filled in, or undefined (said in the log) when one was not given. */
  async expand(server: McpServerConfig, prompts: readonly InputPrompt[]): Promise<McpServerConfig | undefined> {
    const values = new Map<string, string>();
    for (const id of inputIds(server)) {
      const key = secretKey(server.source, id);
      let value = await this.secrets.get(key);
      if (value === undefined) {
        const declared = prompts.find((p) => p.file === server.source && p.id === id);
        value = await vscode.window.showInputBox({
          title: `Fathom: "${id}" for the MCP server "${server.name}"`,
          prompt: `${declared?.description ? `${declared.description}. ` : ""}Asked by ${nodePath.basename(server.source)}; kept in VS Code's secret storage, never written to a file.`,
          password: declared?.password !== false,
          ignoreFocusOut: true,
        });
        if (value === undefined) continue;
        await this.secrets.store(key, value);
      }
      // Fathom's log masks it from now on, whatever prints it.
      this.log.addSecret(value);
      values.set(id, value);
    }
    const { server: expanded, unresolved } = expandInputs(server, (id) => values.get(id));
    if (unresolved.length > 0) {
      this.log.warn(`MCP: "${server.name}" was not started: no value was given for ${unresolved.join(", ")}`);
      return undefined;
    }
    return expanded;
  }
}

function secretKey(file: string, id: string): string {
  return `fathom.mcp.input.${createHash("sha256").update(file).digest("hex").slice(0, 12)}.${id}`;
}
