import * as vscode from "vscode";
import type { ReviewGate } from "./reviewGate";

export const APPROVE_PROPOSAL_COMMAND = "fathom.approveProposal";
export const REJECT_PROPOSAL_COMMAND = "fathom.rejectProposal";

/**
 * The diff editor's title-bar actions (package.json shows them only for `fathom-proposed`
 * documents). The editor passes the document's URI; from the palette the active tab is used.
 */
export function registerReviewCommands(gate: ReviewGate): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(APPROVE_PROPOSAL_COMMAND, (uri?: unknown) => {
      gate.approveFromEditor(uri instanceof vscode.Uri ? uri : undefined);
    }),
    vscode.commands.registerCommand(REJECT_PROPOSAL_COMMAND, async (uri?: unknown) => {
      await gate.rejectFromEditor(uri instanceof vscode.Uri ? uri : undefined);
    }),
  );
}
