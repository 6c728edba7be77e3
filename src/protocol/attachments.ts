import { z } from "zod";

/**
 * What the message box's chips carry (the core's `Attachment`): a workspace file or range by
 * path (read by the host's backend when sent), or text the host captured (a terminal's last
 * command, problems). The caps match the core's (src/core/attachments.ts); text past them is
 * refused here rather than cut silently, since the host cuts (and says so) before sending.
 */
export const MAX_CHIPS = 20;
const MAX_CHIP_TEXT = 20_000 + 500;

export const AttachmentSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("file"),
      path: z.string().min(1).max(4096),
      startLine: z.number().int().min(1).optional(),
      endLine: z.number().int().min(1).optional(),
    })
    .refine((a) => a.endLine === undefined || (a.startLine !== undefined && a.endLine >= a.startLine), {
      message: "a range's end comes after its start",
    }),
  z.object({ kind: z.literal("terminal"), label: z.string().max(300), text: z.string().max(MAX_CHIP_TEXT) }),
  z.object({ kind: z.literal("problems"), label: z.string().max(300), text: z.string().max(MAX_CHIP_TEXT) }),
]);
export type AttachmentView = z.infer<typeof AttachmentSchema>;

/**
 * How a chip names an attachment (the core's or a chip's): `src/a.ts:10-20`, `src/a.ts`,
 * `Terminal: npm test (exit 1)`, the problems' label.
 */
export function attachmentLabel(
  a:
    | { kind: "file"; path: string; startLine?: number | undefined; endLine?: number | undefined }
    | { kind: "terminal" | "problems"; label: string },
): string {
  if (a.kind !== "file") return a.label;
  const name = a.path.replace(/^\/+/, "") || "/";
  if (a.startLine === undefined) return name;
  return a.endLine === undefined || a.endLine === a.startLine
    ? `${name}:${a.startLine}`
    : `${name}:${a.startLine}-${a.endLine}`;
}

/** A chip in a sent message: what it was, named as the chip named it. */
export const SentAttachmentSchema = z.object({
  kind: z.enum(["file", "terminal", "problems"]),
  label: z.string().max(400),
  path: z.string().max(4096).optional(),
  line: z.number().int().optional(),
});
export type SentAttachment = z.infer<typeof SentAttachmentSchema>;
