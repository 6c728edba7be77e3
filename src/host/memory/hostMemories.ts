import * as vscode from "vscode";
import { clearMemories, listMemories, memoryFileOf, memoryFolders, removeMemory } from "../../core";
import type { MemoryView } from "../../protocol";
import type { Log } from "../log";

/** Whether the person let the agent write memory unasked: their user setting only, never in Restricted Mode. */
export function memoryWritesAllowed(trusted: boolean): boolean {
  return (
    trusted && vscode.workspace.getConfiguration("fathom").inspect<boolean>("memory.allowWrites")?.globalValue === true
  );
}

/**
 * The Memories list of the Fathom view: what is remembered for this workspace and for the
 * person, read when the list is opened (never at activation). Open shows the file in an editor
 * (where the person may change it); Delete and Clear all ask first.
 */
export async function memoryAction(
  root: string | undefined,
  action: "list" | "open" | "delete" | "clear",
  path: string | undefined,
  log: Log,
): Promise<MemoryView[]> {
  if (!root) return [];
  const folders = memoryFolders(root);
  if (action === "open" && path) {
    const target = memoryFileOf(folders, path);
    if ("file" in target) await vscode.window.showTextDocument(vscode.Uri.file(target.file), { preview: true });
  } else if (action === "delete" && path) {
    const yes = "Delete";
    if (
      (await vscode.window.showWarningMessage(
        `Delete the memory ${path}?`,
        { modal: true, detail: "Later tasks will no longer see it." },
        yes,
      )) === yes
    ) {
      const removed = removeMemory(folders, path);
      if ("error" in removed) void vscode.window.showWarningMessage(`Fathom: ${removed.error}`);
      else log.info(`Memory: deleted ${path}`);
    }
  } else if (action === "clear") {
    const count = listMemories(folders).length;
    const yes = "Delete All";
    if (
      count > 0 &&
      (await vscode.window.showWarningMessage(
        `Delete all ${count} memories?`,
        {
          modal: true,
          detail: "This workspace's memories and yours (/memories/user/). Later tasks start without them.",
        },
        yes,
      )) === yes
    ) {
      log.info(`Memory: cleared ${clearMemories(folders)} files`);
    }
  }
  return listMemories(folders).map((f) => ({ path: f.path, firstLine: f.firstLine, size: f.size, overCap: f.overCap }));
}
