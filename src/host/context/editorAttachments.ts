import type * as vscode from "vscode";
import { secretFileMatcher, type Attachment, type SecretFileMatcher } from "../../core";
import { virtualPathOf } from "../workspaceUris";
import { notInWorkspace } from "./workspacePaths";

export type AttachResult = { attachment: Attachment } | { refused: string };

/**
 * The editor's selection as a range chip (whole lines, 1-based), or the whole file when nothing
 * is selected. Only the path and lines go in the chip: the text is read through the backend at
 * send time, so ignore rules and the path guard apply as to any read.
 */
export function selectionAttachment(
  editor: Pick<vscode.TextEditor, "document" | "selection">,
  secretFiles: readonly string[],
): AttachResult {
  const doc = editor.document;
  const at = virtualPathOf(doc.uri);
  if (!at) return { refused: notInWorkspace(doc.uri) };
  const secret = secretRefusal(at, secretFiles);
  if (secret) return { refused: secret };
  if (editor.selection.isEmpty) return { attachment: { kind: "file", path: at } };
  return { attachment: { kind: "file", path: at, ...selectedLines(editor.selection) } };
}

/** The whole lines a selection covers, 1-based; an empty selection is the cursor's line. */
export function selectedLines(selection: vscode.Selection): { startLine: number; endLine: number } {
  const { start, end } = selection;
  // Lines selected whole end at the start of the next line, which is not part of the selection.
  const last = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
  return { startLine: start.line + 1, endLine: last + 1 };
}

/** A file or folder from the explorer. */
export function fileAttachment(uri: vscode.Uri, secretFiles: readonly string[]): AttachResult {
  const at = virtualPathOf(uri);
  if (!at) return { refused: notInWorkspace(uri) };
  const secret = secretRefusal(at, secretFiles);
  return secret ? { refused: secret } : { attachment: { kind: "file", path: at } };
}

/** The matcher for the person's list, made once per list (it compiles some thirty globs). */
let cached: { key: string; matcher: SecretFileMatcher } | undefined;
function matcherFor(secretFiles: readonly string[]): SecretFileMatcher {
  const key = secretFiles.join("\n");
  if (cached?.key !== key) cached = { key, matcher: secretFileMatcher(secretFiles) };
  return cached.matcher;
}

/** A secret file (`.env`, keys) is never attached by a command: reading it needs the person's yes, asked by the agent's read. */
export function secretRefusal(virtualPath: string, secretFiles: readonly string[]): string | undefined {
  const match = matcherFor(secretFiles)(virtualPath);
  if (!match) return undefined;
  return `${virtualPath.replace(/^\//, "")} may hold secrets (it matches ${match}), so Fathom does not attach it. Ask Fathom to read it instead: it asks you before reading such a file.`;
}
