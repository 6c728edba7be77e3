import * as vscode from "vscode";
import type { Attachment } from "../../core";
import type { ChatViewProvider } from "../chatView/chatViewProvider";
import { latency } from "../latency";
import type { Logger } from "../log";
import { readSettings } from "../settings";
import { problemsAttachment, problemLine, type ProblemEntry } from "./contextText";
import { fileAttachment, selectionAttachment, type AttachResult } from "./editorAttachments";
import { ADD_SELECTION_COMMAND, EXPLAIN_COMMAND, FathomCodeActions, FIX_COMMAND } from "./fathomCodeActions";
import { problemEntry, workspaceProblems } from "./problems";
import type { TerminalHistory } from "./terminalHistory";
import { virtualPathOf } from "../workspaceUris";
import { notInWorkspace } from "./workspacePaths";

/** Lines around a diagnostic sent with "Fix with Fathom". */
const FIX_CONTEXT_LINES = 8;

interface ContextDeps {
  view: ChatViewProvider;
  /** Starts a task with the chips (the task manager; only this, so context never reaches into tasks/). */
  tasks: () => {
    startTask(text: string, options: { attachments: Attachment[]; where: "new" | "current" }): Promise<unknown>;
  };
  log: Logger;
  /** The person's terminals' last commands (shared with the `terminal_output` tool). */
  terminals: TerminalHistory;
}

/**
 * Fathom from where people work: the editor's selection, explorer files, a terminal's last
 * command and the Problems list as chips in the message box; Fix / Explain with Fathom from the
 * lightbulb. Every entry point ends in the same chat, task, approvals and sandbox as a typed
 * message.
 */
export function registerContextCommands({ view, tasks, log, terminals }: ContextDeps): vscode.Disposable {
  const secretFiles = () => readSettings(vscode.workspace.getConfiguration("fathom")).secretFiles;
  const showChat = () => vscode.commands.executeCommand("fathom.chat.focus");
  /** The chips go to the view first (one message when it is open), then the chat is shown and focused. */
  const attach = async (results: AttachResult[]) => {
    const added = results.flatMap((r) => ("attachment" in r ? [r.attachment] : []));
    const refused = results.flatMap((r) => ("refused" in r ? [r.refused] : []));
    if (added.length) view.chips.add(added);
    if (refused.length) view.chips.refuse(refused.join(" "));
    latency(log, "chip", "posted");
    await showChat();
  };
  const addProblems = async () => attach([problemsResult(workspaceProblems())]);
  view.onAttachProblems = () => void addProblems();
  const codeActions = new FathomCodeActions(vscode);
  /** "Fix" and "Explain" start a new task unless the person chose to add them to the open one. */
  const where = () =>
    vscode.workspace.getConfiguration("fathom").get<boolean>("codeActions.addToCurrentTask") === true
      ? "current"
      : "new";

  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider({ scheme: "file" }, codeActions, {
      providedCodeActionKinds: codeActions.kinds,
    }),
    vscode.commands.registerCommand("fathom.focusChat", async () => {
      view.chips.focus();
      await showChat();
    }),
    vscode.commands.registerCommand(ADD_SELECTION_COMMAND, async (uri?: unknown, range?: unknown) => {
      latency(log, "chip", "command");
      const editor = editorFor(uri);
      if (!editor) return attach([{ refused: "Open a file in the editor (and select some lines) first." }]);
      const chosen = range instanceof vscode.Range ? new vscode.Selection(range.start, range.end) : editor.selection;
      return attach([selectionAttachment({ document: editor.document, selection: chosen }, secretFiles())]);
    }),
    vscode.commands.registerCommand("fathom.addFileToChat", async (uri?: unknown, uris?: unknown) => {
      const chosen =
        Array.isArray(uris) && uris.every((u) => u instanceof vscode.Uri) && uris.length
          ? (uris as vscode.Uri[])
          : uri instanceof vscode.Uri
            ? [uri]
            : vscode.window.activeTextEditor
              ? [vscode.window.activeTextEditor.document.uri]
              : [];
      if (chosen.length === 0)
        return attach([
          { refused: "Pick files in the Explorer (right-click, Add File to Fathom Chat), or open one in the editor." },
        ]);
      const secrets = secretFiles();
      return attach(chosen.map((u) => fileAttachment(u, secrets)));
    }),
    vscode.commands.registerCommand("fathom.addTerminalOutputToChat", async (arg?: unknown) => {
      const terminal = isTerminal(arg) ? arg : vscode.window.activeTerminal;
      if (!terminal) return attach([{ refused: "There is no terminal: open one and run a command first." }]);
      return attach([await terminals.attachmentFor(terminal)]);
    }),
    vscode.commands.registerCommand("fathom.addProblemsToChat", addProblems),
    vscode.commands.registerCommand(FIX_COMMAND, async (uri?: unknown, range?: unknown, diagnostics?: unknown) => {
      const editor = editorFor(uri);
      if (!editor) return;
      const list = Array.isArray(diagnostics)
        ? (diagnostics as vscode.Diagnostic[])
        : vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.range.contains(editor.selection.active));
      const fix = fixRequest(
        editor.document,
        range instanceof vscode.Range ? range : editor.selection,
        list,
        secretFiles(),
      );
      if ("refused" in fix) return void vscode.window.showWarningMessage(`Fathom: ${fix.refused}`);
      await showChat();
      await tasks().startTask(fix.text, { attachments: fix.attachments, where: where() });
    }),
    vscode.commands.registerCommand(EXPLAIN_COMMAND, async (uri?: unknown, range?: unknown) => {
      const editor = editorFor(uri);
      if (!editor) return;
      const chosen = range instanceof vscode.Range ? new vscode.Selection(range.start, range.end) : editor.selection;
      const result = selectionAttachment({ document: editor.document, selection: chosen }, secretFiles());
      if ("refused" in result) return void vscode.window.showWarningMessage(`Fathom: ${result.refused}`);
      await showChat();
      await tasks().startTask("Explain what this code does and how it works.", {
        attachments: [result.attachment],
        where: where(),
      });
    }),
  );
}

