import * as vscode from "vscode";
import type { ApprovalDecision } from "../../core/approval";
import type { FileChangeProposal } from "../../core/tools/tool";
import { BOM, hasBom, sameAsEditorText } from "./reviewText";

/**
 * What the person approves: the diff's right side as it is now, unsaved edits included.
 * `stored` is the right side's file (its last save, or the proposal), `doc` its open document.
 */
export function approvedDecision(
  proposal: FileChangeProposal,
  stored: string | undefined,
  doc: vscode.TextDocument | undefined,
): ApprovalDecision {
  const saved = stored ?? proposal.after;
  let text = saved;
  if (doc) {
    const current = doc.getText();
    const eol = doc.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
    // The editor hides the BOM and normalises mixed line endings; that alone is no change.
    if (sameAsEditorText(proposal.after, current, eol)) text = proposal.after;
    // Not changed since its last save: what is stored (a diff opened early may not have reloaded the proposal yet).
    else if (!doc.isDirty) text = saved;
    else text = (hasBom(saved) ? BOM : "") + current;
  }
  return text === proposal.after ? { type: "approve" } : { type: "edit", content: text };
}
