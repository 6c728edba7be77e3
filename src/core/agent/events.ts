import type { ChatMessage, ModelErrorKind, Usage } from "../model/types";
import type { FileChangeProposal, ToolKind } from "../tools/tool";
import type { ApprovalDecision } from "../approval";

/**
 * Everything a run reports, in order. One stream serves the VS Code host, the CLI and tests.
 * Every event is plain JSON (safe to log or send to a webview); none carries an API key.
 */

export type TodoStatus = "pending" | "in_progress" | "completed";
export interface Todo {
  content: string;
  status: TodoStatus;
}

/** Why a run ended. Only `completed` means the model gave its final answer. */
export type DoneReason =
  | "completed"
  | "cancelled"
  | "max_steps"
  | "repetition"
  | "tool_failures"
  | "spend_cap"
  | "error";

export type AgentEvent =
  | { type: "step_started"; step: number }
  | { type: "text_delta"; text: string }
  /** The model's reasoning (thinking), streamed; shown collapsed. */
  | { type: "reasoning_delta"; text: string }
  /** The current answer's text so far is replaced by `text` (tool calls written in it were taken out). */
  | { type: "text_replaced"; text: string }
  | { type: "tool_call_started"; toolCallId: string; toolName: string }
  | { type: "tool_call_arguments"; toolCallId: string; delta: string }
  | {
      type: "tool_call_finished";
      toolCallId: string;
      toolName: string;
      /** Parsed arguments as run (after any edit by the person); undefined when they did not parse. */
      args: unknown;
      content: string;
      isError: boolean;
      details?: Record<string, unknown>;
    }
  /** Live output of a running tool (for example `execute`). */
  | { type: "tool_output"; toolCallId: string; chunk: string }
  | {
      type: "approval_requested";
      toolCallId: string;
      toolName: string;
      kind: ToolKind;
      args: unknown;
      proposal?: FileChangeProposal;
      /** Why it is asked although its kind may be auto-approved (a secret file, leaving the sandbox). */
      why?: string;
      /** A write to Fathom's memory: shown as memory, its text in full. */
      memory?: boolean;
    }
  | { type: "approval_decided"; toolCallId: string; toolName: string; decision: ApprovalDecision["type"]; reason?: string }
  | { type: "todos_changed"; todos: Todo[] }
  /** `usage` is this model call; `total` and `costUsd` are the whole run so far (subagents included). */
  | { type: "usage"; usage: Usage; total: Usage; costUsd: number }
  | { type: "warning"; code: WarningCode; message: string }
  /** Rules files that started to apply (in the system prompt, or with a file the task touched): their paths or labels. */
  | { type: "rules_loaded"; files: string[] }
  /** A hook ran (./../hooks): which, how long, what it decided, and why or what went wrong. */
  | {
      type: "hook_ran";
      event: "SessionStart" | "UserPromptSubmit" | "PreToolUse" | "PostToolUse" | "Stop";
      command: string;
      origin: "user" | "workspace";
      durationMs: number;
      decision: "block" | "ask" | "allow" | "none" | "failed";
      toolName?: string;
      message?: string;
    }
  | { type: "error"; kind: ModelErrorKind | "internal"; message: string }
  /** An event from inside a subagent started by the `task` call `toolCallId`. */
  | { type: "subagent"; toolCallId: string; subagentType: string; event: AgentEvent }
  | { type: "done"; reason: DoneReason; finalText: string; message?: string; state: RunState };

export type WarningCode =
  | "model_retry"
  | "repetition"
  | "summarized"
  | "context_trimmed"
  | "tool_result_evicted"
  | "dangling_tool_calls"
  | "rules"
  /** Tool calls written in the model's text were run. */
  | "text_tool_calls"
  /** The server has no native tool calling, or refused stream_options: Fathom adapted. */
  | "model_adapted"
  /** The model's final answer was not the end: a check found more to do (errors after its last edit). */
  | "continued"
  /** A team file (custom agent, prompt file) asked for something Fathom does not use. */
  | "team_files";

export type AgentEventType = AgentEvent["type"];

/**
 * The whole state of a task, plain JSON: save it with JSON.stringify and pass it back to `run`
 * to resume. Tool calls left without a result (a crash, a cancel) are patched on resume.
 */
export interface RunState {
  version: 1;
  messages: ChatMessage[];
  todos: Todo[];
  usage: Usage;
  costUsd: number;
  /** Model calls made so far in this task. */
  steps: number;
  /** The run's scratch area (a StateBackend): evicted large tool results live here. */
  files: Record<string, string>;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

export function addUsage(into: Usage, more: Usage): void {
  into.inputTokens += more.inputTokens;
  into.outputTokens += more.outputTokens;
  into.cacheReadTokens += more.cacheReadTokens;
  into.cacheWriteTokens += more.cacheWriteTokens;
}

export function newRunState(): RunState {
  return { version: 1, messages: [], todos: [], usage: emptyUsage(), costUsd: 0, steps: 0, files: {} };
}

/**
 * Accepts a state that came back from disk or a webview. Returns a fresh copy, or an error
 * saying what is wrong (so a bad file loses nothing: the caller can keep it and report).
 */
export function parseRunState(value: unknown): { state: RunState } | { error: string } {
  if (typeof value !== "object" || value === null) return { error: "saved state is not an object" };
  const v = value as Partial<RunState>;
  if (v.version !== 1) return { error: `saved state has version ${String(v.version)}; this Fathom reads version 1` };
  if (!Array.isArray(v.messages)) return { error: "saved state has no messages array" };
  for (const [i, m] of v.messages.entries()) {
    const role = (m as { role?: unknown } | null)?.role;
    if (role !== "user" && role !== "assistant" && role !== "tool") {
      return { error: `saved state message ${i} has unknown role ${JSON.stringify(role)}` };
    }
  }
  const copy = structuredClone(v) as RunState;
  copy.todos = Array.isArray(copy.todos) ? copy.todos : [];
  copy.usage = { ...emptyUsage(), ...(copy.usage ?? {}) };
  copy.costUsd = typeof copy.costUsd === "number" ? copy.costUsd : 0;
  copy.steps = typeof copy.steps === "number" ? copy.steps : 0;
  copy.files = typeof copy.files === "object" && copy.files !== null ? copy.files : {};
  return { state: copy };
}
