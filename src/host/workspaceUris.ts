import * as vscode from "vscode";
import { normalizeVirtualPath } from "../core/backends/pathGuard";
import { locateVirtualPath } from "./review/reviewText";

/** Maps an agent's virtual path (`/src/a.ts`) to the file's URI; undefined when it cannot. */
export type VirtualPathToUri = (virtualPath: string) => vscode.Uri | undefined;

/**
 * The default mapping over the open workspace folders: with one folder `/` is its root; with
 * several, the first path segment names the folder (as the core's CompositeBackend routes them).
 */
export function workspaceFileUri(
  virtualPath: string,
  folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? [],
): vscode.Uri | undefined {
  const roots = folders.length === 1 ? [folders[0]!.uri.fsPath] : [];
  const v = normalizeVirtualPath(virtualPath, roots);
  if (typeof v !== "string") return undefined;
  const at = locateVirtualPath(
    v,
    folders.map((f) => ({ name: f.name, fsPath: f.uri.fsPath })),
  );
  if ("error" in at) return undefined;
  const folder = folders[at.folder]!;
  return at.relative === "" ? folder.uri : vscode.Uri.joinPath(folder.uri, ...at.relative.split("/"));
}

/** The open document for a file URI, if any (compared by file path, as the editor does). */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find(
    (d) =>
      d.uri.toString() === key || (uri.scheme === "file" && d.uri.scheme === "file" && d.uri.fsPath === uri.fsPath),
  );
}

/**
 * The agent's virtual path of a file in the workspace (`/src/a.ts`; with several folders
 * `/<folder name>/src/a.ts`, as the core's backends route them), or undefined outside it.
 */
export function virtualPathOf(
  uri: vscode.Uri,
  folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? [],
): string | undefined {
  if (uri.scheme !== "file") return undefined;
  const base = (f: vscode.WorkspaceFolder) => f.uri.path.replace(/\/+$/, "");
  // The innermost folder holding it (a folder may be nested in another).
  const path = uri.path.replace(/\/+$/, "");
  const folder = folders
    .filter((f) => f.uri.scheme === "file" && (path === base(f) || path.startsWith(`${base(f)}/`)))
    .sort((a, b) => base(b).length - base(a).length)[0];
  if (!folder) return undefined;
  const relative = path.slice(base(folder).length + 1);
  if (folders.length > 1) return relative ? `/${folder.name}/${relative}` : `/${folder.name}`;
  return `/${relative}`;
}
