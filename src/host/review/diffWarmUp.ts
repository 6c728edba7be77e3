import * as vscode from "vscode";

/** VS Code stops an editor worker left idle for five minutes: it is asked again after four. */
const WARM_FOR_MS = 4 * 60_000;

/** What the warm-up document holds: a link, which only the editor worker finds in plain text. */
export const WARM_UP_TEXT = "https://code.visualstudio.com/api\n";

/**
 * Starts the window's editor worker, which computes every diff, before a task's first diff
 * needs it: a window that has not shown a diff or an editor yet starts it on the first diff,
 * while the person waits. Nothing is shown: VS Code's link detection, which runs in that worker,
 * is asked about a document of Fathom's read-only scheme (`uri`, holding WARM_UP_TEXT).
 */
export class DiffWarmUp {
  private warmedAt = -Infinity;

  constructor(
    readonly uri: vscode.Uri,
    private readonly log: { debug(message: string): void },
  ) {}

  /** True once the worker answered; false when it was asked lately or could not be. */
  async warm(): Promise<boolean> {
    const started = Date.now();
    if (started - this.warmedAt < WARM_FOR_MS) return false;
    this.warmedAt = started;
    try {
      const doc = await vscode.workspace.openTextDocument(this.uri);
      const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>("vscode.executeLinkProvider", doc.uri);
      this.log.debug(`review: editor worker warm in ${Date.now() - started} ms`);
      return links.length > 0;
    } catch (error) {
      this.log.debug(`review: could not warm the editor worker: ${String(error)}`);
      return false;
    }
  }
}
