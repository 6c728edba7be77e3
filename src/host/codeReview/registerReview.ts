import type { ReviewTarget } from "../../core";
import * as path from "node:path";
import * as vscode from "vscode";
import type { Logger } from "../log";
import type { TaskManager } from "../tasks/taskManager";
import type { SessionReview } from "../wiring/sessionEnv";
import { virtualPathOf } from "../workspaceUris";
import { FindingComments } from "./findingComments";
import { reviewTargetOf } from "./reviewArgs";

export const REVIEW_CHANGES_COMMAND = "fathom.reviewChanges";

export interface ReviewRegistration {
  /** What each task's `/review` is given (SessionEnv.review). */
  review: SessionReview;
  /** The comments (tests count their threads). */
  comments: FindingComments;
  disposable: vscode.Disposable;
}

/**
 * `/review`'s window side: the "Fathom Review" comments (Apply fix goes to the task that
 * reviewed), and "Fathom: Review Changes" (palette, Source Control title), which asks what to
 * review and starts it as a new task in the chat.
 */
export function registerReview(o: {
  tasks: () => TaskManager;
  showChat: () => Thenable<unknown>;
  log: Logger;
}): ReviewRegistration {
  const comments = new FindingComments({
    log: o.log,
    async applyFix(taskId, fix) {
      // Its own task shows in the chat (opened again when it was closed): the card is asked there.
      await o.tasks().openTask(taskId);
      const session = o.tasks().sessions.find((s) => s.state.taskId === taskId);
      if (!session) return "the task that made this review is gone (deleted?). Run /review again.";
      await o.showChat();
      return session.applyFix(fix);
    },
  });
  const review: SessionReview = {
    dir: () => {
      const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === "file");
      return folder?.uri.fsPath;
    },
    virtualPath: (root, file) => virtualPathOf(vscode.Uri.file(path.join(root, ...file.split("/")))),
    show: (findings) => comments.show(findings),
  };
  const command = vscode.commands.registerCommand(REVIEW_CHANGES_COMMAND, async (target?: ReviewTarget) => {
    const chosen = target ?? (await pickTarget());
    if (!chosen) return;
    await o.showChat();
    const words =
      chosen.kind === "uncommitted"
        ? ""
        : chosen.kind === "staged"
          ? " staged"
          : chosen.kind === "base"
            ? ` ${chosen.ref}`
            : ` --pr ${chosen.number}`;
    await o.tasks().startTask(`/review${words}`, { where: "new", review: chosen });
  });
  return { review, comments, disposable: vscode.Disposable.from(comments, command) };
}

/** What to review, asked in a quick pick (a branch in an input box). */
async function pickTarget(): Promise<ReviewTarget | undefined> {
  const items: (vscode.QuickPickItem & { target?: ReviewTarget })[] = [
    { label: "Uncommitted changes", description: "/review", target: { kind: "uncommitted" } },
    { label: "Staged changes", description: "/review staged", target: { kind: "staged" } },
    { label: "Against a branch…", description: "/review BRANCH: what HEAD adds since it" },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: "Fathom: Review Changes",
    placeHolder: "What to review",
  });
  if (!picked) return undefined;
  if (picked.target) return picked.target;
  const ref = await vscode.window.showInputBox({
    title: "Fathom: Review Changes",
    prompt: "The branch, tag or commit to compare HEAD with",
    placeHolder: "main",
    validateInput: (value) => {
      const read = reviewTargetOf(value.trim() ? `--base ${value.trim()}` : "");
      return value.trim() && "error" in read ? read.error : undefined;
    },
  });
  if (!ref?.trim()) return undefined;
  const target = reviewTargetOf(`--base ${ref.trim()}`);
  return "error" in target ? undefined : target;
}
