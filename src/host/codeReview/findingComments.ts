import * as path from "node:path";
import * as vscode from "vscode";
import type { ReviewFinding } from "../../core";
import type { Logger } from "../log";
import { virtualPathOf } from "../workspaceUris";
import { editArgsFor, fixedText } from "./fixEdit";
import { findingThreadView } from "./findingThread";
import type { FixCall } from "./fixModel";

export const APPLY_FIX_COMMAND = "fathom.review.applyFix";
export const DISMISS_FINDING_COMMAND = "fathom.review.dismissFinding";

/** A review's findings as the editor's comments get them. */
export interface ReviewedFindings {
  /** The task the review ran as: its fixes are applied there. */
  taskId: string;
  /** The repository's top folder (findings name files from it). */
  repoRoot: string;
  findings: readonly { finding: ReviewFinding; reviewed?: string }[];
}

interface ThreadEntry {
  taskId: string;
  finding: ReviewFinding;
  reviewed: string | undefined;
  uri: vscode.Uri;
}

export interface FindingCommentsOptions {
  /** Runs the fix as a turn of task `taskId` (its card and diff in the chat); an answer is why it could not start. */
  applyFix(taskId: string, fix: FixCall): Promise<string | undefined>;
  log: Logger;
}

/**
 * One comment controller, "Fathom Review": a review's findings as comment threads on their lines,
 * each with "Apply fix" (where the finding has a fix) and "Dismiss" in its title bar. A new review's
 * threads replace the last one's; a fix that lands, or a dismissal, takes its thread away.
 */
export class FindingComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController("fathom.review", "Fathom Review");
  private readonly threads = new Map<vscode.CommentThread, ThreadEntry>();
  private readonly commands: vscode.Disposable[];

  constructor(private readonly o: FindingCommentsOptions) {
    this.commands = [
      vscode.commands.registerCommand(APPLY_FIX_COMMAND, (thread?: vscode.CommentThread) => this.applyFix(thread)),
      vscode.commands.registerCommand(DISMISS_FINDING_COMMAND, (thread?: vscode.CommentThread) => this.remove(thread)),
    ];
  }

  /** How many threads are shown (tests). */
  get count(): number {
    return this.threads.size;
  }

  /** Shows a review's findings, in place of the last review's. */
  show(review: ReviewedFindings): void {
    this.clear();
    for (const { finding, reviewed } of review.findings) {
      const view = findingThreadView(finding, reviewed);
      const uri = vscode.Uri.file(path.join(review.repoRoot, ...finding.file.split("/")));
      const comment: vscode.Comment = {
        body: new vscode.MarkdownString(view.body),
        mode: vscode.CommentMode.Preview,
        author: { name: "Fathom" },
        contextValue: view.contextValue,
      };
      // The range ends at the end of its last line; the editor clamps it to the line's length.
      const range = new vscode.Range(view.startLine, 0, view.endLine, Number.MAX_SAFE_INTEGER);
      const thread = this.controller.createCommentThread(uri, range, [comment]);
      thread.label = view.label;
      thread.contextValue = view.contextValue;
      thread.canReply = false;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      this.threads.set(thread, { taskId: review.taskId, finding, reviewed, uri });
    }
  }

  clear(): void {
    for (const thread of this.threads.keys()) thread.dispose();
    this.threads.clear();
  }

  dispose(): void {
    this.clear();
    this.controller.dispose();
    for (const c of this.commands) c.dispose();
  }

  private remove(thread: vscode.CommentThread | undefined): void {
    if (!thread || !this.threads.delete(thread)) return;
    thread.dispose();
  }

  /** "Apply fix": the fix as an edit of the file as it is now, proposed in the review's task. */
  private async applyFix(thread: vscode.CommentThread | undefined): Promise<void> {
    const entry = thread && this.threads.get(thread);
    if (!thread || !entry) return;
    const { finding, reviewed, uri, taskId } = entry;
    if (finding.fix === undefined || reviewed === undefined)
      return void vscode.window.showInformationMessage("Fathom: this finding has no fix to apply.");
    const filePath = virtualPathOf(uri);
    if (!filePath)
      return void vscode.window.showWarningMessage(
        `Fathom: ${finding.file} is outside the workspace folder, so Fathom cannot edit it. Open the repository's folder to apply the fix.`,
      );
    let current: string;
    try {
      // The editor's text, unsaved changes included: what the person sees is what the fix must fit.
      current = (await vscode.workspace.openTextDocument(uri)).getText();
    } catch (error) {
      return void vscode.window.showWarningMessage(
        `Fathom: ${finding.file} cannot be read (${(error as Error).message}), so the fix was not applied. Run /review again.`,
      );
    }
    const target = { path: filePath, startLine: finding.startLine, endLine: finding.endLine, reviewed };
    const fixed = fixedText(current, { ...target, replacement: finding.fix });
    const args = "error" in fixed ? fixed : editArgsFor(filePath, fixed.before, fixed.after);
    if ("error" in args) return void vscode.window.showWarningMessage(`Fathom: ${args.error}`);
    const refused = await this.o.applyFix(taskId, {
      id: `fix_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
      args,
      title: finding.title,
      settled: (applied) => {
        if (applied) this.remove(thread);
      },
    });
    if (refused) void vscode.window.showInformationMessage(`Fathom: ${refused}`);
    else this.o.log.info(`Review: fix of ${finding.file}:${finding.startLine} proposed in task ${taskId}`);
  }
}
