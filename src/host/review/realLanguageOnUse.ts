import * as vscode from "vscode";
import { parseProposalUri, REAL_LANGUAGE_OF } from "./reviewText";

/** Selection changes only the person makes (a click, a key), not an API call or a reload. */
const BY_THE_PERSON = new Set([
  vscode.TextEditorSelectionChangeKind.Mouse,
  vscode.TextEditorSelectionChangeKind.Keyboard,
]);

/**
 * Gives a proposal's right side its real language (and with it the TypeScript server's
 * completions, hovers and errors) once the person clicks or types in it. Until then it only
 * borrows the grammar, so a diff that is looked at, not edited, costs the language server
 * nothing (see REVIEW_FOLDER). Being the active editor is not enough: a diff opened beside the
 * chat without focus becomes the active editor of its group.
 */
export class RealLanguageOnUse implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  /** Documents being given their language (each click or key would ask again). */
  private readonly promoting = new Set<string>();

  constructor(
    private readonly scheme: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.kind !== undefined && BY_THE_PERSON.has(e.kind)) this.promote(e.textEditor.document);
    });
  }

  private promote(doc: vscode.TextDocument): void {
    const real = Object.hasOwn(REAL_LANGUAGE_OF, doc.languageId) ? REAL_LANGUAGE_OF[doc.languageId] : undefined;
    const key = doc.uri.toString();
    if (
      !real ||
      doc.uri.scheme !== this.scheme ||
      parseProposalUri(doc.uri.query)?.side !== "after" ||
      this.promoting.has(key)
    )
      return;
    this.promoting.add(key);
    vscode.languages
      .setTextDocumentLanguage(doc, real)
      .then(
        () => this.log.debug(`review: ${doc.uri.path} is ${real} now that the person is in it`),
        (e: unknown) =>
          this.log.warn(
            `review: could not give ${doc.uri.path} the language ${real}: ${e instanceof Error ? e.message : String(e)}`,
          ),
      )
      .then(() => this.promoting.delete(key));
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
