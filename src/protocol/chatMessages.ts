import { z } from "zod";
import {
  BannerSchema,
  ChatStateSchema,
  CheckpointStorageSchema,
  TaskModeSchema,
  McpServerViewSchema,
  RestorePreviewSchema,
  TaskStatusSchema,
  TaskSummarySchema,
  TodoSchema,
  TranscriptItemSchema,
  UsageSchema,
} from "./chat";
import { MAX_MESSAGE_CHARS } from "./parse";
import { ParallelViewSchema } from "./parallel";
import { AttachmentSchema, MAX_CHIPS } from "./attachments";
import { AttachedImageSchema, MAX_IMAGES_PER_MESSAGE, ModelOptionSchema } from "./models";
import { AgentChoiceSchema, TeamFilesViewSchema } from "./teamFiles";
import { MemoriesMessageSchema, MemoryActionSchema } from "./memories";
import { ChangesActionSchema, ChangesMessageSchema } from "./changes";

/**
 * Messages of the full chat (agent runs). Host → webview: a whole `state` on every (re)load,
 * then small updates while a task runs, so streaming stays cheap. Webview → host: intents.
 */

export const HostToWebviewChatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("state"), state: ChatStateSchema }),
  /** A new transcript item; `parentId` puts it inside a subagent's `task` card. */
  z.object({ type: z.literal("itemAppended"), item: TranscriptItemSchema, parentId: z.string().optional() }),
  /** Replaces the item with the same id (wherever it is nested). */
  z.object({ type: z.literal("itemUpdated"), item: TranscriptItemSchema }),
  /** Streaming: text appended to an assistant item. */
  z.object({ type: z.literal("textAppended"), id: z.string(), text: z.string() }),
  /** Streaming: reasoning appended to an assistant item. */
  z.object({ type: z.literal("reasoningAppended"), id: z.string(), text: z.string() }),
  /** The model answering changed (the person picked another, or the settings changed). */
  z.object({ type: z.literal("model"), model: ChatStateSchema.shape.model }),
  /** The Model box's list, for its request; `error` when the provider could not list (typing still works). */
  z.object({
    type: z.literal("models"),
    requestId: z.number().int(),
    models: z.array(ModelOptionSchema),
    error: z.string().optional(),
  }),
  /** Streaming: command output appended to an `execute` card. */
  z.object({ type: z.literal("execOutput"), id: z.string(), chunk: z.string() }),
  z.object({ type: z.literal("todos"), todos: z.array(TodoSchema) }),
  z.object({ type: z.literal("usage"), usage: UsageSchema }),
  z.object({ type: z.literal("status"), status: TaskStatusSchema, title: z.string().optional() }),
  z.object({ type: z.literal("queued"), queued: z.array(z.string()) }),
  z.object({ type: z.literal("mode"), mode: TaskModeSchema }),
  z.object({ type: z.literal("mcpServers"), servers: z.array(McpServerViewSchema) }),
  MemoriesMessageSchema,
  ChangesMessageSchema,
  z.object({ type: z.literal("banner"), banner: BannerSchema.nullable() }),
  z.object({ type: z.literal("history"), history: z.array(TaskSummarySchema) }),
  /** "Storage used" under the history: sent after the history, once the size is counted. */
  z.object({ type: z.literal("checkpointStorage"), storage: CheckpointStorageSchema }),
  z.object({ type: z.literal("restorePreview"), preview: RestorePreviewSchema.nullable() }),
  /** The window's tasks at once and the repository's worktrees changed. */
  z.object({ type: z.literal("parallel"), parallel: ParallelViewSchema }),
  /** Edit and resend: the message's text goes back into the message box. */
  z.object({ type: z.literal("composerText"), text: z.string() }),
  /**
   * The message box's chips (Add Selection / File / Terminal Output / Problems to Chat): the
   * whole list, kept by the host so a reloaded view has them. `notice`: why the last command
   * added nothing; `focus`: put the caret in the message box (a command brought the person here).
   */
  z.object({
    type: z.literal("attachments"),
    attachments: z.array(AttachmentSchema).max(MAX_CHIPS),
    notice: z.string().optional(),
    focus: z.boolean().optional(),
  }),
  /** The team files found (after the webview asked, and again when one changes on disk). */
  z.object({ type: z.literal("teamFiles"), teamFiles: TeamFilesViewSchema }),
  /** The task's custom agent changed (the Agent box). */
  z.object({ type: z.literal("agent"), agent: AgentChoiceSchema }),
  /** Rules files in force for the task, as they start to apply. */
  z.object({ type: z.literal("rules"), rules: z.array(z.string()) }),
  z.object({
    type: z.literal("mentionResults"),
    requestId: z.number().int(),
    /** Workspace paths, and MCP resources (`path` is then `mcp:<server>:<uri>`). */
    files: z.array(
      z.object({
        path: z.string(),
        isDir: z.boolean().optional(),
        resource: z.object({ server: z.string(), name: z.string() }).optional(),
      }),
    ),
  }),
]);
export type HostToWebviewChat = z.infer<typeof HostToWebviewChatSchema>;

