import * as vscode from "vscode";
import { FirstTaskWarmUp } from "../firstTaskWarmUp";
import type { Log } from "../log";
import type { HostMcp } from "../mcp/hostMcp";
import { memoryAction } from "../memory/hostMemories";
import type { ModelSetup } from "../models/modelSetup";
import type { ReviewGate } from "../review";
import type { HostSandbox } from "../terminal/hostSandbox";
import { CHAT_VIEW_ID, type ChatViewProvider } from "./chatViewProvider";

/** The chat view in its panel; its webview is dropped while hidden (rebuilt from the state when shown). */
export function registerChatView(view: ChatViewProvider): vscode.Disposable {
  return vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, {
    webviewOptions: { retainContextWhenHidden: false },
  });
}

interface ViewServices {
  mcp: HostMcp;
  gate: ReviewGate;
  models: Pick<ModelSetup, "readSetup">;
  sandbox: HostSandbox;
  log: Log;
}

/**
 * What the chat view asks of the window beyond its tasks: MCP resources for `@`, the memories'
 * actions, and the first task's needs made ready while the person writes it.
 */
export function connectChatView(view: ChatViewProvider, { mcp, gate, models, sandbox, log }: ViewServices): void {
  view.mcpResources = (query) => mcp.matchResources(query);
  view.memoryAction = (action, memoryPath) =>
    memoryAction(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, action, memoryPath, log);
  // A task's first diff need not start the window's diff worker.
  view.onSendMessage = () => void gate.warmUp.warm();
  const warmUp = new FirstTaskWarmUp({
    sandbox,
    warmDiffs: () => void gate.warmUp.warm(),
    readSetup: () => models.readSetup(),
    log,
  });
  view.onComposing = () => warmUp.composing();
}
