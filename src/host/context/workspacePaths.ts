import * as path from "node:path";
import * as vscode from "vscode";

/**
 * A file's virtual path as the agent sees it (the inverse of `workspaceFileUri`): with one
 * folder `/` is its root, with several the first segment names the folder. Undefined for a
 * document that is not a file inside the workspace (untitled, another scheme, outside).
 */
export function virtualPathOf(uri: vscode.Uri, folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? []): string | undefined {
  if (uri.scheme !== "file") return undefined;
  for (const folder of folders) {
    const rel = path.relative(folder.uri.fsPath, uri.fsPath);
    if (rel.startsWith("..") || path.isAbsolute(rel)) continue;
    const posix = rel.split(path.sep).join("/");
    const inFolder = posix === "" ? "" : `/${posix}`;
    return folders.length === 1 ? inFolder || "/" : `/${folder.name}${inFolder}`;
  }
  return undefined;
}

/** Why a document cannot be attached, in words for the person. */
export function notInWorkspace(uri: vscode.Uri): string {
  if (uri.scheme === "untitled") return "This is an unsaved (untitled) document: save it in the workspace first, or paste the text into the message.";
  if (!vscode.workspace.workspaceFolders?.length) return "Open a folder first (File > Open Folder): Fathom attaches files of the workspace.";
  return `${uri.scheme === "file" ? path.basename(uri.fsPath) : uri.toString(true)} is outside the workspace: Fathom attaches only the workspace's files. Paste the text into the message instead.`;
}
