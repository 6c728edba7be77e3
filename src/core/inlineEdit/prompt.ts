import { z } from "zod";
import { linesLabel, type SelectedLines } from "./selectedLines";

/** What the person asked of an inline edit: a file's lines and what should become of them. */
export const InlineEditRequestSchema = z
  .object({
    /** Virtual path (`/src/a.ts`). */
    path: z.string().min(1),
    startLine: z.number().int().min(1),
    endLine: z.number().int().min(1),
    instruction: z.string().trim().min(1),
    /** The editor's language id (`typescript`), when the host knows it. */
    language: z.string().optional(),
  })
  .refine((r) => r.endLine >= r.startLine, { message: "endLine comes before startLine" });
export type InlineEditRequest = z.infer<typeof InlineEditRequestSchema>;

/** Lines of context shown on each side of the selection, at most. */
export const CONTEXT_LINES = 30;
/** Characters of context shown on each side, at most (the nearest lines are kept). */
export const CONTEXT_CHARS = 6_000;
/** The most lines and characters one inline edit may replace (a model's answer must hold them all). */
export const MAX_SELECTED_LINES = 1_000;
export const MAX_SELECTED_CHARS = 60_000;

/** Where the context shown starts (an index into `before`) and how many lines of `after` it shows. */
export function shownContext(sel: SelectedLines): { from: number; afterCount: number } {
  const take = (lines: readonly string[]) => {
    let count = 0;
    let chars = 0;
    for (const line of lines) {
      if (count === CONTEXT_LINES || chars + line.length + 1 > CONTEXT_CHARS) break;
      count++;
      chars += line.length + 1;
    }
    return count;
  };
  return { from: sel.before.length - take([...sel.before].reverse()), afterCount: take(sel.after) };
}

/** Why a selection is too large for one inline edit, or undefined when it is not. */
export function selectionTooLarge(sel: SelectedLines): string | undefined {
  const chars = sel.selected.reduce((n, l) => n + l.length + 1, 0);
  if (sel.selected.length <= MAX_SELECTED_LINES && chars <= MAX_SELECTED_CHARS) return undefined;
  return `The selection is too large for Edit Selection (${sel.selected.length} lines, ${chars} characters; at most ${MAX_SELECTED_LINES} lines and ${MAX_SELECTED_CHARS} characters). Select less, or ask for the change in the chat.`;
}

export const INLINE_EDIT_SYSTEM_PROMPT = [
  "You rewrite the selected lines of a file as the person asks.",
  "Reply with only the new text for the selected lines, exactly as it should stand in the file: no explanation, no Markdown code fences, no line numbers, and not the lines before or after the selection, which stay as they are.",
  "Keep the file's indentation and style. An empty reply deletes the selected lines.",
  'If the request cannot be done by rewriting the selected lines, reply with one line that starts with "Cannot:" and says why.',
].join("\n");

/** The one message the model is sent: the file's path and language, the selection in its context, the instruction. */
export function inlineEditUserPrompt(sel: SelectedLines, request: InlineEditRequest): string {
  const { from, afterCount } = shownContext(sel);
  const lines = linesLabel(request.startLine, request.endLine);
  const language = request.language ? ` (${request.language})` : "";
  const before = sel.before.slice(from);
  const after = sel.after.slice(0, afterCount);
  const hiddenAfter = sel.after.length - afterCount;
  const parts = [
    `File: ${request.path}${language}`,
    "",
    from > 0 ? `(${from} earlier line${from === 1 ? "" : "s"} not shown)` : "(start of file)",
    "<before_selection>",
    ...before,
    "</before_selection>",
    `<selection lines="${request.startLine}-${request.endLine}">`,
    ...sel.selected,
    "</selection>",
    "<after_selection>",
    ...after,
    "</after_selection>",
    hiddenAfter > 0 ? `(${hiddenAfter} later line${hiddenAfter === 1 ? "" : "s"} not shown)` : "(end of file)",
    "",
    `Instruction: ${request.instruction.trim()}`,
    "",
    `Reply with only the new text for ${lines}.`,
  ];
  return parts.join("\n");
}
