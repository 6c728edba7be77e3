/**
 * Source Control's Generate Commit Message button (and command): a message for the staged
 * changes, or all of them when nothing is staged, streamed into the repository's box by the
 * window's model. While it writes, the button turns into Stop.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { Log } from "../log";
import type { ModelSetup } from "../models/modelSetup";
import { generateCommitMessage, type CommitMessageOutcome } from "./commitMessageRun";
import { findRepository, openGitApi, type GitExtensionExports, type GitRepository } from "./gitRepositories";

export const GENERATE_COMMIT_MESSAGE = "fathom.generateCommitMessage";
export const STOP_COMMIT_MESSAGE = "fathom.stopCommitMessage";
/**
 * Whether a message is being written. One flag for the window, not a list of roots matched
 * against `scmProviderRootUri`: in a remote window (code-server, SSH) the workbench spells that
 * root `vscode-remote://…` while the extension host knows it as `file://…`.
 */
const WRITING_CONTEXT = "fathom.commitMessage.writing";

export function registerCommitMessage(o: { models: ModelSetup; log: Log }): vscode.Disposable {
  const running = new Map<string, AbortController>();
  const publish = () => void vscode.commands.executeCommand("setContext", WRITING_CONTEXT, running.size > 0);

  const generate = async (hint: unknown): Promise<CommitMessageOutcome> => {
    const opened = await openGitApi({
      extension: vscode.extensions.getExtension<GitExtensionExports>("vscode.git"),
      isTrusted: vscode.workspace.isTrusted,
    });
    if ("problem" in opened) return tell({ ok: false, reason: "no_repository", ...opened.problem });
    const found = await findRepository(opened.api, {
      hint,
      folders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri),
      pick: pickRepository,
    });
    if ("dismissed" in found) return { ok: false, reason: "dismissed", message: "No repository was picked." };
    if ("problem" in found) return tell({ ok: false, reason: "no_repository", ...found.problem });
    const repository = found.repository;
    const key = repository.rootUri.toString();
    // Pressed again (from the palette) while it writes: the new request replaces the old one.
    running.get(key)?.abort();
    const controller = new AbortController();
    running.set(key, controller);
    publish();
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.SourceControl, title: "Writing a commit message" },
        () => generateCommitMessage(repository, { models: o.models, signal: controller.signal, log: o.log }),
      );
      if (outcome.ok && outcome.summarized)
        void vscode.window.showInformationMessage(
          "Fathom: the changes were too large to send whole, so each file was cut to fit. Check that the message covers what matters.",
        );
      return tell(outcome);
    } finally {
      if (running.get(key) === controller) running.delete(key);
      publish();
    }
  };

  // Stops them all: the button shows in every repository's title while any is written for.
  const stop = () => running.forEach((controller) => controller.abort());

  publish();
  return vscode.Disposable.from(
    vscode.commands.registerCommand(GENERATE_COMMIT_MESSAGE, generate),
    vscode.commands.registerCommand(STOP_COMMIT_MESSAGE, stop),
    { dispose: () => running.forEach((c) => c.abort()) },
  );
}

/** Shows what went wrong (not a cancel, which the person asked for) and passes the outcome on. */
function tell(outcome: CommitMessageOutcome): CommitMessageOutcome {
  if (outcome.ok || outcome.reason === "cancelled" || outcome.reason === "dismissed") return outcome;
  const failed =
    outcome.reason === "model" ||
    outcome.reason === "git" ||
    outcome.reason === "empty" ||
    outcome.reason === "runaway";
  const show = failed
    ? vscode.window.showErrorMessage
    : outcome.reason === "edited"
      ? vscode.window.showInformationMessage
      : vscode.window.showWarningMessage;
  const action = outcome.action;
  void show(`Fathom: ${outcome.message}`, ...(action ? [action.label] : [])).then((picked) => {
    if (action && picked === action.label) void vscode.commands.executeCommand(action.command, ...(action.args ?? []));
  });
  return outcome;
}

async function pickRepository(repositories: readonly GitRepository[]): Promise<GitRepository | undefined> {
  const picked = await vscode.window.showQuickPick(
    repositories.map((repository) => ({
      label: path.basename(repository.rootUri.fsPath),
      description: repository.rootUri.fsPath,
      repository,
    })),
    { placeHolder: "Which repository's changes should the commit message describe?" },
  );
  return picked?.repository;
}
