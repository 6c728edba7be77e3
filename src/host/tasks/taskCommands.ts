import * as vscode from "vscode";
import type { TaskManager } from "./taskManager";

/** New Task and Cancel, on the window's tasks (read when run: a restart replaces them). */
export function registerTaskCommands(tasks: () => TaskManager): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand("fathom.newTask", () => tasks().newTask()),
    vscode.commands.registerCommand("fathom.cancel", () => tasks().shown.cancel()),
  );
}
