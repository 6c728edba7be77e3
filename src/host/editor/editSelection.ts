import * as path from "node:path";
import * as vscode from "vscode";
import {
  attachmentLabel,
  linesLabel,
  MAX_SELECTED_LINES,
  secretFileMatcher,
  type Attachment,
  type InlineEditRequest,
} from "../../core";
import type { Logger } from "../log";
import { virtualPathOf } from "../workspaceUris";
import { readSettings } from "../settings";
import { selectedLines } from "../context/editorAttachments";

export const EDIT_SELECTION_COMMAND = "fathom.editSelection";

export interface EditSelectionOptions {
  /** Starts the edit as a new task of the window (TaskManager.startTask). */
  start(text: string, o: { attachments: Attachment[]; where: "new"; inlineEdit: InlineEditRequest }): Promise<unknown>;
  /** Brings the chat into view, where the task, its card and what came of it show. */
  showChat(): Promise<unknown>;
  log: Logger;
}

/**
 * "Fathom: Edit Selection…" (Ctrl+I / Cmd+I with a selection, and the editor's context menu):
 * asks for an instruction and starts an inline edit of the selected lines as a new task, so its
 * proposal is reviewed in the diff like every edit, and it stays in History.
 */
export function registerEditSelection(o: EditSelectionOptions): vscode.Disposable {
  return vscode.commands.registerCommand(EDIT_SELECTION_COMMAND, () =>
    editSelection(o).catch((error: unknown) => {
      o.log.error(`Edit Selection failed: ${(error as Error)?.stack ?? String(error)}`);
      void vscode.window.showErrorMessage(
        `Fathom: Edit Selection failed: ${(error as Error)?.message ?? String(error)}. The log (Fathom: Show Log) has the details.`,
      );
    }),
  );
}

async function editSelection(o: EditSelectionOptions): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor)
    return void vscode.window.showInformationMessage(
      "Fathom: open a file and select the lines to change, then run Edit Selection (Ctrl+I).",
    );
  if (!vscode.workspace.isTrusted) {
    const trust = "Manage Workspace Trust";
    const choice = await vscode.window.showWarningMessage(
      "Fathom cannot change files in Restricted Mode: this workspace is not trusted. Trust it to use Edit Selection; Fathom can still read and answer in the chat.",
      trust,
    );
    if (choice === trust) await vscode.commands.executeCommand("workbench.trust.manage");
    return;
  }
  const doc = editor.document;
  const name = path.posix.basename(doc.uri.path) || doc.uri.path;
  if (doc.isUntitled)
    return void vscode.window.showInformationMessage(
      `Fathom: save ${name} in the workspace first. Edit Selection changes files on disk.`,
    );
  const filePath = virtualPathOf(doc.uri);
  if (!filePath) {
    const where =
      doc.uri.scheme === "file"
        ? `${doc.uri.fsPath} is outside the workspace folder`
        : `this editor shows ${doc.uri.scheme} content, not a file of the workspace`;
    return void vscode.window.showInformationMessage(
      `Fathom edits only files of the workspace, and ${where}. Open its folder, or ask about it in the chat.`,
    );
  }
  const secret = secretFileMatcher(readSettings(vscode.workspace.getConfiguration("fathom")).secretFiles)(filePath);
  if (secret)
    return void vscode.window.showWarningMessage(
      `Fathom: ${filePath} may hold secrets (it matches ${secret}), so it is not sent to a model. Edit it yourself, or change fathom.secretFiles.`,
    );
  const shown = selectedLines(editor.selection);
  if (shown.endLine - shown.startLine + 1 > MAX_SELECTED_LINES) {
    return void vscode.window.showInformationMessage(
      `Fathom: Edit Selection changes at most ${MAX_SELECTED_LINES} lines at once; ${shown.endLine - shown.startLine + 1} are selected. Select fewer, or ask for the change in the chat.`,
    );
  }

  const instruction = await vscode.window.showInputBox({
    title: `Fathom: Edit ${linesLabel(shown.startLine, shown.endLine)} of ${name}`,
    prompt:
      "Say what should change: these lines and the code around them go to the model, and its answer opens as a diff to approve.",
    placeHolder: "e.g. handle the error, rename x to count, make it async",
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : "Say what should change, or press Escape to cancel."),
  });
  if (!instruction?.trim()) return;
  if (doc.isDirty) {
    const save = "Save and Edit";
    const choice = await vscode.window.showWarningMessage(
      `Fathom: ${name} has unsaved changes, and Edit Selection changes the file on disk. Save it first?`,
      save,
    );
    if (choice !== save) return;
    if (!(await doc.save()))
      return void vscode.window.showWarningMessage(
        `Fathom: ${name} could not be saved, so nothing was sent. Save it, then run Edit Selection again.`,
      );
  }
  // Read after a save: a formatter run on save may have moved the selected lines.
  const { startLine, endLine } = selectedLines(editor.selection);
  const request: InlineEditRequest = {
    path: filePath,
    startLine,
    endLine,
    instruction: instruction.trim(),
    language: doc.languageId,
  };
  const chip: Attachment = { kind: "file", path: filePath, startLine, endLine };
  o.log.info(`Edit Selection: ${filePath} ${linesLabel(startLine, endLine)}`);
  await o.start(`Edit ${attachmentLabel(chip)}: ${request.instruction}`, {
    attachments: [chip],
    where: "new",
    inlineEdit: request,
  });
  await o.showChat();
  // Showing the chat may take the focus: the person goes on in their editor, where the diff opens beside.
  if (vscode.window.activeTextEditor?.document !== doc)
    await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, preserveFocus: false });
}
