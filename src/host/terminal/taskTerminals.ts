import type * as vscode from "vscode";
import type { TerminalExecutor } from "./terminalExecutor";

/** A terminal name from a task title: "Fathom: <title>", kept short enough for the tab. */
export function taskTerminalName(title: string): string {
  const t = title.replace(/\s+/g, " ").trim();
  return `Fathom: ${t.length > 40 ? `${t.slice(0, 39)}…` : t || "task"}`;
}

/**
 * One terminal executor per task, so tasks running at once never share a shell and the person
 * sees which task runs what ("Fathom: <task title>"). Kept while the task is open in the window.
 */
export class TaskTerminals implements vscode.Disposable {
  private readonly byTask = new Map<string, TerminalExecutor>();

  constructor(private readonly make: (terminalName: string) => TerminalExecutor) {}

  for(taskId: string, title: string): TerminalExecutor {
    let executor = this.byTask.get(taskId);
    if (!executor) {
      executor = this.make(taskTerminalName(title));
      this.byTask.set(taskId, executor);
    }
    return executor;
  }

  /** The task left the window: commands it left running stop (its terminals stay for reading). */
  release(taskId: string): void {
    this.byTask.get(taskId)?.dispose();
    this.byTask.delete(taskId);
  }

  dispose(): void {
    for (const executor of this.byTask.values()) executor.dispose();
    this.byTask.clear();
  }
}
