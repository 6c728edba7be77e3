import { z } from "zod";
import { SentAttachmentSchema } from "./attachments";
import { ImageThumbnailSchema } from "./models";
import { initialParallelView, ParallelViewSchema } from "./parallel";
import { TaskStatusSchema } from "./taskStatus";
import { ChangesViewSchema } from "./changes";

/**
 * The chat's view model, as the host sends it to the webview. The host owns the truth (the
 * core's run state plus what the person decided); the webview renders it and sends intents.
 * Everything here is plain JSON and never carries an API key.
 */

export const TodoSchema = z.object({
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed"]),
});
export type TodoItem = z.infer<typeof TodoSchema>;

export const ToolStatusSchema = z.enum([
  "streaming",
  "awaiting_approval",
  "running",
  "done",
  "failed",
  "rejected",
  "cancelled",
]);
export type ToolStatus = z.infer<typeof ToolStatusSchema>;

/** A proposed whole-file change, shown as a diff card. */
export const ProposalSchema = z.object({
  path: z.string(),
  /** Unified diff of the proposal (or of what was finally written). */
  diff: z.string(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  isNewFile: z.boolean(),
  /** A write to Fathom's memory (`/memories/…`), which every later task reads: its diff holds the whole text. */
  memory: z.boolean().optional(),
  /** How it ended: still waiting, written as proposed, written after the person changed it, or not written. */
  outcome: z.enum(["pending", "approved", "approved_with_changes", "rejected", "auto_applied", "failed"]),
  /** The person's reason, when rejected. */
  reason: z.string().optional(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export const ExecInfoSchema = z.object({
  command: z.string(),
  /** Output so far (escape sequences removed), capped for the card. */
  output: z.string(),
  exitCode: z.number().int().nullable().optional(),
  /** "terminal (shell integration)", "child process (/bin/bash)"… */
  via: z.string().optional(),
  timedOut: z.boolean().optional(),
  truncated: z.boolean().optional(),
});
export type ExecInfo = z.infer<typeof ExecInfoSchema>;

const baseItem = { id: z.string() };

export const QuestionViewSchema = z.object({
  text: z.string(),
  choices: z.array(z.string()),
  allowFreeText: z.boolean(),
  answer: z.string().optional(),
});
export type QuestionView = z.infer<typeof QuestionViewSchema>;

/** A plan-mode answer is the task's plan: the person edits it in place and starts it. */
export const PlanViewSchema = z.object({ status: z.enum(["proposed", "started"]), capped: z.boolean().optional() });

/** Plan mode offers only tools that change nothing; act, all of them. */
export const TaskModeSchema = z.enum(["plan", "act"]);
export type TaskMode = z.infer<typeof TaskModeSchema>;

export const ToolItemSchema: z.ZodType<ToolItem> = z.lazy(() =>
  z.object({
    ...baseItem,
    kind: z.literal("tool"),
    toolName: z.string(),
    /** What is happening, in words: "Reading /src/app.ts", "Running `npm test`". */
    title: z.string(),
    /** Arguments as JSON text (pretty), for the collapsible detail. */
    args: z.string(),
    status: ToolStatusSchema,
    result: z.string().optional(),
    startedAt: z.number(),
    endedAt: z.number().optional(),
    proposal: ProposalSchema.optional(),
    exec: ExecInfoSchema.optional(),
    /**
     * What "Always allow" on this card allows for the rest of the task ("npm test"); null when
     * it is not offered (a command line that is not provably simple). Absent: the tool's name.
     */
    alwaysAllow: z.string().nullable().optional(),
    /** Why the person is asked although this kind of call may be auto-approved. */
    approvalReason: z.string().optional(),
    /** `task` calls: the subagent's own activity. */
    children: z.array(TranscriptItemSchema).optional(),
    /** `ask_user`: the model's question (waiting while the status is awaiting_approval), and the answer given. */
    question: QuestionViewSchema.optional(),
  }),
);
export interface ToolItem {
  id: string;
  kind: "tool";
  toolName: string;
  title: string;
  args: string;
  status: ToolStatus;
  result?: string;
  startedAt: number;
  endedAt?: number;
  proposal?: Proposal;
  exec?: ExecInfo;
  alwaysAllow?: string | null;
  approvalReason?: string;
  children?: TranscriptItem[];
  question?: QuestionView;
}

export const UserItemSchema = z.object({
  ...baseItem,
  kind: z.literal("user"),
  text: z.string(),
  queued: z.boolean().optional(),
  /** Thumbnails of the images the person attached. */
  images: z.array(ImageThumbnailSchema).optional(),
  /** The chips sent with it (a selection, files, terminal output, problems). */
  attachments: z.array(SentAttachmentSchema).optional(),
  /** Sent while the task ran ("Send now"): shown where the model read it. */
  steered: z.boolean().optional(),
});
/** A review's finding as the chat lists it: a link to its place in the editor (`path` absent outside the workspace). */
export const ReviewFindingViewSchema = z.object({
  path: z.string().optional(),
  /** As people read it: `src/a.ts:12-14`. */
  place: z.string(),
  line: z.number().int().min(1),
  severity: z.enum(["bug", "risk", "nit"]),
  title: z.string(),
  /** A fix is suggested (Apply fix on its comment in the editor). */
  fix: z.boolean(),
});
export type ReviewFindingView = z.infer<typeof ReviewFindingViewSchema>;

export const AssistantItemSchema = z.object({
  ...baseItem,
  kind: z.literal("assistant"),
  text: z.string(),
  streaming: z.boolean(),
  /** The model's reasoning before this answer (shown collapsed). */
  reasoning: z.string().optional(),
  /** This answer is the task's plan (plan mode). */
  plan: PlanViewSchema.optional(),
  /** This answer sums up a review (`/review`): its findings, each a link to its lines. */
  review: z.object({ findings: z.array(ReviewFindingViewSchema) }).optional(),
});
export const NoticeItemSchema = z.object({
  ...baseItem,
  kind: z.literal("notice"),
  level: z.enum(["info", "warning", "error"]),
  text: z.string(),
});

export type UserItem = z.infer<typeof UserItemSchema>;
export type AssistantItem = z.infer<typeof AssistantItemSchema>;
export type NoticeItem = z.infer<typeof NoticeItemSchema>;
export type TranscriptItem = UserItem | AssistantItem | NoticeItem | ToolItem;

export const TranscriptItemSchema: z.ZodType<TranscriptItem> = z.lazy(() =>
  z.union([UserItemSchema, AssistantItemSchema, NoticeItemSchema, ToolItemSchema]),
);

export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  /** Undefined when the model's price is unknown (tokens only). */
  costUsd: z.number().optional(),
  /** Estimated tokens of the current context, and the model's window. */
  contextTokens: z.number(),
  contextWindow: z.number(),
});
export type UsageView = z.infer<typeof UsageSchema>;

export { TaskStatusSchema, type TaskStatus } from "./taskStatus";

export const TaskSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  status: TaskStatusSchema,
  updatedAt: z.number(),
});
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

