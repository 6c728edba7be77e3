import * as vscode from "vscode";
import { ApiKeyStore, promptForApiKey } from "./apiKeys";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chatViewProvider";

export function activate(context: vscode.ExtensionContext): void {
  const started = Date.now();
  const log = vscode.window.createOutputChannel("Fathom", { log: true });
  const keys = new ApiKeyStore(context.secrets);
  const chat = new ChatViewProvider(context.extensionUri, log);

  context.subscriptions.push(
    log,
    chat,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chat, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
    vscode.commands.registerCommand("fathom.newTask", () => chat.newTask()),
    vscode.commands.registerCommand("fathom.cancel", () => {
      // Nothing runs yet in this build; the command is disabled unless a task is running.
      log.info("Cancel requested with no task running");
    }),
    vscode.commands.registerCommand("fathom.setApiKey", () => promptForApiKey(keys, log)),
    vscode.commands.registerCommand("fathom.showLog", () => log.show()),
    vscode.commands.registerCommand("fathom.openSettings", () =>
      vscode.commands.executeCommand("workbench.action.openSettings", `@ext:${context.extension.id}`),
    ),
  );
  void vscode.commands.executeCommand("setContext", "fathom.taskRunning", false);
  log.info(`Fathom ${context.extension.packageJSON.version as string} activated in ${Date.now() - started} ms`);
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
