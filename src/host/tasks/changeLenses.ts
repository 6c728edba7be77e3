import * as vscode from "vscode";
import { virtualPathOf } from "../workspaceUris";
import type { ChangesActions } from "./changesActions";
import type { TaskManager } from "./taskManager";

/**
 * Per-hunk Keep and Undo in the editor: a CodeLens above each of the shown task's unreviewed
 * changes in the file (the diff editor's right side is the file itself, so they show there too
 * when `diffEditor.codeLens` is on). CodeLenses, not the diff editor's gutter actions: those are
 * a proposed API an extension from the marketplace cannot use.
 */
export function registerChangeLenses(tasks: () => TaskManager | undefined): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const followed = new WeakSet<ChangesActions>();
  const current = (): ChangesActions | undefined => {
    const changes = tasks()?.shown.changes;
    if (changes && !followed.has(changes)) {
      followed.add(changes);
      changes.onChange(() => changed.fire());
    }
    return changes;
  };
  const provider: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses(document) {
      const path = virtualPathOf(document.uri);
      const changes = current();
      if (!path || !changes) return [];
      return changes.lensesOf(path).flatMap((hunk) => {
        const range = new vscode.Range(hunk.line, 0, hunk.line, 0);
        const what =
          hunk.lines === 0
            ? "Fathom removed lines here"
            : `Fathom changed ${hunk.lines} line${hunk.lines === 1 ? "" : "s"}`;
        return [
          new vscode.CodeLens(range, {
            title: `Keep (${what})`,
            command: "fathom.changes.keepHunk",
            arguments: [path, hunk.id],
          }),
          new vscode.CodeLens(range, { title: "Undo", command: "fathom.changes.undoHunk", arguments: [path, hunk.id] }),
        ];
      });
    },
  };
  return vscode.Disposable.from(
    changed,
    vscode.languages.registerCodeLensProvider({ scheme: "file" }, provider),
    vscode.commands.registerCommand("fathom.changes.keepHunk", (path: string, id: string) =>
      current()?.keep({ path, hunks: [id] }),
    ),
    vscode.commands.registerCommand("fathom.changes.undoHunk", (path: string, id: string) =>
      current()?.undo({ path, hunks: [id] }),
    ),
    // The person's typing moves the hunks: read the list again (positions and conflicts).
    vscode.workspace.onDidChangeTextDocument((e) => {
      const path = virtualPathOf(e.document.uri);
      const changes = current();
      if (path && changes && changes.lensesOf(path).length > 0) changes.refreshSoon();
    }),
  );
}