/** What is wrong with the setup, and what to do about it. */
export const SetupProblemSchema = z.object({
  message: z.string(),
  /** A command the webview offers as a button ("fathom.setApiKey", "fathom.openSettings"). */
  action: z.enum(["fathom.setApiKey", "fathom.openSettings", "fathom.allowKeyForHost"]).optional(),
  actionLabel: z.string().optional(),
});

export const BannerSchema = z.object({
  level: z.enum(["error", "warning", "info"]),
  message: z.string(),
  /** Offer "Retry" (re-run the last step). */
  retryable: z.boolean(),
  action: SetupProblemSchema.shape.action,
  actionLabel: z.string().optional(),
});
export type Banner = z.infer<typeof BannerSchema>;

/** An MCP server as the "MCP servers" list shows it. */
export const McpServerViewSchema = z.object({
  name: z.string(),
  /** "stopped": not started yet (servers start with the first task that needs them). */
  state: z.enum(["stopped", "starting", "ready", "failed", "disabled"]),
  tools: z.number().int().nonnegative(),
  /** Characters of tool schemas the server would add to a request. */
  schemaChars: z.number().int().nonnegative(),
  problem: z.string().optional(),
  /** The config file it came from. */
  source: z.string(),
});
export type McpServerView = z.infer<typeof McpServerViewSchema>;

