import { useEffect, useRef, useState } from "react";
import type { ChatState } from "../../../src/protocol";
import { pendingApprovals } from "./chatReducer";

const FINISHED: Partial<Record<ChatState["status"], string>> = {
  completed: "Task completed.",
  failed: "Task failed.",
  cancelled: "Task cancelled.",
};

/**
 * What the live region says: the task finishing, and each tool call that starts waiting for
 * approval. Only changes are announced, not the state found on (re)load.
 */
export function useAnnouncements(chat: ChatState, connected: boolean): string {
  const [message, setMessage] = useState("");
  const previousStatus = useRef<ChatState["status"] | null>(null);
  const announced = useRef(new Set<string>());

  useEffect(() => {
    if (!connected) return;
    const parts: string[] = [];
    const status = previousStatus.current;
    if (status !== null && status !== chat.status && FINISHED[chat.status]) parts.push(FINISHED[chat.status]!);
    previousStatus.current = chat.status;
    for (const tool of pendingApprovals(chat.items)) {
      if (announced.current.has(tool.id)) continue;
      announced.current.add(tool.id);
      parts.push(
        tool.proposal
          ? `Approval needed: proposed change to ${tool.proposal.path}.`
          : `Approval needed: ${tool.title.replace(/`/g, "")}.`,
      );
    }
    if (parts.length) setMessage(parts.join(" "));
  }, [chat.status, chat.items, connected]);

  return message;
}
