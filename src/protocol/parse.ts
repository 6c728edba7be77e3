import type { z } from "zod";

/** Most characters one chat message may carry; larger pastes are refused, not truncated. */
export const MAX_MESSAGE_CHARS = 200_000;

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
