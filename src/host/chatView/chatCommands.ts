import { parseSlashCommand, type WebviewToHostChat } from "../../protocol";
import type { ChatSession } from "../tasks/chatSession";
import { reviewTargetOf } from "../codeReview/reviewArgs";

type SendMessage = Extract<WebviewToHostChat, { type: "sendMessage" }>;

/**
 * A message from the message box, with the chat's built-in commands read off its text first:
 * `/plan what to do` runs the message in Plan mode (the message box's Plan switch does the
 * same); `/compact` summarizes the conversation now; `/review [staged | BRANCH]` reviews a diff. Names are matched as typed (the message box
 * sends them lower-case).
 */
export function sendWithCommand(
  session: Pick<ChatSession, "send" | "compact" | "notice">,
  message: SendMessage,
): Promise<void> {
  const slash = parseSlashCommand(message.text);
  if (slash?.name === "compact" && !slash.args && !message.images?.length && !message.attachments?.length)
    return session.compact();
  if (slash?.name === "review") {
    const review = reviewTargetOf(slash.args);
    if ("error" in review) return Promise.resolve(session.notice("warning", review.error));
    return session.send(message.text.trim(), undefined, { review, ...(message.queue ? { queue: true } : {}) });
  }
  const plan = slash?.name === "plan";
  const text = plan ? slash.args : message.text;
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