export const WebviewToHostChatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z
    .object({
      type: z.literal("sendMessage"),
      text: z.string().trim().max(MAX_MESSAGE_CHARS),
      images: z.array(AttachedImageSchema).max(MAX_IMAGES_PER_MESSAGE).optional(),
      /** A new task: run it in a git worktree of its own (absent: the person's default). */
      worktree: z.boolean().optional(),
      /** The message box's chips: a selection, files, a terminal's output, problems. */
      attachments: z.array(AttachmentSchema).max(MAX_CHIPS).optional(),
      /** The Plan / Act switch (absent: the task's own mode). */
      mode: TaskModeSchema.optional(),
      /** While a task runs: wait for it to end (Queue) instead of reaching it at its next step (Send now, the default). */
      queue: z.boolean().optional(),
    })
    .refine((m) => m.text !== "" || (m.images?.length ?? 0) > 0 || (m.attachments?.length ?? 0) > 0, {
      message: "a message needs text, an image or an attachment",
      path: ["text"],
    }),
  /** The person started writing a message: the host gets the first task's needs ready. */
  z.object({ type: z.literal("composing") }),
  /** Chips: the `@problems` pick in the mention picker (the host answers with `attachments`). */
  z.object({ type: z.literal("attachProblems") }),
  /** A chip's × : the host's list drops it. */
  z.object({ type: z.literal("removeAttachment"), index: z.number().int().nonnegative() }),
  /** A chip's file (or range) opened in the editor. */
  z.object({ type: z.literal("openAttachment"), path: z.string().max(4096), line: z.number().int().min(1).optional() }),
  /** The Model box opened: list the provider's models. */
  z.object({ type: z.literal("listModels"), requestId: z.number().int() }),
  /** The person picked (or typed) a model: it answers from the next request on, and is kept for this workspace. */
  z.object({ type: z.literal("setModel"), model: z.string().trim().max(300) }),
  z.object({ type: z.literal("cancel") }),
  z.object({ type: z.literal("newTask") }),
  z.object({ type: z.literal("approve"), toolCallId: z.string(), alwaysAllow: z.boolean().optional() }),
  z.object({ type: z.literal("reject"), toolCallId: z.string(), reason: z.string().max(10_000).optional() }),
  /** The answer to an `ask_user` card: a choice's text, or what the person typed. */
  z.object({ type: z.literal("answerQuestion"), toolCallId: z.string(), answer: z.string().trim().min(1).max(10_000) }),
  /** Start the plan of this answer (`text`: the plan as the person edited it). */
  z.object({ type: z.literal("startPlan"), itemId: z.string(), text: z.string().trim().min(1).max(64_000) }),
  /** Show (again) the diff editor of a pending or past proposal. */
  z.object({ type: z.literal("openDiff"), toolCallId: z.string() }),
  /** A card waiting for the person is on screen (its open diff may now take the proposal). */
  z.object({ type: z.literal("cardShown"), toolCallId: z.string() }),
  /** Retry after a provider error banner. */
  z.object({ type: z.literal("retry") }),
  z.object({ type: z.literal("openTask"), taskId: z.string() }),
  /** Deletes a saved task and its checkpoints (the host asks the person first). */
  z.object({ type: z.literal("deleteTask"), taskId: z.string() }),
  /** Continue the open task after a reload or crash. */
  z.object({ type: z.literal("resumeTask") }),
  z.object({ type: z.literal("removeQueued"), index: z.number().int().nonnegative() }),
  z.object({
    type: z.literal("mcpAction"),
    action: z.enum(["restart", "showLog", "enable", "disable"]),
    server: z.string(),
  }),
  MemoryActionSchema,
  ChangesActionSchema,
  /** `@` mentions: fuzzy file search in the workspace. */
  z.object({ type: z.literal("searchFiles"), requestId: z.number().int(), query: z.string().max(500) }),
  z.object({
    type: z.literal("runCommand"),
    command: z.enum(["fathom.setApiKey", "fathom.openSettings", "fathom.showLog", "fathom.allowKeyForHost"]),
  }),
  z.object({ type: z.literal("openFile"), path: z.string().max(4096) }),
  /** Checkpoints: show what restoring to before this message or edit would do. */
  z.object({ type: z.literal("previewRestore"), itemId: z.string() }),
  z.object({
    type: z.literal("restore"),
    itemId: z.string(),
    what: z.enum(["files", "conversation", "both"]),
    overwrite: z.array(z.string()).max(10_000),
  }),
  z.object({ type: z.literal("closeRestore") }),
  /** A file's diff in the Restore panel: the file now beside what the restore would make it. */
  z.object({ type: z.literal("compareRestore"), path: z.string().max(4096) }),
  /** Shows another of the window's open tasks. */
  z.object({ type: z.literal("switchTask"), key: z.string().max(200) }),
  /** Takes a task that is not running out of the open tasks (it stays in History). */
  z.object({ type: z.literal("closeTask"), key: z.string().max(200) }),
  /** A task worktree: review a file's diff, Apply, Discard, Open in a new window, or open its task here. */
  z.object({
    type: z.literal("worktreeAction"),
    taskId: z.string().max(200),
    action: z.enum(["diff", "apply", "discard", "open", "openTask"]),
    path: z.string().max(4096).optional(),
  }),
  /** A remote's `fathom/*` branch: fetch the list again, review a file's diff, Apply, or check it out as a worktree. */
  z.object({
    type: z.literal("remoteBranchAction"),
    action: z.enum(["refresh", "diff", "apply", "checkout"]),
    ref: z.string().max(1024).optional(),
    path: z.string().max(4096).optional(),
  }),
  /** The `/` picker, the Agent box or the Team files list needs what was found (read on first ask). */
  z.object({ type: z.literal("listTeamFiles") }),
  /** The Agent box: the task runs as this custom agent from its next message (null: Fathom's own). */
  z.object({ type: z.literal("setAgent"), agent: AgentChoiceSchema }),
  /** A rules file, prompt file, skill or agent opened in the editor, by the source the view showed. */
  z.object({ type: z.literal("openTeamFile"), source: z.string().max(4096) }),
  /** Takes the conversation back to before this message and puts its text in the message box. */
  z.object({ type: z.literal("editMessage"), itemId: z.string() }),
]);
export type WebviewToHostChat = z.infer<typeof WebviewToHostChatSchema>;
