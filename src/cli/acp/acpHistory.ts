import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ChatMessage } from "../../core/model/types";
import { acpLocations, acpText, acpToolKind, acpToolTitle } from "./acpToolCalls";

/**
 * A saved task's conversation as the `session/update`s `session/load` replays, so the client's
 * panel shows it as it was: the person's messages, Fathom's answers, and each tool call with its
 * result (finished: completed or failed). Reasoning is not replayed (it was never an answer).
 */
export function acpHistory(root: string, messages: readonly ChatMessage[]): SessionUpdate[] {
  const calls = new Map<string, { name: string; args: unknown }>();
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      if (message.content) updates.push({ sessionUpdate: "user_message_chunk", content: text(message.content) });
    } else if (message.role === "assistant") {
      if (message.content) updates.push({ sessionUpdate: "agent_message_chunk", content: text(message.content) });
      for (const call of message.toolCalls ?? []) {
        const args = parsedArgs(call.arguments);
        calls.set(call.id, { name: call.name, args });
        updates.push({
          sessionUpdate: "tool_call",
          toolCallId: call.id,
          title: acpToolTitle(call.name, args),
          kind: acpToolKind(call.name),
          status: "pending",
          locations: acpLocations(root, args),
          rawInput: args,
        });
      }
    } else {
      const call = calls.get(message.toolCallId);
      updates.push({
        sessionUpdate: "tool_call_update",
        toolCallId: message.toolCallId,
        status: message.isError ? "failed" : "completed",
        ...(call ? {} : { title: message.toolName, kind: acpToolKind(message.toolName) }),
        content: [acpText(message.content)],
      });
    }
  }
  return updates;
}

function text(value: string) {
  return { type: "text" as const, text: value };
}

/** The arguments as the model wrote them: an object when they parse, else the raw text. */
function parsedArgs(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