/** Disk space this workspace's checkpoints use ("Storage used", under the task history). */
export const CheckpointStorageSchema = z.object({
  usedBytes: z.number().nonnegative(),
  limitBytes: z.number().nonnegative(),
});
export type CheckpointStorage = z.infer<typeof CheckpointStorageSchema>;

/** What "Restore" would do, shown before the person chooses files, conversation or both. */
export const RestorePreviewSchema = z.object({
  /** The message or edit card the checkpoint belongs to. */
  itemId: z.string(),
  /** "before your message “…”", "before Fathom changed /a.ts". */
  label: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      /** delete: Fathom created it; write: its earlier text goes back (recreate: it is gone now). */
      action: z.enum(["delete", "write", "recreate"]),
      /** Changed since Fathom's last change (or unsaved, unreadable): left as it is unless overwritten. */
      conflict: z.string().optional(),
      notKept: z.string().optional(),
    }),
  ),
  /** Commands run since: their changes are not restored. */
  commands: z.array(z.string()),
  /** Transcript items a conversation restore removes. */
  laterItems: z.number().int().nonnegative(),
  storageBytes: z.number().nonnegative(),
  storageLimitBytes: z.number().nonnegative(),
});
export type RestorePreview = z.infer<typeof RestorePreviewSchema>;

export const ChatStateSchema = z.object({
  taskId: z.string().nullable(),
  title: z.string(),
  status: TaskStatusSchema,
  items: z.array(TranscriptItemSchema),
  todos: z.array(TodoSchema),
  usage: UsageSchema,
  /** The model answering; `images`: whether it reads images (the message box takes them only then). */
  model: z.object({ provider: z.string(), model: z.string(), images: z.boolean().optional() }),
  /** Messages sent while the task runs, in order. */
  queued: z.array(z.string()),
  /** Set when no provider or key is configured: the first-run view. */
  setupProblem: SetupProblemSchema.nullable(),
  banner: BannerSchema.nullable(),
  history: z.array(TaskSummarySchema),
  /** Tools the person chose "Always allow" for in this task. */
  alwaysAllowed: z.array(z.string()),
  /** A demo session playing a recording (no real model). */
  demo: z.boolean(),
  /** Restricted Mode: reading only. */
  restricted: z.boolean(),
  /** The MCP servers of this window's configs (listed before they start). */
  mcpServers: z.array(McpServerViewSchema),
  /** The Restore panel, when the person opened one. */
  restorePreview: RestorePreviewSchema.nullable(),
  /** Checkpoints' storage used (null: no checkpoints in this window). */
  checkpointStorage: CheckpointStorageSchema.nullable(),
  /** The window's tasks at once, and the repository's task worktrees. */
  parallel: ParallelViewSchema,
  /** The open task's mode (the message box's Plan / Act switch starts from it). */
  mode: TaskModeSchema.default("act"),
  /** The custom agent the task runs as (the Agent box; null: Fathom's own). */
  agent: z.string().max(64).nullable().default(null),
  /** Rules files in force for the task ("Rules (N)"), as they started to apply. */
  rules: z.array(z.string()).default([]),
  /** The task's Changes list: its changes the person has not reviewed (null: none, or not read yet). */
  changes: ChangesViewSchema.nullable().default(null),
});
export type ChatState = z.infer<typeof ChatStateSchema>;

export function emptyUsageView(contextWindow = 0): UsageView {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, contextTokens: 0, contextWindow };
}

/** A chat with no task: what a new task starts from, and what the webview shows before the host's first `state`. */
export function initialChatState(): ChatState {
  return {
    taskId: null,
    title: "",
    status: "idle",
    items: [],
    todos: [],
    usage: emptyUsageView(),
    model: { provider: "", model: "" },
    queued: [],
    setupProblem: null,
    banner: null,
    history: [],
    alwaysAllowed: [],
    demo: false,
    restricted: false,
    mcpServers: [],
    restorePreview: null,
    checkpointStorage: null,
    parallel: initialParallelView(),
    mode: "act",
    agent: null,
    rules: [],
    changes: null,
  };
}
