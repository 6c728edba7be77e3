import * as vscode from "vscode";
import { normalizeVirtualPath } from "../../core/backends/pathGuard";
import type { Middleware } from "../../core/middleware/types";
import { describeDiagnostics, newDiagnostics, type DiagnosticFact } from "./reviewText";
import { openDocument, workspaceFileUri, type VirtualPathToUri } from "./workspaceUris";
import { latency } from "../latency";
import { PROPOSAL_SCHEME } from "./proposedFileSystem";
import type { Logger } from "../log";

export interface EditFeedbackOptions {
  /** Where the latency marks go (none without it). */
  log?: Logger;
  /** Virtual path → file URI (default: the workspace folders). */
  toUri?: VirtualPathToUri;
  /** Longest wait for the language server after a write, in ms (default 1500). */
  waitMs?: number;
  /** Quiet time after the last diagnostics change before reading them, in ms (default 300). */
  quietMs?: number;
  /**
   * Language servers (TypeScript, JSON...) only check files shown in an editor. When the written
   * file has no tab, show it as a preview beside, without focus, so it is checked and the person
   * sees the result (default true). Off: only files already in a tab get diagnostics.
   */
  revealFile?: boolean | ((path: string) => boolean);
}

/**
 * After an edit tool writes a file (approved or auto-approved), waits briefly for the language
 * server and appends the file's new error diagnostics to the tool result, so the model can fix
 * what it broke. Add it to `createAgent({ middleware: [...] })`; it runs inside the approvals.
 */
export function editFeedbackMiddleware(options: EditFeedbackOptions = {}): Middleware {
  const toUri = options.toUri ?? ((p: string) => workspaceFileUri(p));
  return {
    name: "editFeedback",
    async wrapToolCall(call, ctx, next) {
      if (call.tool.kind !== "edit") return next(call);
      const raw = call.proposal?.path ?? call.args.file_path;
      const path = typeof raw === "string" ? normalizeVirtualPath(raw) : undefined;
      const uri = typeof path === "string" ? toUri(path) : undefined;
      if (typeof path !== "string" || !uri) return next(call);

      const wasShown = hasTab(uri);
      const before = errorsOf(uri);
      latency(options.log, call.id, "write starts");
      const result = await next(call);
      latency(options.log, call.id, "written");
      if (result.isError) return result;
      // Language servers only check files shown in an editor.
      const reveal = typeof options.revealFile === "function" ? options.revealFile(path) : options.revealFile !== false;
      const doc = wasShown ? openDocument(uri) : reveal ? await showBeside(uri) : undefined;
      if (doc && doc.languageId !== "plaintext") await diagnosticsSettled(uri, options.waitMs ?? 1500, options.quietMs ?? 300, ctx.signal);
      latency(options.log, call.id, "diagnostics read");
      const after = errorsOf(uri);
      const fresh = wasShown ? newDiagnostics(before, after) : after;
      if (fresh.length === 0) return result;
      return {
        ...result,
        content: `${result.content}\n\n${describeDiagnostics(path, fresh, wasShown)}`,
        details: { ...result.details, newErrors: fresh.length },
      };
    },
  };
}

/** Whether the file has a tab in any editor group (plain or as a side of a diff). */
function hasTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => {
      const input = t.input;
      if (input instanceof vscode.TabInputText) return input.uri.toString() === key;
      if (input instanceof vscode.TabInputTextDiff) return input.modified.toString() === key;
      return false;
    }),
  );
}

/**
 * Shows the file as a preview, leaving focus where it is: where the approved diff was (a group
 * holding only Fathom's proposals, closing now), else in an empty group, else beside the active
 * editor. No new split when there is a place already.
 */
async function showBeside(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const groups = vscode.window.tabGroups.all;
  const proposals = groups.find((g) => g.tabs.length > 0 && g.tabs.every(isProposalTab));
  const empty = groups.find((g) => g.tabs.length === 0);
  try {
    const viewColumn = proposals?.viewColumn ?? empty?.viewColumn ?? vscode.ViewColumn.Beside;
    const editor = await vscode.window.showTextDocument(uri, { preserveFocus: true, preview: true, viewColumn });
    return editor.document;
  } catch {
    return undefined;
  }
}

/** The file's error diagnostics as the model is told about them. */
export function errorsOf(uri: vscode.Uri): DiagnosticFact[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
    .map((d) => {
      const code = typeof d.code === "object" ? d.code.value : d.code;
      return {
        message: d.message,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        ...(d.source ? { source: d.source } : {}),
        ...(code !== undefined ? { code: String(code) } : {}),
      };
    });
}

/**
 * Resolves once the file's diagnostics changed and then stayed quiet for `quietMs` (three times
 * that while the file has none: a first answer may be syntax-only), or after `waitMs` at most.
 * Changes before the call (the edit itself, a diff closing) are not the answer, so it starts
 * listening only now.
 */
function diagnosticsSettled(uri: vscode.Uri, waitMs: number, quietMs: number, signal: AbortSignal): Promise<void> {
  const key = uri.toString();
  return new Promise<void>((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === key)) return;
      clearTimeout(quiet);
      quiet = setTimeout(done, vscode.languages.getDiagnostics(uri).length === 0 ? quietMs * 3 : quietMs);
    });
    const limit = setTimeout(done, signal.aborted ? 0 : waitMs);
    signal.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(limit);
      clearTimeout(quiet);
      sub.dispose();
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

function isProposalTab(tab: vscode.Tab): boolean {
  return tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme.startsWith(PROPOSAL_SCHEME);
}
