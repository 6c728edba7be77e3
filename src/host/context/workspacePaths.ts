import * as path from "node:path";
import * as vscode from "vscode";

/** Why a document cannot be attached, in words for the person. */
export function notInWorkspace(uri: vscode.Uri): string {
  if (uri.scheme === "untitled")
    return "This is an unsaved (untitled) document: save it in the workspace first, or paste the text into the message.";
  if (!vscode.workspace.workspaceFolders?.length)
    return "Open a folder first (File > Open Folder): Fathom attaches files of the workspace.";
  return `${uri.scheme === "file" ? path.basename(uri.fsPath) : uri.toString(true)} is outside the workspace: Fathom attaches only the workspace's files. Paste the text into the message instead.`;
}
