import * as vscode from "vscode";
import { normalizeVirtualPath } from "../../core/backends/pathGuard";
import type { Middleware } from "../../core/middleware/types";
import { isMemoryPath } from "../../core/memory/memoryStore";
import { describeDiagnostics, newDiagnostics, type DiagnosticFact } from "./reviewText";
import { openDocument, workspaceFileUri, type VirtualPathToUri } from "../workspaceUris";
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

/** A written file whose diagnostics are being waited for. */
interface Check {
  path: string;
  uri: vscode.Uri;
  /** The file's errors before the first of its writes still being checked. */
  before: DiagnosticFact[];
  compared: boolean;
  /** The new errors once the language server has settled (empty: none). */
  settled: Promise<DiagnosticFact[]>;
  result?: DiagnosticFact[];
}

/**
 * After an edit tool writes a file (approved or auto-approved), the language server's new errors
 * in it go back to the model, so it can fix what it broke, without holding up its next request:
 * the tool answers at once, and the check (showing the file so its server looks at it, then
 * waiting until its diagnostics settle) runs meanwhile. Errors found go with the next tool
 * result of the run, said as late; if the model answers without another call first, the run
 * waits for the checks and, when they found errors, goes on with them. Add it to
 * `createAgent({ middleware: [...] })`; it runs inside the approvals.
 */
export function editFeedbackMiddleware(options: EditFeedbackOptions = {}): Middleware {
  const toUri = options.toUri ?? ((p: string) => workspaceFileUri(p));
  const checks = new Map<string, Check>();
  const waitMs = options.waitMs ?? 1500;
  const quietMs = options.quietMs ?? 300;

  /** The settled checks' errors, said for the model; the checks are done with. */
  const lateReport = (): string | undefined => {
    const parts: string[] = [];
    for (const [key, check] of checks) {
      if (!check.result) continue;
      checks.delete(key);
      if (check.result.length > 0) parts.push(describeDiagnostics(check.path, check.result, check.compared));
    }
    return parts.length ? parts.join("\n\n") : undefined;
  };

  return {
    name: "editFeedback",
    async wrapToolCall(call, ctx, next) {
      if (call.tool.kind !== "edit") return withLate(await next(call), lateReport());
      const raw = call.proposal?.path ?? call.args.file_path;
      const path = typeof raw === "string" ? normalizeVirtualPath(raw) : undefined;
      // Memory is not a workspace file: no editor, no language server.
      const uri = typeof path === "string" && !isMemoryPath(path) ? toUri(path) : undefined;
      if (typeof path !== "string" || !uri) return withLate(await next(call), lateReport());

      // A file written again while its check runs is compared with before its first write.
      const pending = checks.get(uri.toString());
      const wasShown = pending?.compared ?? hasTab(uri);
      const before = pending?.before ?? errorsOf(uri);
      latency(options.log, call.id, "write starts");
      const result = await next(call);
      latency(options.log, call.id, "written");
      if (result.isError) return withLate(result, lateReport());
      const reveal = typeof options.revealFile === "function" ? options.revealFile(path) : options.revealFile !== false;
      const check: Check = { path, uri, before, compared: wasShown, settled: Promise.resolve([]) };
      check.settled = settle(uri, { wasShown, reveal, waitMs, quietMs, signal: ctx.signal }).then((doc) => {
        latency(options.log, call.id, "diagnostics read");
        const after = doc ? errorsOf(uri) : [];
        check.result = wasShown ? newDiagnostics(before, after) : after;
        return check.result;
      });
      checks.set(uri.toString(), check);
      return withLate(result, lateReport());
    },
    async beforeFinish(ctx) {
      if (checks.size === 0 || ctx.signal.aborted) return undefined;
      // The task is not done while its last writes' errors are unknown (each check is bounded).
      await Promise.race([
        Promise.all([...checks.values()].map((c) => c.settled)),
        new Promise((r) => ctx.signal.addEventListener("abort", r, { once: true })),
      ]);
      const report = lateReport();
      return report
        ? {
            text: `[Fathom] After your last edits, the editor reports errors:\n\n${report}`,
            note: "The editor reported errors after the last edit: Fathom asked the model to look at them.",
          }
        : undefined;
    },
  };
}

function withLate<T extends { content: string; details?: Record<string, unknown> }>(
  result: T,
  late: string | undefined,
): T {
  if (!late) return result;
  return {
    ...result,
    content: `${result.content}\n\n(Reported by the editor after an earlier edit's result was sent.)\n${late}`,
    details: { ...result.details, lateErrors: true },
  };
}

/**
 * Shows the file when no editor has it (language servers only check shown files) and waits
 * until its diagnostics settle; the document, or undefined when nothing checks it.
 */
async function settle(
  uri: vscode.Uri,
  o: { wasShown: boolean; reveal: boolean; waitMs: number; quietMs: number; signal: AbortSignal },
): Promise<vscode.TextDocument | undefined> {
  // Listening starts before the file is shown: its first diagnostics may come while it opens.
  const settled = diagnosticsSettled(uri, o.waitMs, o.quietMs, o.signal);
  const doc = o.wasShown ? openDocument(uri) : o.reveal ? await showBeside(uri) : undefined;
  if (!doc || doc.languageId === "plaintext") {
    settled.cancel();
    return doc;
  }
  await settled.promise;
  return doc;
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
  const shownBefore = new Set(groups.flatMap((g) => g.tabs.filter(isProposalTab).map(tabKey)));
  try {
    const viewColumn = proposals?.viewColumn ?? empty?.viewColumn ?? vscode.ViewColumn.Beside;
    const editor = await vscode.window.showTextDocument(uri, { preserveFocus: true, preview: true, viewColumn });
    await uncover(shownBefore);
    return editor.document;
  } catch {
    return undefined;
  }
}

/**
 * The file is shown while the model goes on: a proposal's diff that opened meanwhile in the same
 * group (the next edit, opened early) must stay in front of it, where the person looks.
 */
async function uncover(shownBefore: Set<string>): Promise<void> {
  for (const group of vscode.window.tabGroups.all) {
    const covered = group.tabs.find((t) => isProposalTab(t) && !shownBefore.has(tabKey(t)) && !t.isActive);
    if (!covered || !(covered.input instanceof vscode.TabInputTextDiff)) continue;
    const { original, modified } = covered.input;
    await vscode.commands.executeCommand("vscode.diff", original, modified, covered.label, {
      preserveFocus: true,
      preview: false,
      viewColumn: group.viewColumn,
    });
  }
}

const tabKey = (tab: vscode.Tab): string =>
  tab.input instanceof vscode.TabInputTextDiff ? tab.input.modified.toString() : "";

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
function diagnosticsSettled(
  uri: vscode.Uri,
  waitMs: number,
  quietMs: number,
  signal: AbortSignal,
): { promise: Promise<void>; cancel(): void } {
  const key = uri.toString();
  let done = () => undefined as void;
  const promise = new Promise<void>((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === key)) return;
      clearTimeout(quiet);
      quiet = setTimeout(done, vscode.languages.getDiagnostics(uri).length === 0 ? quietMs * 3 : quietMs);
    });
    const limit = setTimeout(() => done(), signal.aborted ? 0 : waitMs);
    signal.addEventListener("abort", () => done(), { once: true });
    done = () => {
      clearTimeout(limit);
      clearTimeout(quiet);
      sub.dispose();
      resolve();
    };
  });
  return { promise, cancel: () => done() };
}

function isProposalTab(tab: vscode.Tab): boolean {
  return tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme.startsWith(PROPOSAL_SCHEME);
}
