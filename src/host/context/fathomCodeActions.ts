import type * as vscode from "vscode";

/** The parts of the `vscode` module the provider uses (given, so the bench can time it without VS Code). */
export interface CodeActionApi {
  CodeAction: typeof vscode.CodeAction;
  CodeActionKind: typeof vscode.CodeActionKind;
}

export const FIX_COMMAND = "fathom.fixWithFathom";
export const EXPLAIN_COMMAND = "fathom.explainWithFathom";
export const ADD_SELECTION_COMMAND = "fathom.addSelectionToChat";

/**
 * **Fix with Fathom** on the diagnostics under the cursor (a quick fix in the lightbulb and
 * Ctrl+.), **Explain with Fathom** and **Add to Fathom Chat** on a selection. VS Code asks on
 * every cursor move in every file, so this does no I/O and returns at once when there is
 * neither a diagnostic nor a selection; the work (reading lines, starting a task) happens in
 * the command, only when the person picks it.
 */
export class FathomCodeActions implements vscode.CodeActionProvider {
  readonly kinds: vscode.CodeActionKind[];
  private readonly quickFix: vscode.CodeActionKind;
  private readonly empty: vscode.CodeActionKind;

  constructor(private readonly api: CodeActionApi) {
    this.quickFix = api.CodeActionKind.QuickFix;
    this.empty = api.CodeActionKind.Empty;
    this.kinds = [this.quickFix, this.empty];
  }

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const diagnostics = context.diagnostics;
    if (diagnostics.length === 0 && range.isEmpty) return [];
    // Asked for one kind only (fix all on save, organize imports): none of ours unless a quick fix is wanted.
    const only = context.only;
    const actions: vscode.CodeAction[] = [];
    if (diagnostics.length > 0 && (!only || only.contains(this.quickFix))) {
      const fix = new this.api.CodeAction(
        diagnostics.length > 1 ? `Fix with Fathom (${diagnostics.length} problems)` : "Fix with Fathom",
        this.quickFix,
      );
      fix.diagnostics = [...diagnostics];
      fix.command = {
        command: FIX_COMMAND,
        title: "Fix with Fathom",
        arguments: [document.uri, range, [...diagnostics]],
      };
      actions.push(fix);
    }
    if (!range.isEmpty && !only) {
      const explain = new this.api.CodeAction("Explain with Fathom", this.empty);
      explain.command = { command: EXPLAIN_COMMAND, title: "Explain with Fathom", arguments: [document.uri, range] };
      const add = new this.api.CodeAction("Add to Fathom Chat", this.empty);
      add.command = { command: ADD_SELECTION_COMMAND, title: "Add to Fathom Chat", arguments: [document.uri, range] };
      actions.push(explain, add);
    }
    return actions;
  }
}
