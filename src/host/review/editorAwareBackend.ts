import * as vscode from "vscode";
import type {
  BackendProtocol, EditResult, GlobResult, GrepOptions, GrepResult, LsResult, PreparedChange, ReadResult, TextResult, WriteResult,
} from "../../core/backends/protocol";
import { eolStyle, hasBom, sameAsEditorText, stripBom } from "./reviewText";
import { openDocument, workspaceFileUri, type VirtualPathToUri } from "./workspaceUris";
import { editByPreparing, writeByPreparing } from "../../core";

export interface EditorAwareBackendOptions {
  log: vscode.LogOutputChannel;
  /** Virtual path → file URI (default: the workspace folders, as the core's backends route them). */
  toUri?: VirtualPathToUri;
  /** Tells the person something went wrong (default: a warning notification). */
  warn?: (message: string) => void;
}

/**
 * Wraps the core's file backend so that writes go through VS Code when the file is open in an
 * editor: a `WorkspaceEdit` replaces the document's text and the document is saved, so the
 * editor's undo stack keeps the change. An open document with the person's unsaved changes is
 * never overwritten. Files that are not open are written by the wrapped backend (atomically).
 * Everything else is delegated unchanged, so the stale-write guard keeps working.
 */
export class EditorAwareBackend implements BackendProtocol {
  private readonly toUri: VirtualPathToUri;
  private readonly notes = new Map<string, string[]>();

  constructor(readonly inner: BackendProtocol, private readonly options: EditorAwareBackendOptions) {
    this.toUri = options.toUri ?? ((p) => workspaceFileUri(p));
  }

  ls(path: string): Promise<LsResult> {
    return this.inner.ls(path);
  }
  read(path: string, offset?: number, limit?: number): Promise<ReadResult> {
    return this.inner.read(path, offset, limit);
  }
  readText(path: string, maxBytes: number): Promise<TextResult> {
    return this.inner.readText(path, maxBytes);
  }
  grep(pattern: string, path?: string, glob?: string, options?: GrepOptions): Promise<GrepResult> {
    return this.inner.grep(pattern, path, glob, options);
  }
  glob(pattern: string, path?: string): Promise<GlobResult> {
    return this.inner.glob(pattern, path);
  }
  prepareWrite(path: string, content: string): Promise<PreparedChange | { error: string }> {
    return this.inner.prepareWrite(path, content);
  }
  prepareEdit(path: string, oldString: string, newString: string, replaceAll?: boolean): Promise<PreparedChange | { error: string }> {
    return this.inner.prepareEdit(path, oldString, newString, replaceAll);
  }

  write(path: string, content: string): Promise<WriteResult> {
    return writeByPreparing(this, path, content);
  }

  edit(path: string, oldString: string, newString: string, replaceAll = false): Promise<EditResult> {
    return editByPreparing(this, path, oldString, newString, replaceAll);
  }

  /** A file with unsaved edits in an editor is the person's work in progress: never restored over. */
  async currentText(path: string): Promise<{ text: string | null } | { error: string }> {
    const uri = this.toUri(path);
    const doc = uri ? openDocument(uri) : undefined;
    if (doc && !doc.isClosed && doc.isDirty) return { error: `${path} has unsaved changes in the editor` };
    return this.inner.currentText ? this.inner.currentText(path) : { error: `${path} cannot be restored here.` };
  }

  async deleteFile(path: string, expected: string): Promise<WriteResult> {
    const uri = this.toUri(path);
    const doc = uri ? openDocument(uri) : undefined;
    if (doc && !doc.isClosed && doc.isDirty) return { error: `${path} has unsaved changes in the editor; it was not deleted.` };
    return this.inner.deleteFile ? this.inner.deleteFile(path, expected) : { error: `${path} cannot be deleted here.` };
  }

  /** Notes about the last write of `path` for the model (for example: save settings changed it). */
  takeNotes(path: string): string[] {
    const n = this.notes.get(path) ?? [];
    this.notes.delete(path);
    return n;
  }

  async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    this.notes.delete(path);
    const uri = this.toUri(path);
    const doc = uri ? openDocument(uri) : undefined;
    if (!uri || !doc || doc.isClosed) return this.inner.commitChange(path, before, after);
    if (doc.isDirty) {
      const message = `Fathom did not write ${path}: it has unsaved changes in the editor. Save or revert them, then ask Fathom to try again.`;
      (this.options.warn ?? ((m) => void vscode.window.showWarningMessage(m)))(message);
      this.options.log.warn(`write refused: ${path} has unsaved changes in the editor`);
      return { error: `${path} has unsaved changes in the editor; nothing was written. Ask the person to save or revert them, then read it again.` };
    }
    if (typeof after !== "string") return { error: "The new content must be a string." };

    // The stale-write guard, as the backend applies it: the file must still hold `before`.
    const onDisk = await readText(uri);
    if (onDisk === undefined ? before !== null : onDisk !== before) {
      return { error: `${path} changed on disk after the change was prepared; nothing was written. Read it again and redo the change.` };
    }
    const eol = doc.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
    const afterEol = eolStyle(after);
    // What an editor cannot express exactly (a BOM appearing or vanishing, mixed line endings, a
    // document out of step with the disk) is written by the backend; the clean editor reloads it.
    if (
      before === null ||
      hasBom(before) !== hasBom(after) ||
      afterEol === "mixed" ||
      !sameAsEditorText(before, doc.getText(), eol) ||
      eolStyle(before) === "mixed"
    ) {
      this.options.log.info(`write ${path}: open in the editor, written by the backend (line endings, BOM or a stale document)`);
      return this.inner.commitChange(path, before, after);
    }

    const edit = new vscode.WorkspaceEdit();
    const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    const edits = [vscode.TextEdit.replace(whole, stripBom(after))];
    if (afterEol !== "none" && (afterEol === "crlf") !== (eol === "\r\n")) {
      edits.push(vscode.TextEdit.setEndOfLine(afterEol === "crlf" ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF));
    }
    edit.set(uri, edits);
    if (!(await vscode.workspace.applyEdit(edit))) {
      return { error: `VS Code refused the edit to ${path} (the editor may be read-only); nothing was written.` };
    }
    if (!(await doc.save())) {
      this.options.log.warn(`write ${path}: applied in the editor but the save failed`);
      return { error: `${path} was changed in the editor but VS Code could not save it; the person can save it (Ctrl+S) or undo it (Ctrl+Z). Read it again before another change.` };
    }
    const saved = await readText(uri);
    if (saved === after) {
      // Tell the backend's stale-write guard that the agent has seen the new version.
      await this.inner.read(path, 0, 1);
    } else {
      this.notes.set(path, [
        "The editor's save settings (format on save, trim trailing whitespace or final newline) changed the file as it was saved; read it again before changing it further.",
      ]);
    }
    this.options.log.info(`write ${path}: applied through the open editor and saved (undo restores the old text)`);
    return { path };
  }
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
