import * as vscode from "vscode";
import type { BackendProtocol, EditResult, WriteResult } from "../../core/backends/protocol";
import { sameAsEditorText } from "./reviewText";
import { openDocument, workspaceFileUri, type VirtualPathToUri } from "../workspaceUris";
import { editByPreparing, writeByPreparing, WrappingBackend } from "../../core";
import { latency } from "../latency";

export interface EditorAwareBackendOptions {
  log: vscode.LogOutputChannel;
  /** Virtual path → file URI (default: the workspace folders, as the core's backends route them). */
  toUri?: VirtualPathToUri;
  /** Tells the person something went wrong (default: a warning notification). */
  warn?: (message: string) => void;
}

/**
 * Wraps the core's file backend with what the open editors know: a file with the person's
 * unsaved changes is never written, restored over or deleted; every other write goes to disk
 * through the wrapped backend (atomically, with its stale-write guard), and an open editor of
 * the file is awaited until it shows the write. Everything else is delegated unchanged.
 */
export class EditorAwareBackend extends WrappingBackend {
  private readonly toUri: VirtualPathToUri;

  constructor(
    inner: BackendProtocol,
    private readonly options: EditorAwareBackendOptions,
  ) {
    super(inner);
    this.toUri = options.toUri ?? ((p) => workspaceFileUri(p));
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
    if (doc && !doc.isClosed && doc.isDirty)
      return { error: `${path} has unsaved changes in the editor; it was not deleted.` };
    return this.inner.deleteFile ? this.inner.deleteFile(path, expected) : { error: `${path} cannot be deleted here.` };
  }

  /** Open editors still reloading an earlier write, by path. */
  private readonly following = new Map<string, Promise<unknown>>();

  async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    // A second write waits for the editor to show the first, so each is an Undo step of its own.
    await this.following.get(path);
    const uri = this.toUri(path);
    const doc = uri ? openDocument(uri) : undefined;
    if (!uri || !doc || doc.isClosed) return this.inner.commitChange(path, before, after);
    if (doc.isDirty) {
      const message = `Fathom did not write ${path}: it has unsaved changes in the editor. Save or revert them, then ask Fathom to try again.`;
      (this.options.warn ?? ((m) => void vscode.window.showWarningMessage(m)))(message);
      this.options.log.warn(`write refused: ${path} has unsaved changes in the editor`);
      return {
        error: `${path} has unsaved changes in the editor; nothing was written. Ask the person to save or revert them, then read it again.`,
      };
    }
    // Straight to disk (atomic, with the stale-write guard), never through the editor's save: a
    // save waits on the window and runs save participants (format on save, code actions, a
    // language server starting), which held approved writes for up to seconds and changed what
    // the person approved. The clean editor reloads the file from disk, and VS Code applies a
    // reload as an edit, so Undo there still takes the change back.
    const mark = (step: string) => latency(this.options.log, `write:${path}`, step);
    mark("disk write");
    const result = await this.inner.commitChange(path, before, after);
    mark("on disk");
    if ("error" in result) return result;
    // The editor reloads the file meanwhile (VS Code's file watcher): the tool answers now, so the
    // model's next request does not wait on the window. A later write or restore still refuses
    // an editor the person has typed into (isDirty), reloaded or not.
    const follows = documentFollows(doc, after, FOLLOW_MS).then((followed) => {
      if (!followed)
        this.options.log.info(`write ${path}: on disk; the open editor had not reloaded it after ${FOLLOW_MS} ms`);
      mark("editor reloaded");
      if (this.following.get(path) === follows) this.following.delete(path);
    });
    this.following.set(path, follows);
    return result;
  }
}

/** Longest wait for an open editor to show a write (VS Code's file watcher reloads it). */
const FOLLOW_MS = 2000;

/** Resolves true once the clean document shows `text`, false after `timeoutMs` or when the person edits it. */
function documentFollows(doc: vscode.TextDocument, text: string, timeoutMs: number): Promise<boolean> {
  const eol = () => (doc.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n");
  if (sameAsEditorText(text, doc.getText(), eol())) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const done = (followed: boolean) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(followed);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== doc) return;
      if (sameAsEditorText(text, doc.getText(), eol())) done(true);
      else if (doc.isDirty) done(false);
    });
  });
}
