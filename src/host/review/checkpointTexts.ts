import * as vscode from "vscode";

export const CHECKPOINT_SCHEME = "fathom-checkpoint";
const texts = new Map<string, string>();
let registration: vscode.Disposable | undefined;
let counter = 0;

/**
 * Read-only documents holding what a restore would make a file, for the Restore panel's diffs
 * (`fathom-checkpoint:` URIs; nothing is written to disk). One provider per window.
 */
export class CheckpointTexts {
  /** `side` names the document in the editor's tab ("after the restore"). */
  put(virtualPath: string, text: string, side: string): vscode.Uri {
    registration ??= vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
      provideTextDocumentContent: (uri) => texts.get(uri.query) ?? "",
    });
    const key = String(++counter);
    texts.set(key, text);
    // Only the latest few are kept: each diff asks for its own, and old ones are closed.
    if (texts.size > 40) texts.delete(texts.keys().next().value!);
    return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: virtualPath, query: key, fragment: side });
  }
}