/** The editor showing `uri` (a code action's document), or the active one. */
function editorFor(uri: unknown): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (!(uri instanceof vscode.Uri) || active?.document.uri.toString() === uri.toString()) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()) ?? active;
}

function isTerminal(value: unknown): value is vscode.Terminal {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as vscode.Terminal).sendText === "function" &&
    typeof (value as vscode.Terminal).name === "string"
  );
}

function problemsResult(entries: ProblemEntry[]): AttachResult {
  const result = problemsAttachment(entries);
  return "refused" in result ? result : { attachment: result };
}

/**
 * What "Fix with Fathom" sends: the problems in words (so the transcript says what is being
 * fixed), the diagnostics with their source, code and range, and the lines around them.
 */
export function fixRequest(
  document: vscode.TextDocument,
  range: vscode.Range,
  diagnostics: readonly vscode.Diagnostic[],
  secretFiles: readonly string[],
): { text: string; attachments: Attachment[] } | { refused: string } {
  const path = virtualPathOf(document.uri);
  if (!path) return { refused: notInWorkspace(document.uri) };
  const entries = diagnostics
    .map((d) => problemEntry(document.uri, d))
    .filter((e): e is ProblemEntry => e !== undefined);
  if (entries.length === 0) return { refused: "There is no problem here to fix (no diagnostic under the cursor)." };
  const first = entries[0]!;
  const start = Math.max(
    0,
    Math.min(range.start.line, ...diagnostics.map((d) => d.range.start.line)) - FIX_CONTEXT_LINES,
  );
  const end = Math.min(
    document.lineCount - 1,
    Math.max(range.end.line, ...diagnostics.map((d) => d.range.end.line)) + FIX_CONTEXT_LINES,
  );
  const around = selectionAttachment(
    { document, selection: new vscode.Selection(start, 0, end, document.lineAt(end).text.length) },
    secretFiles,
  );
  if ("refused" in around) return around;
  const problems = problemsAttachment(entries, {
    label:
      entries.length > 1
        ? `${entries.length} problems in ${path.replace(/^\//, "")}`
        : `Problem at ${path.replace(/^\//, "")}:${first.line}`,
    includeInfo: true,
  });
  const text =
    entries.length > 1
      ? `Fix these ${entries.length} problems in ${path.replace(/^\//, "")}:\n${entries.map(problemLine).join("\n")}`
      : `Fix this problem: ${problemLine(first)}`;
  return { text, attachments: ["refused" in problems ? [] : [problems], [around.attachment]].flat() };
}
