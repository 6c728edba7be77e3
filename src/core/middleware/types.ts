import type { AgentProfile, ChatMessage, ChatModel, Sampling, ToolCall, ToolSpec, Usage } from "../model/types";
import type { FileChangeProposal, Tool, ToolContext, ToolResult } from "../tools/tool";
import type { AgentEvent } from "../run/events";
import type { RunState } from "../run/runState";
import type { TaskBudget } from "../run/taskBudget";

/**
 * A middleware is one feature of the agent (DeepAgents style): it may add tools, add a section
 * to the system prompt, fix up the state before each model call, and wrap the model call or each
 * tool call. Middleware listed first wraps outermost.
 */
export interface Middleware {
  readonly name: string;
  readonly tools?: readonly Tool[];
  /** A section of the system prompt, computed once per run. */
  systemPrompt?(ctx: RunContext): string | undefined | Promise<string | undefined>;
  /**
   * Runs before every model call, in list order; may rewrite `ctx.state.messages`. Returning
   * `stop` ends the run there with that message for the person (a hook refused the prompt).
   */
  beforeModel?(ctx: RunContext): void | { stop: string } | Promise<void | { stop: string }>;
  wrapModelCall?(call: ModelCall, ctx: RunContext, next: (call: ModelCall) => Promise<ModelTurn>): Promise<ModelTurn>;
  wrapToolCall?(
    call: ToolCallRequest,
    ctx: RunContext,
    next: (call: ToolCallRequest) => Promise<ToolResult>,
  ): Promise<ToolResult>;
  /**
   * The model answered without calling a tool. Return `text` to go on: it is added as a message
   * to the model (say in it what it comes from), `note` tells the person why, and the loop
   * continues; nothing ends the run. Runs in list order; the first answer wins. A check that
   * finds something to fix after the model's last step (errors a late language server reports)
   * uses it.
   */
  beforeFinish?(
    ctx: RunContext,
  ): Promise<{ text: string; note: string } | undefined> | { text: string; note: string } | undefined;
}

/** What middleware can see and do during a run. */
export interface RunContext {
  /** The live run state; changes are saved with it. */
  readonly state: RunState;
  emit(event: AgentEvent): void;
  readonly signal: AbortSignal;
  readonly model: ChatModel;
  readonly workspaceRoot: string;
  /** Set when this run is a subagent (its `subagent_type`). */
  readonly subagentType?: string;
  /** A subagent's: its parent's scratch files (results evicted to /large_tool_results/), which it may read. */
  readonly parentFiles?: Readonly<Record<string, string>>;
  /**
   * Counts a model call made outside the loop (a summary, a subagent) toward the task's usage
   * and spend; `costUsd` defaults to the price of `usage` on this run's model.
   */
  recordUsage(usage: Usage, costUsd?: number, alreadyBudgeted?: boolean): void;
  /** The steps, dollars and subagent slots this run shares with its subagents. */
  readonly budget: TaskBudget;
  /** The agent profile of this run (agent/smallModelProfile.ts): `small` offers only the core tools. */
  readonly profile: AgentProfile;
}

export interface ModelCall {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** The run's last request (or a loop was stopped): only the final answer is offered where the model can be held to it. */
  answerOnly?: boolean;
  /** Sampling for this call only (a retry asked to vary); absent: the model's own settings. */
  sampling?: Sampling;
  /** Checked with the answer's text as it streams: true ends the answer there (nothing more is generated). */
  stopWhen?: (textSoFar: string) => boolean;
}

export interface ModelTurn {
  message: Extract<ChatMessage, { role: "assistant" }>;
  usage: Usage;
  stopReason: string;
}

export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly tool: Tool;
  /** Validated arguments; approvals may replace them with a person's edit. */
  args: Record<string, unknown>;
  /** Edit tools: an approved change; the loop then writes it with `applyChange` instead of `run`. */
  proposal?: FileChangeProposal;
  /** A PreToolUse hook's say: `ask` asks the person whatever the policy; `allow` (the person's own hook) skips the question, never the sandbox. */
  hookDecision?: { decision: "ask" | "allow"; reason: string };
  /** Every call the model made in this turn (to refuse parallel calls where they make no sense). */
  readonly turn: readonly ToolCall[];
}

/**
 * A call a tool makes on the model's behalf (one file of `rename_symbol`): it passes every
 * middleware as a call of the model's would (approvals, hooks, checkpoints, the host's review)
 * and shows as its own card. Its id must be unique in the run.
 */
export interface NestedCall {
  id: string;
  name: string;
  tool: Tool;
  args: Record<string, unknown>;
}

/** The context the loop gives tools: the standard one plus the run (for `task`). */
export interface AgentToolContext extends ToolContext {
  readonly run: RunContext;
  /** Runs a call of the tool's own through the whole middleware stack (./types.ts NestedCall). */
  readonly runNested?: (call: NestedCall) => Promise<ToolResult>;
}

export function runContextOf(ctx: ToolContext): RunContext | undefined {
  return (ctx as Partial<AgentToolContext>).run;
}

/** The loop's runner of nested calls, when the tool runs inside an agent's run. */
export function nestedRunnerOf(ctx: ToolContext): AgentToolContext["runNested"] {
  return (ctx as Partial<AgentToolContext>).runNested;
}

/** An error result written for the model. */
export function toolError(content: string, details?: Record<string, unknown>): ToolResult {
  return details ? { content, isError: true, details } : { content, isError: true };
}
