import type { PlanEntry, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import type { AgentEvent, DoneReason } from "../../core/run/events";
import type { Todo } from "../../core/run/runState";
import type { FileChangeProposal } from "../../core/tools/tool";
import { acpDiff, acpLocations, acpText, acpToolKind, acpToolTitle } from "./acpToolCalls";

/**
 * A run's events as ACP `session/update`s: text and reasoning as chunks, each tool call as a
 * `tool_call` then `tool_call_update`s (kind, title, locations, status, an edit's diff), the
 * todos as the plan. One per session turn: it remembers each call's proposal for its diff.
 */
export function acpUpdates(root: string) {
  const proposals = new Map<string, FileChangeProposal>();
  return (event: AgentEvent): SessionUpdate[] => {
    switch (event.type) {
      case "text_delta":
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } }];
      case "reasoning_delta":
        return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } }];
      case "tool_call_started":
        return [
          {
            sessionUpdate: "tool_call",
            toolCallId: event.toolCallId,
            title: event.toolName,
            kind: acpToolKind(event.toolName),
            status: "pending",
          },
        ];
      case "approval_requested":
        if (event.proposal) proposals.set(event.toolCallId, event.proposal);
        return [
          {
            sessionUpdate: "tool_call_update",
            toolCallId: event.toolCallId,
            title: acpToolTitle(event.toolName, event.args),
            locations: acpLocations(root, event.args),
            rawInput: event.args,
            ...(event.proposal ? { content: [acpDiff(root, event.proposal)] } : {}),
          },
        ];
      case "tool_call_finished":
        return [finished(root, event, proposals.get(event.toolCallId))];
      case "todos_changed":
        return [{ sessionUpdate: "plan", entries: event.todos.map(planEntry) }];
      case "error":
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\n${event.message}` } }];
      default:
        return [];
    }
  };
}

function finished(
  root: string,
  event: Extract<AgentEvent, { type: "tool_call_finished" }>,
  proposal: FileChangeProposal | undefined,
): SessionUpdate {
  const edited = proposal && !event.isError;
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: event.toolCallId,
    status: event.isError ? "failed" : "completed",
    title: acpToolTitle(event.toolName, event.args),
    kind: acpToolKind(event.toolName),
    locations: acpLocations(root, event.args),
    rawInput: event.args,
    content: edited ? [acpDiff(root, proposal), acpText(event.content)] : [acpText(event.content)],
  };
}

function planEntry(todo: Todo): PlanEntry {
  const status = todo.status === "completed" || todo.status === "in_progress" ? todo.status : "pending";
  return { content: todo.content, priority: "medium", status };
}

/** Why the turn ended, as ACP says it. A failed run is an error the client shows, not a stop reason. */
export function acpStopReason(reason: DoneReason): StopReason | undefined {
  switch (reason) {
    case "completed":
      return "end_turn";
    case "cancelled":
      return "cancelled";
    case "max_steps":
    case "repetition":
    case "tool_failures":
    case "spend_cap":
      return "max_turn_requests";
    default:
      return undefined;
  }
}
