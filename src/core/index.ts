export * from "./tools/tool";
export * from "./model/types";
export {
  createModel,
  DEFAULT_MODELS,
  OPENAI_COMPATIBLE_DEFAULT_BASE_URL,
  type CreateModelOptions,
  type Provider,
} from "./model/createModel";
export { OpenAIModel, type OpenAIModelOptions } from "./model/openaiModel";
export { AnthropicModel, type AnthropicModelOptions } from "./model/anthropicModel";
export {
  costOf,
  contextWindowOf,
  lookupModel,
  promptTokensOf,
  defaultMaxOutputTokens,
  priceOf,
  acceptsImages,
  type ModelInfo,
} from "./model/modelTable";
export { listModels, type ListedModel, type ListModelsOptions, type ModelList } from "./model/listModels";
export {
  parseModelOverrides,
  overrideFor,
  ModelOverrideSchema,
  type ModelOverride,
  type ModelOverrides,
  type ModelPrice,
} from "./model/modelOverrides";
export {
  extractTextToolCalls,
  textToolPrompt,
  toTextToolMessages,
  type TextToolCalls,
} from "./model/toolCalls/textToolCalls";
export { withToolCallMode, ToolCallModeModel, type ToolCallOptions } from "./model/toolCalls/toolCallMode";
export { forgetToolCallLessons } from "./model/toolCalls/toolCallMemory";
export { SwitchableModel } from "./model/switchableModel";
export { TurnAccumulator, requestChars } from "./model/turnAccumulator";
export { imagesToSend, withImageNote, MAX_IMAGES_PER_REQUEST } from "./model/imageNote";
export { classify, toModelError, type ErrorContext } from "./model/errors";
export { withRetries, failWith, type RetryOptions } from "./model/retry";
export * from "./backends/protocol";
export { FilesystemBackend, type FilesystemBackendOptions } from "./backends/filesystem";
export { StateBackend } from "./backends/state";
export { CompositeBackend } from "./backends/composite";
export { normalizeVirtualPath } from "./backends/pathGuard";
export { findRipgrep } from "./backends/search/ripgrep";
export { createFileTools, type FileToolsOptions } from "./tools/fileTools";
export {
  createAgent,
  runToEnd,
  DEFAULT_MAX_STEPS,
  type Agent,
  type AgentOptions,
  type RunOptions,
} from "./agent/createAgent";
export type { AgentEvent, AgentEventType, DoneEvent, DoneReason, WarningCode } from "./run/events";
export {
  newRunState,
  parseRunState,
  emptyUsage,
  type RunState,
  type TaskMode,
  type Todo,
  type TodoStatus,
} from "./run/runState";
export { baseSystemPrompt } from "./agent/systemPrompt";
export { toJsonSchema, toolSpecOf } from "./tools/jsonSchema";
export * from "./approval";
export {
  allowedByRules,
  alwaysAllowRules,
  checkCommand,
  type CommandPatterns,
  type CommandVerdict,
} from "./trust/commandPolicy";
export { analyzeCommand, shellQuote, type CommandAnalysis, type SimpleCommand } from "./trust/shellCommand";
export * from "./executor/types";
export { ChildProcessExecutor, type ChildProcessExecutorOptions } from "./executor/childProcessExecutor";
export { CommandSandbox, defaultDenyRead, sandboxUnavailable, type SandboxOptions } from "./executor/sandbox";
export { SandboxedExecutor } from "./executor/sandboxedExecutor";
export {
  commandExecutor,
  openSandbox,
  runHeadless,
  type HeadlessAgentOptions,
  type HeadlessRunOptions,
} from "./headless/headlessRun";
export {
  definitionText,
  describeServer,
  expandInputs,
  inputIds,
  parseMcpConfig,
  withAutoApprovedTool,
  type McpServerConfig,
} from "./mcp/config";
export { McpHub, loadMcpConfigs, userMcpConfigPath, workspaceMcpConfigPaths } from "./mcp/mcpHub";
export type {
  Middleware,
  RunContext,
  ModelCall,
  ModelTurn,
  ToolCallRequest,
  AgentToolContext,
} from "./middleware/types";
export { runContextOf } from "./middleware/types";
export * from "./codeIntel/codeIntelligence";
export { problemCounts, problemLine, sortProblems, type ProblemEntry, type Severity } from "./codeIntel/problems";
export { GENERAL_PURPOSE_SUBAGENT, type SubagentSpec } from "./middleware/subagents";
export { patchToolCalls } from "./middleware/danglingToolCalls";
export { compactDiff } from "./middleware/approvals";
export { LARGE_RESULTS_DIR } from "./middleware/eviction";
export { TerminalTextCleaner, cleanTerminalText } from "./executor/terminalText";
export { terminalAttachment, terminalCaptureText, type TerminalCapture } from "./terminalCapture";
export type { PersonTerminals } from "./middleware/terminalOutput";
export { createBackgroundCommandTools } from "./tools/backgroundCommandTools";
export { editByPreparing, writeByPreparing } from "./backends/preparedChanges";
export { WrappingBackend } from "./backends/wrappingBackend";
export {
  CheckpointStore,
  type Checkpoint,
  type FileRestore,
  type RestorePlan,
  type RestoreResult,
} from "./checkpoints/checkpointStore";
export {
  TaskChanges,
  type ChangeHunk,
  type FileChanges,
  type ChangesOutcome,
  type ChangeSelection,
} from "./checkpoints/taskChanges";
export { undoneNote } from "./checkpoints/reviewNote";
export { reviewNotesMiddleware } from "./middleware/reviewNotes";
export {
  readCassette,
  parseCassette,
  formatCassette,
  CassetteError,
  WORKSPACE_PLACEHOLDER,
  type Cassette,
  type CassetteHeader,
  type RecordedExchange,
} from "./replay/cassette";
export { CassetteRecorder, type CassetteRecorderOptions } from "./replay/cassetteRecorder";
export { CassettePlayer, type CassettePlayerOptions, type Divergence } from "./replay/cassettePlayer";
export {
  createDemoPlayer,
  afterEndExchange,
  AFTER_END_SESSION,
  DEMO_RULES,
  type DemoPlayerOptions,
} from "./replay/demoPlayer";
export {
  TaskWorktrees,
  worktreeSupport,
  branchSlug,
  defaultWorktreesDir,
  type WorktreeSupport,
} from "./worktrees/taskWorktrees";
export type { TaskWorktree, WorktreeState } from "./worktrees/worktreeRecords";
export type { ChangedFile, ApplyResult } from "./worktrees/worktreeChanges";
export { RemoteBranches, type RemoteBranch, type FetchOutcome } from "./worktrees/remoteBranches";
export { secretFileMatcher, type SecretFileMatcher } from "./trust/secretFiles";
export {
  attachmentKey,
  attachmentLabel,
  capTail,
  parseFileRange,
  uniqueAttachments,
  MAX_ATTACHED_LINES,
  MAX_ATTACHMENT_CHARS,
  MAX_ATTACHMENTS,
  type Attachment,
} from "./attachments";
export { parseGitDiff, addedFileDiff, type FileDiff, type FileStatus } from "./commitMessage/fileDiffs";
export { budgetDiff, commitDiffBudget, type BudgetedDiff } from "./commitMessage/diffBudget";
export {
  commitMessagePrompt,
  usesConventionalCommits,
  subjectOf,
  STYLE_EXAMPLES,
  type ChangeScope,
} from "./commitMessage/commitPrompt";
export { cleanCommitMessage } from "./commitMessage/cleanMessage";
export {
  writeCommitMessage,
  type CommitMessageResult,
  type WriteCommitMessageOptions,
} from "./commitMessage/writeCommitMessage";
export {
  readRepositoryChanges,
  readUntrackedFiles,
  recentSubjects,
  type RepositoryChanges,
} from "./commitMessage/repositoryChanges";
export { createInlineEditAgent } from "./inlineEdit/inlineEditAgent";
export { InlineEditRequestSchema, MAX_SELECTED_LINES, type InlineEditRequest } from "./inlineEdit/prompt";
export { EDIT_SELECTION } from "./inlineEdit/editSelectionTool";
export { inlineEditPreview } from "./inlineEdit/streamedArgs";
export { linesLabel } from "./inlineEdit/selectedLines";
export { discoverTeamFiles, TeamFileCache } from "./teamFiles/discovery";
export { userTeamFolders, type UserTeamFolder } from "./teamFiles/userFolders";
export { describeScope } from "./teamFiles/ruleFiles";
export { runSlash, type SlashRun } from "./teamFiles/slashRun";
export type { ToolNarrowing } from "./teamFiles/agentRuns";
export type { EditorContext } from "./teamFiles/promptFiles";
export {
  plainText,
  type TeamCatalog,
  type PromptCommand,
  type TeamFileRef,
  type TeamFileProblem,
} from "./teamFiles/types";
export {
  loadHooks,
  userHookFiles,
  workspaceHookFiles,
  hookSetKey,
  describeHook,
  type HookDefinition,
  type HookConfigProblem,
} from "./hooks/hookConfig";
export {
  isMemoryPath,
  memoryFolders,
  listMemories,
  removeMemory,
  clearMemories,
  memoryFileOf,
  type MemoryFile,
  type MemoryFolders,
} from "./memory/memoryStore";
export {
  NO_ONE_CAN_ANSWER,
  noOneToAsk,
  type QuestionAnswer,
  type QuestionAsker,
  type QuestionRequest,
} from "./question";
export { ASK_USER, MAX_QUESTIONS_IN_A_ROW } from "./middleware/askUser";
export { MAX_PLAN_CHARS, changesNothing, planTodos, startPlan } from "./middleware/planMode";
export { SteeringInbox } from "./agent/steering";
export { compactConversation } from "./agent/compact";
export { runReview, type ReviewOptions, type ReviewPart, type ReviewResult } from "./review/runReview";
export {
  findingPlace,
  ReviewFindingSchema,
  REVIEW_SEVERITIES,
  type ReviewFinding,
  type ReviewSeverity,
} from "./review/finding";
export { readReviewDiff, MAX_DIFF_BYTES, type ReviewDiff, type ReviewTarget } from "./review/reviewSource";
export { DiffIndex, numberHunk, type NumberedHunk } from "./review/diffLines";
export { withCommitFiles } from "./review/reviewCheckout";
export { REPORT_FINDING } from "./review/reviewMiddleware";
export { type SkippedFile } from "./review/reviewChunks";
