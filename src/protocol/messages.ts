import { z } from "zod";

/**
 * The messages between the extension host and the chat webview. This file is the single
 * source of truth: both sides parse what they receive with these schemas and drop (and log)
 * anything that does not match.
 */

export const TranscriptMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  text: z.string(),
});
export type TranscriptMessage = z.infer<typeof TranscriptMessageSchema>;

/** Most characters one chat message may carry; larger pastes are refused, not truncated. */
export const MAX_MESSAGE_CHARS = 200_000;

export const WebviewToHostSchema = z.discriminatedUnion("type", [
  /** The webview (re)loaded and wants the current state. */
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("sendMessage"), text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS) }),
  z.object({ type: z.literal("newTask") }),
]);
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

export const HostToWebviewSchema = z.discriminatedUnion("type", [
  /** The whole transcript, sent on "ready" and after "newTask" so a reloaded view loses nothing. */
  z.object({ type: z.literal("transcript"), messages: z.array(TranscriptMessageSchema) }),
  z.object({ type: z.literal("appendMessage"), message: TranscriptMessageSchema }),
]);
export type HostToWebview = z.infer<typeof HostToWebviewSchema>;

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

/** Validates an incoming message; the error names the offending fields for the log. */
export function parseMessage<T>(schema: z.ZodType<T>, data: unknown): ParseResult<T> {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, message: result.data };
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(message)"}: ${issue.message}`)
    .join("; ");
  return { ok: false, error: issues };
}
