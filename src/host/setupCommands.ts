import * as vscode from "vscode";
import { confirmKeyForHost, promptForApiKey, type ApiKeyStore } from "./apiKeys";
import type { Log } from "./log";
import type { LmApi } from "./models/lmApi";
import type { TaskManager } from "./tasks/taskManager";
import type { TaskSlots } from "./tasks/taskSlots";

interface SetupParts {
  context: vscode.ExtensionContext;
  keys: ApiKeyStore;
  channel: vscode.LogOutputChannel;
  log: Log;
  /** The window's tasks (read when needed: a restart replaces them). */
  tasks: () => TaskManager;
  lm: LmApi | string;
  slots: TaskSlots;
}

/**
 * The setup's commands (Set API Key, Allow Key for Host, Open Settings, Show Log) and what makes
 * every task re-read it: the settings, a key, workspace trust, the folders or the models VS Code
 * offers changed.
 */
export function registerSetupCommands({
  context,
  keys,
  channel,
  log,
  tasks,
  lm,
  slots,
}: SetupParts): vscode.Disposable {
  const refresh = () =>
    tasks().forEach(
      (s) => void s.refreshSetup().catch((err: unknown) => log.error(`Could not re-read the settings: ${String(err)}`)),
    );
  return vscode.Disposable.from(
    vscode.commands.registerCommand("fathom.setApiKey", () => promptForApiKey(keys, channel)),
    vscode.commands.registerCommand("fathom.showLog", () => channel.show()),
    vscode.commands.registerCommand("fathom.allowKeyForHost", async () => {
      if (await confirmKeyForHost(keys, channel)) refresh();
    }),
    vscode.commands.registerCommand("fathom.openSettings", () =>
      vscode.commands.executeCommand("workbench.action.openSettings", `@ext:${context.extension.id}`),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("fathom")) refresh();
      if (e.affectsConfiguration("fathom.tasks.maxParallel")) slots.next();
    }),
    context.secrets.onDidChange((e) => {
      if (e.key.startsWith("fathom.apiKey."))
        tasks().forEach(
          (s) =>
            void s
              .keyChanged()
              .catch((err: unknown) => log.error(`Could not continue with the new key: ${String(err)}`)),
        );
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    // A model provider (Copilot signing in, a provider extension starting) came or went.
    ...(typeof lm !== "string" && lm.onDidChangeChatModels
      ? [
          lm.onDidChangeChatModels(() => {
            if (vscode.workspace.getConfiguration("fathom").get("provider") === "vscode") refresh();
          }),
        ]
      : []),
    vscode.workspace.onDidChangeWorkspaceFolders(refresh),
  );
}
