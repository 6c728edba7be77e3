import type { ChatMessage, ImagePart } from "./types";

/** A message that may carry images: a tool's result, or the person's message. */
type WithImages = Extract<ChatMessage, { role: "tool" | "user" }>;

/** Images are re-sent with every request, so only the latest few go (a screenshot loop would otherwise grow each request). */
export const MAX_IMAGES_PER_REQUEST = 3;

/**
 * Which images one request sends (tools' and the person's): the latest MAX_IMAGES_PER_REQUEST
 * when the model takes images, none otherwise.
 */
export function imagesToSend(
  messages: readonly ChatMessage[],
  modelTakesImages: boolean,
): Map<ChatMessage, ImagePart[]> {
  const sent = new Map<ChatMessage, ImagePart[]>();
  if (!modelTakesImages) return sent;
  let budget = MAX_IMAGES_PER_REQUEST;
  for (let i = messages.length - 1; i >= 0 && budget > 0; i--) {
    const msg = messages[i]!;
    if ((msg.role !== "tool" && msg.role !== "user") || !msg.images?.length) continue;
    const latest = msg.images.slice(-budget);
    sent.set(msg, latest);
    budget -= latest.length;
  }
  return sent;
}

/**
 * A message's text, telling the model about images it will not see (it takes text only, or
 * newer images were sent instead), so it does not act as if it had seen them.
 */
export function withImageNote(
  msg: WithImages,
  sent: readonly ImagePart[] | undefined,
  modelTakesImages: boolean,
): string {
  const withheld = (msg.images?.length ?? 0) - (sent?.length ?? 0);
  const text = msg.content === "" && msg.role === "tool" ? "(no output)" : msg.content;
  if (withheld <= 0) return text;
  const why = modelTakesImages
    ? `only the latest ${MAX_IMAGES_PER_REQUEST} images are sent`
    : "the model in use takes text only";
  const what =
    msg.role === "user"
      ? `The person attached ${withheld} image${withheld > 1 ? "s" : ""} that ${withheld > 1 ? "are" : "is"} not shown`
      : `${withheld} image${withheld > 1 ? "s" : ""} not shown`;
  return `${text}\n\n[${what}: ${why}]`;
}
