import { z } from "zod";
import type { BackendProtocol } from "../backends/protocol";
import { defineTool, type FileChangeProposal, type Tool, type ToolResult } from "../tools/tool";
import { cleanAnswer } from "./answer";
import { selectionTooLarge } from "./prompt";
import { linesLabel, replaceLines, selectLines, textVersion } from "./selectedLines";

export const EDIT_SELECTION = "edit_selection";

/**
 * The arguments of an inline edit's one call. Fathom writes them, not the model (see
 * InlineEditModel): the path and lines come first, so the diff opens while the answer streams.
 */
export const EditSelectionSchema = z.object({
  file_path: z.string().min(1).describe("The file, e.g. /src/a.ts"),
  start_line: z.number().int().min(1).describe("First selected line (1-based)"),
  end_line: z.number().int().min(1).describe("Last selected line"),
  file_version: z
    .string()
    .describe("Fingerprint of the file's text the model was shown: the edit applies only to that text"),
  answer: z.string().describe("The model's answer: the selected lines' new text, cleaned before use"),
  stop_reason: z.string().optional().describe("Why the model's answer ended, when not by finishing it"),
});
export type EditSelectionArgs = z.infer<typeof EditSelectionSchema>;

const AGAIN =
  "Nothing was proposed. Run Fathom: Edit Selection… again (a clearer instruction may help), or ask in the chat.";

/** Why the model's answer cannot be used as it ended, or undefined when it finished normally. */
function unfinished(stopReason: string | undefined): string | undefined {
  if (stopReason === undefined || stopReason === "end_turn" || stopReason === "stop") return undefined;
  if (stopReason === "max_tokens")
    return "The model's answer was cut off at its output limit, so it is not the whole new text. Select fewer lines, or raise the model's output limit.";
  return `The model stopped without finishing its answer (${stopReason === "content_filter" || stopReason === "refusal" ? "it refused or was filtered" : stopReason}).`;
}

/**
 * `edit_selection`: replaces whole lines of a file with the model's cleaned answer. Its
 * proposal is a whole-file change like edit_file's, so the approval gate shows it as a diff the
 * person can change, and it is written through the backend (the checkpoints, the stale-write
 * guard, an open editor's unsaved changes). Its errors are written for the person: the "model"
 * that reads them is Fathom's own (InlineEditModel), which passes them on.
 */
export function createEditSelectionTool(backend: BackendProtocol): Tool {
  const propose = async (args: EditSelectionArgs): Promise<FileChangeProposal | { error: string }> => {
    const lines = linesLabel(args.start_line, args.end_line);
    const cut = unfinished(args.stop_reason);
    if (cut) return { error: `${cut} ${AGAIN}` };
    // What the model saw must still be the file: a read makes the stale-write guard agree, and the
    // fingerprint proves the text read is the text the answer was made for.
    await backend.read(args.file_path, 0, 1);
    const now = backend.currentText
      ? await backend.currentText(args.file_path)
      : { error: `${args.file_path} cannot be edited here.` };
    if ("error" in now) return { error: `Could not read ${args.file_path}: ${now.error}` };
    if (now.text === null) return { error: `${args.file_path} no longer exists; nothing was written.` };
    if (textVersion(now.text) !== args.file_version)
      return {
        error: `${args.file_path} changed after the model was sent its ${lines}, so its answer may no longer fit. Nothing was written; run Edit Selection again.`,
      };
    const sel = selectLines(now.text, args.start_line, args.end_line);
    if ("error" in sel) return { error: sel.error };
    const tooLarge = selectionTooLarge(sel);
    if (tooLarge) return { error: tooLarge };
    const cleaned = cleanAnswer(args.answer, { sel, path: args.file_path });
    if ("refused" in cleaned) return { error: `${cleaned.refused} ${AGAIN}` };
    const after = replaceLines(now.text, args.start_line, args.end_line, cleaned.replacement);
    if (after === now.text)
      return { error: `The model's answer leaves ${lines} as they are: there is nothing to change.` };
    const prepared = await backend.prepareWrite(args.file_path, after);
    if ("error" in prepared) return { error: prepared.error };
    if (prepared.before !== now.text)
      return {
        error: `${args.file_path} changed while the edit was prepared; nothing was written. Run Edit Selection again.`,
      };
    return { path: prepared.path, before: prepared.before, after: prepared.after };
  };
  const apply = async (proposal: FileChangeProposal): Promise<ToolResult> => {
    const w = await backend.commitChange(proposal.path, proposal.before, proposal.after);
    if (w.error !== undefined) return { content: `Nothing was written: ${w.error}`, isError: true };
    return {
      content: `Replaced the selected lines of ${w.path ?? proposal.path}.`,
      details: { path: w.path ?? proposal.path },
    };
  };
  const tool: Tool<typeof EditSelectionSchema> = defineTool({
    name: EDIT_SELECTION,
    description:
      "Replace the selected lines of a file with the model's answer (an inline edit; Fathom makes this call itself).",
    schema: EditSelectionSchema,
    kind: "edit",
    proposeChange: (args) => guard(() => propose(args)),
    applyChange: (proposal) => apply(proposal),
    run: async (args) => {
      const p = await guard(() => propose(args));
      return "error" in p ? { content: p.error, isError: true } : apply(p);
    },
  });
  return tool as unknown as Tool;
}

async function guard(
  fn: () => Promise<FileChangeProposal | { error: string }>,
): Promise<FileChangeProposal | { error: string }> {
  try {
    return await fn();
  } catch (e) {
    return { error: `The edit could not be prepared: ${e instanceof Error ? e.message : String(e)}` };
  }
}
