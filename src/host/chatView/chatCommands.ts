import type { WebviewToHostChat } from "../../protocol";
import type { ChatSession } from "../tasks/chatSession";

type SendMessage = Extract<WebviewToHostChat, { type: "sendMessage" }>;

/** `/plan what to do`: the message runs in Plan mode (the message box's Plan switch does the same); `/compact` summarizes the conversation now. */
const PLAN_COMMAND = /^\/plan(?:\s+([\s\S]*))?$/;

/** A message from the message box, with the chat's built-in commands read off its text first. */
export function sendWithCommand(session: Pick<ChatSession, "send" | "compact">, message: SendMessage): Promise<void> {
  if (message.text === "/compact" && !message.images?.length && !message.attachments?.length) return session.compact();
  const plan = PLAN_COMMAND.exec(message.text);
  const text = plan ? (plan[1] ?? "").trim() : message.text;
  const mode = plan ? "plan" : message.mode;
  // "/plan" alone only switches the message box (done in the view): there is nothing to send.
  if (!text && !message.images?.length && !message.attachments?.length) return Promise.resolve();
  return session.send(text, message.images, {
    ...(message.worktree !== undefined ? { worktree: message.worktree } : {}),
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
    ...(mode ? { mode } : {}),
    ...(message.queue ? { queue: true } : {}),
  });
}
