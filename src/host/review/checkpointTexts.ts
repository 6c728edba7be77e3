import * as vscode from "vscode";

const SCHEME = "fathom-checkpoint";
const texts = new Map<string, string>();
let registration: vscode.Disposable | undefined;
let counter = 0;

/**
 * Read-only documents holding a checkpoint's text of a file, for the diff that shows a restore
 * conflict (`fathom-checkpoint:` URIs; nothing is written to disk). One provider per window.
 */
export class CheckpointTexts {
  put(virtualPath: string, text: string): vscode.Uri {
    registration ??= vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => texts.get(uri.query) ?? "" });
    const key = String(++counter);
    texts.set(key, text);
    // Only the latest few are kept: each diff asks for its own, and old ones are closed.
    if (texts.size > 20) texts.delete(texts.keys().next().value!);
    return vscode.Uri.from({ scheme: SCHEME, path: virtualPath, query: key });
  }
}
