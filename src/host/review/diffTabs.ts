import * as vscode from "vscode";
import { openDocument } from "../workspaceUris";

/** The two sides of a proposal's diff, and the editor group the diff split off (if it did). */
export interface DiffSides {
  beforeUri: vscode.Uri;
  afterUri: vscode.Uri;
  /** The editor group opened for this diff (closed again with it when left empty). */
  createdGroup?: vscode.TabGroup;
}

/**
 * Opens the diff without a preview slot (its own tab, closed when decided, so it never
 * replaces the person's preview), beside their editor or in the empty editor area.
 */
export async function openDiffEditor(
  sides: DiffSides,
  title: string,
  o: { preserveFocus: boolean; viewColumn?: vscode.ViewColumn },
): Promise<void> {
  const groupsBefore = new Set(vscode.window.tabGroups.all);
  await vscode.commands.executeCommand("vscode.diff", sides.beforeUri, sides.afterUri, title, {
    preserveFocus: o.preserveFocus,
    preview: false,
    viewColumn: o.viewColumn ?? diffColumn(),
  } satisfies vscode.TextDocumentShowOptions);
  const group = diffTabs(sides)[0]?.group;
  if (group && !groupsBefore.has(group)) sides.createdGroup = group;
}

/** The tabs showing a proposal (its diff, or one of its sides opened on its own). */
export function diffTabs(sides: DiffSides): vscode.Tab[] {
  const keys = new Set([sides.beforeUri.toString(), sides.afterUri.toString()]);
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((tab) => {
      const input = tab.input;
      if (input instanceof vscode.TabInputTextDiff)
        return keys.has(input.modified.toString()) || keys.has(input.original.toString());
      if (input instanceof vscode.TabInputText) return keys.has(input.uri.toString());
      return false;
    });
}

/**
 * Closes the proposal's tabs, and the group split off for them, without a save prompt or a focus
 * change. `beforeSave` lets the owner make the right side's save go through whatever its stored
 * copy says (the proposal is decided: what the person typed was already taken).
 */
export async function closeDiffEditor(
  sides: DiffSides,
  log: { warn(message: string): void },
  what: string,
  beforeSave?: () => void,
): Promise<void> {
  try {
    // Saving the right side first stores it in memory only, and avoids a "Save changes?" prompt.
    const doc = openDocument(sides.afterUri);
    if (doc?.isDirty) {
      beforeSave?.();
      await doc.save();
    }
    const tabs = diffTabs(sides);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    // The group split off for the diff goes with it, unless the person put something in it.
    const group = sides.createdGroup;
    if (group && vscode.window.tabGroups.all.includes(group) && group.tabs.length === 0)
      await vscode.window.tabGroups.close(group, true);
  } catch (error) {
    log.warn(`review: could not close the diff of ${what}: ${String(error)}`);
  }
}

/**
 * Scrolls the open editors of `uri` to the first line where `after` differs from `before` (a
 * diff opened before its proposal came does not move to the change by itself). That line is in
 * the document before it reloads the proposal too, and a reload keeps the scroll position, so
 * this need not wait for it.
 */
export function revealChange(uri: vscode.Uri, before: string, after: string): void {
  const was = before.split(/\r?\n/);
  const now = after.split(/\r?\n/);
  let line = 0;
  while (line < was.length && line < now.length && was[line] === now[line]) line++;
  const at = new vscode.Range(line, 0, line, 0);
  for (const editor of vscode.window.visibleTextEditors) {
    if (editor.document.uri.toString() === uri.toString())
      editor.revealRange(at, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

/** A document's whole text replaced (as an undoable edit; a BOM is the editor's to hide). */
export async function replaceText(
  doc: vscode.TextDocument,
  text: string,
  log: { warn(message: string): void },
): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text.startsWith("\uFEFF") ? text.slice(1) : text);
  if (!(await vscode.workspace.applyEdit(edit))) log.warn(`review: could not show the proposal in ${doc.uri.path}`);
}

/**
 * Beside the person's editor when they have one open; in the (empty) editor area otherwise,
 * so the diff does not leave an empty editor group next to it.
 */
function diffColumn(): vscode.ViewColumn {
  const anyTabOpen = vscode.window.tabGroups.all.some((group) => group.tabs.length > 0);
  return anyTabOpen ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
}
