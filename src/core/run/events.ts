import type { ModelErrorKind, Usage } from "../model/types";
import type { RunState, Todo } from "./runState";
import type { FileChangeProposal, ToolKind } from "../tools/tool";
import type { ApprovalDecision } from "../approval";

/**
 * Everything a run reports, in order. One stream serves the VS Code host, the CLI and tests.
 * Every event is plain JSON (safe to log or send to a webview); none carries an API key.
 */

/** Why a run ended. Only `completed` means the model gave its final answer. */
export type DoneReason =
  "completed" | "cancelled" | "max_steps" | "repetition" | "tool_failures" | "spend_cap" | "error";

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
  | {
      type: "approval_decided";
      toolCallId: string;
      toolName: string;
      decision: ApprovalDecision["type"];
      reason?: string;
    }
  | { type: "todos_changed"; todos: Todo[] }
  /** `ask_user`: the run waits for the person's answer (no step is taken meanwhile). */
  | { type: "question_asked"; toolCallId: string; question: string; choices: string[]; allowFreeText: boolean }
  /** The question's answer, or why nobody answered. */
  | { type: "question_answered"; toolCallId: string; answer?: string; unanswered?: string }
  /** A message the person sent while the task ran reached the model here ("Send now"). */
  | { type: "steered"; text: string }
  /** Plan mode ended with this plan (capped at MAX_PLAN_CHARS); the person edits, changes or starts it. */
  | { type: "plan_proposed"; text: string; capped: boolean }
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

/** The one event every run ends with. */
export type DoneEvent = Extract<AgentEvent, { type: "done" }>;
