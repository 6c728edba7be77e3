import type { Attachment, InlineEditRequest, RunState, TaskMode, ReviewTarget } from "../../core";
import type { AttachedImage, ChatState } from "../../protocol";
import type { FixCall } from "../codeReview/fixModel";
import type { ChatViewModel } from "../viewModel/chatViewModel";
import type { SessionEnv } from "../wiring/sessionEnv";
import type { SaveSchedule } from "./saveSchedule";

/** What the open task keeps between its runs (shared by the session and the run). */
export interface OpenTask {
  runState: RunState | null;
  createdAt: number;
  /** The folder the task works in when not the workspace (its worktree). */
  root: string | undefined;
  /** Calls a reloaded task was waiting on the person for: asked again when it resumes. */
  askAgain: string[];
  /** The person's choice for a new task: its own worktree, or the shared folder. */
  wantWorktree: boolean | undefined;
  /** The inline edit the latest message asked for: its runs (a resume, a retry) are that edit's. */
  inlineEdit?: InlineEditRequest;
  /** What the person undid in the Changes list, for the model's next request. */
  reviewNotes?: string[];
}

/** What a person's message carries besides its text. */
export interface MessageExtras {
  images?: AttachedImage[];
  /** Chips: a selection, files, a terminal's output, problems. */
  attachments?: Attachment[];
  /** Edit Selection: the message is an inline edit of these lines (no tools; the answer is reviewed as a diff). */
  inlineEdit?: InlineEditRequest;
  /** Plan or Act (absent: the task's own mode). */
  mode?: TaskMode;
  /** `/review`: the run reviews this diff (read-only) instead of answering a message (../codeReview/reviewRun.ts). */
  review?: ReviewTarget;
  /** "Apply fix" on a review's finding: the run's one call is this edit (../codeReview/fixModel.ts). */
  fix?: FixCall;
}

/** What a run tells the session that started it: its only way back (the person's messages come in by `steer`). */
export interface RunEvents {
  /** The task's status changed (with a new task's title). */
  status(status: ChatState["status"], title?: string): void;
  /** The run set fields of the chat state in place (setup, task id, model): the view gets the state whole. */
  stateChanged(): void;
  /** The saved tasks changed (this one started or ended): the History list is sent again. */
  historyChanged(): void;
  /** A message that could not start (or was sent as the run stopped) goes back to the front of the queue. */
  requeue(text: string, extras: MessageExtras): void;
}

/**
 * The open task's parts, handed by the session to each run and to its own actions between runs
 * (compact, start a plan, restore): what they work on, instead of the session itself.
 */
export interface TaskParts {
  env: SessionEnv;
  /** What the open task keeps between runs: the run updates its state, root and questions. */
  task: OpenTask;
  /** When the task is saved: the run says when, the session knows what. */
  saves: SaveSchedule;
  /** The open task's chat view model: the run's events go into it (and so to the webview). */
  viewModel: ChatViewModel;
  /** What happened that the session must act on (the run's one way back). */
  notify: RunEvents;
}
