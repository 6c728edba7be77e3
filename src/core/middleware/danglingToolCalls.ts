import type { ChatMessage } from "../model/types";
import type { Middleware } from "./types";

export const DANGLING_RESULT = "Tool call was cancelled or did not complete.";

/**
 * Makes every tool call in the history have exactly one result, right after its assistant
 * message: a missing result is added saying the call was cancelled; duplicate or orphaned
 * results are dropped. Returns how many results were added.
 */
export function patchToolCalls(messages: ChatMessage[]): number {
  if (isWellFormed(messages)) return 0;
  let added = 0;
  const out: ChatMessage[] = [];
  let changed = false;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "tool") {
      changed = true; // a tool result not right after its call: orphaned, dropped
      continue;
    }
    out.push(message);
    if (message.role !== "assistant" || !message.toolCalls?.length) continue;
    const results = new Map<string, ChatMessage>();
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === "tool"; j++) {
      const result = messages[j] as Extract<ChatMessage, { role: "tool" }>;
      if (results.has(result.toolCallId)) changed = true;
      else results.set(result.toolCallId, result);
    }
    for (const call of message.toolCalls) {
      const result = results.get(call.id);
      if (result) {
        out.push(result);
        results.delete(call.id);
      } else {
        out.push({ role: "tool", toolCallId: call.id, toolName: call.name, content: DANGLING_RESULT, isError: true });
        added++;
        changed = true;
      }
    }
    if (results.size > 0) changed = true;
    i = j - 1;
  }
  if (changed) messages.splice(0, messages.length, ...out);
  return added;
}

/** A quick allocation-free check for the usual case: every call answered once, in order. */
function isWellFormed(messages: readonly ChatMessage[]): boolean {
  let expected: readonly { id: string }[] = [];
  let next = 0;
  for (const message of messages) {
    if (message.role === "tool") {
      if (expected[next]?.id !== message.toolCallId) return false;
      next++;
      continue;
    }
    if (next < expected.length) return false;
    expected = message.role === "assistant" ? (message.toolCalls ?? []) : [];
    next = 0;
  }
  return next === expected.length;
}

/** Before each model call, any tool call without a result gets one saying it was cancelled. */
export function danglingToolCallsMiddleware(): Middleware {
  return {
    name: "danglingToolCalls",
    beforeModel(ctx) {
      const added = patchToolCalls(ctx.state.messages);
      if (added > 0) {
        ctx.emit({
          type: "warning",
          code: "dangling_tool_calls",
          message: `${added} tool call(s) had no result; marked as cancelled.`,
        });
      }
    },
  };
}
