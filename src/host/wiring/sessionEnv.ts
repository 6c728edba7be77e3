import type { ReviewedFindings } from "../codeReview/findingComments";
import type { SessionTeamFiles } from "../tasks/teamRun";
import type {
  Agent,
  QuestionAsker,
  ApprovalGate,
  DoneReason,
  ApprovalPolicy,
  BackendProtocol,
  ChatModel,
  CheckpointStore,
  CommandPatterns,
  InlineEditRequest,
  ModelList,
  Middleware,
  TeamCatalog,
  ToolNarrowing,
} from "../../core";
import type { Logger } from "../log";
import type { FathomSettings, SandboxState, SetupProblem } from "../settings";
import type { SessionGate } from "./sessionGate";
import type { TaskStore } from "../tasks/taskStore";

/** What a task needs from its surroundings (VS Code in the extension, fakes in unit tests). */
export interface SessionEnv {
  /** Settings and key as they are now; `problem` when a task cannot start. */
  readSetup(): Promise<{ settings: FathomSettings; apiKey?: string; problem: SetupProblem | null }>;
  createModel(settings: FathomSettings, apiKey: string | undefined): ChatModel;
  /** The models the provider offers (the Model box's list); never throws: an error is in the list. */
  listModels?(settings: FathomSettings, apiKey: string | undefined): Promise<ModelList>;
  /** Saves the person's pick in the Model box for this workspace (read back by `readSetup`). */
  chooseModel?(model: string): Promise<void>;
  createAgent(options: {
    /** Checkpoints of this task's writes are kept under this id. */
    taskId: string;
    /** The task's title (its terminal is named after it). */
    title: string;
    /** The folder the task works in, when not the workspace (its worktree). */
    root?: string;
    model: ChatModel;
    approvalGate: ApprovalGate;
    approvalPolicy: ApprovalPolicy;
    commands: CommandPatterns;
    maxSteps: number;
    maxParallelSubagents: number;
    secretFiles: string[];
    sandbox: FathomSettings["sandbox"];
    executeTimeoutMs: number;
    /** `fathom.testCommand`, when set: what run_tests runs. */
    testCommand?: string;
    middleware: Middleware[];
    systemPrompt?: string;
    /** The run is this inline edit (Edit Selection): its agent has the one edit tool and asks the model with no tools. */
    inlineEdit?: InlineEditRequest;
    /** Who answers the model's `ask_user` questions (the chat's cards). */
    questions?: QuestionAsker;
    /** The team files found, the custom agent the task runs as, and a prompt file's narrowing (./teamRun.ts). */
    teamFiles?: TeamCatalog;
    agent?: string;
    narrowTools?: ToolNarrowing;
    modelFor?: (model: string) => ChatModel | undefined;
  }): Agent | Promise<Agent>;
  /** The rules, prompt files, skills and custom agents of the workspace and the person (absent: none are read). */
  teamFiles?: SessionTeamFiles;
  isTrusted(): boolean;
  /** The workspace's checkpoints (absent: no Restore). */
  checkpoints?: CheckpointStore;
  /** The backend restores write through. */
  restoreBackend?(root?: string): BackendProtocol;
  /** A file's text now under the write rules (null: absent; undefined: the task may not write it), in the task's folder. */
  currentText?(path: string, root?: string): Promise<string | null | undefined>;
  /** The folder a saved task worked in, when not the workspace (its worktree). */
  taskRoot?(taskId: string): Promise<string | undefined>;
  /** A diff of a file now (null: absent) beside what restoring makes it (null: deleted). */
  compareCheckpoint?(path: string, now: string | null, restored: string | null): Promise<void>;
  /** The Changes list's diff: the file at the task's start (or as last kept) beside the file now (in `root`: its worktree). */
  compareChanges?(path: string, base: string, created: boolean, root?: string): Promise<void>;
  /**
   * "Always allow" on an MCP tool's card: remembered in the person's own MCP file when that
   * file defines the server (a workspace's file is never written); the task allows it either way.
   */
  allowMcpToolAlways?(toolName: string): Promise<void>;
  /** Whether commands will run in the OS sandbox (default: off). */
  sandboxState?(settings: FathomSettings): SandboxState;
  /** A demo: the model is a recording (`npm run demo`), and the view says so. */
  demo?: boolean;
  /**
   * Where a task works: its git worktree (made for a new task when `worktree` is true, or the
   * person's default when undefined; found again for a task that has one), or the workspace
   * (no `root`). `error` when it cannot start there.
   */
  placeTask?(o: {
    taskId: string;
    title: string;
    worktree: boolean | undefined;
  }): Promise<{ root?: string } | { error: string }>;
  /** A run of the task ended (its worktree records how). */
  taskEnded?(taskId: string, reason: DoneReason): void;
  /** The window's tasks at once: a run waits here for a free slot (`onWait` says it waits). */
  slots?: { acquire(signal: AbortSignal, onWait: (running: number) => void): Promise<() => void> };
  /** `/review` (absent: the chat cannot review, and says so). */
  review?: SessionReview;
  store: TaskStore;
  gate: SessionGate;
  log: Logger;
  now?(): number;
}

/** What a task's `/review` needs of the window (../codeReview/). */
export interface SessionReview {
  /** The folder whose repository is reviewed (undefined: no folder is open). */
  dir(): string | undefined;
  /** A repository's file as the chat names it (`/src/a.ts`), or undefined outside the workspace. */
  virtualPath(root: string, file: string): string | undefined;
  /** The findings as comments in the editor, in place of the last review's. */
  show(review: ReviewedFindings): void;
}
