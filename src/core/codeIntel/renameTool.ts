import { z } from "zod";
import type { BackendProtocol } from "../backends/protocol";
import { normalizeVirtualPath } from "../backends/pathGuard";
import { defineTool, type FileChangeProposal, type Tool, type ToolResult } from "../tools/tool";
import { nestedRunnerOf, toolError } from "../middleware/types";
import { isAnswerError } from "./codeIntelligence";
import { applyTextEdits } from "./textPositions";
import { positionOf, positionSchema, type CodeIntelDeps } from "./lookupTools";

export const RENAME_SYMBOL = "rename_symbol";
/** One file's part of a rename: a call rename_symbol makes, never offered to the model. */
export const RENAME_IN_FILE = "rename_in_file";

/** Largest file a rename edits (as the file tools' edit limit). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const FileEditsSchema = z.object({
  file_path: z.string(),
  old_name: z.string().optional(),
  new_name: z.string(),
  edits: z
    .array(
      z.object({
        line: z.number().int().min(1),
        column: z.number().int().min(1),
        endLine: z.number().int().min(1),
        endColumn: z.number().int().min(1),
        newText: z.string(),
      }),
    )
    .min(1),
});

/** The file's exact text now, under the write rules where the backend has them. */
async function textNow(backend: BackendProtocol, path: string): Promise<{ text: string } | { error: string }> {
  if (backend.currentText) {
    const r = await backend.currentText(path);
    if ("error" in r) return r;
    return r.text === null ? { error: `${path} does not exist any more` } : { text: r.text };
  }
  const r = await backend.readText(path, MAX_FILE_BYTES);
  if (r.error !== undefined) return { error: r.error };
  return r.truncated ? { error: `${path} is too large to edit here` } : { text: r.text ?? "" };
}

/**
 * One file of a rename as an ordinary edit: a whole-file proposal (the file now, and with the
 * language server's edits made) that the approvals, the diff review, the stale-write check and
 * the checkpoints treat as any edit_file.
 */
export function renameInFileTool(backend: BackendProtocol): Tool {
  const propose = async (args: z.infer<typeof FileEditsSchema>): Promise<FileChangeProposal | { error: string }> => {
    const path = normalizeVirtualPath(args.file_path);
    if (typeof path !== "string") return path;
    const now = await textNow(backend, path);
    if ("error" in now) return { error: `Not renamed in ${path}: ${now.error}.` };
    const made = applyTextEdits(now.text, args.edits);
    if ("error" in made)
      return {
        error: `Not renamed in ${path}: ${made.error}; the file changed since the language server read it. Call rename_symbol again.`,
      };
    return { path, before: now.text, after: made.text };
  };
  const apply = async (proposal: FileChangeProposal): Promise<ToolResult> => {
    const w = await backend.commitChange(proposal.path, proposal.before, proposal.after);
    if (w.error !== undefined) return toolError(w.error);
    const path = w.path ?? proposal.path;
    return { content: `Renamed in ${path}.`, details: { path } };
  };
  const tool = defineTool({
    name: RENAME_IN_FILE,
    description: "One file's part of a rename_symbol.",
    schema: FileEditsSchema,
    kind: "edit",
    proposeChange: propose,
    applyChange: apply,
    async run(args) {
      const p = await propose(args);
      return "error" in p ? toolError(p.error) : apply(p);
    },
  });
  return tool as unknown as Tool;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * `rename_symbol`: the language server's rename, made as one proposed edit per file (each its
 * own card and diff, asked as any edit is), never applied behind the person's back. It changes
 * only workspace files the agent may read: a rename reaching further is refused whole.
 */
export function renameTool(deps: CodeIntelDeps, backend: BackendProtocol): Tool {
  const fileTool = renameInFileTool(backend);
  const tool = defineTool({
    name: RENAME_SYMBOL,
    description:
      "Rename a symbol everywhere it is used, as the language server does (scopes, imports, other files): give path and line and column, or symbol, and new_name. Each changed file is proposed as its own edit for the person to review.",
    schema: z.object({ ...positionSchema, new_name: z.string().trim().min(1).describe("The new name") }),
    kind: "other",
    async run(args, ctx): Promise<ToolResult> {
      const runNested = nestedRunnerOf(ctx);
      if (!runNested) return toolError("rename_symbol cannot propose edits outside an agent's run.");
      const view = deps.view();
      const pos = await positionOf(deps, view, args, ctx);
      if ("error" in pos) return toolError(pos.error);
      const line = pos.lines.line(pos.at.line) ?? "";
      const oldName = /^[\p{L}\p{N}_$]+/u.exec(line.slice(pos.at.column - 1))?.[0];
      const found = await deps.intel.rename(pos.at, args.new_name, ctx.signal);
      if (isAnswerError(found)) return toolError(`${deps.intel.label} could not rename there: ${found.error}`);
      const files = found.files.filter((f) => f.edits.length > 0);
      if (files.length === 0)
        return toolError(
          `The language server made no edits for a rename at ${pos.at.path}:${pos.at.line}:${pos.at.column}. Is the position on a name?`,
        );
      const outside = files.filter((f) => f.path === undefined).map((f) => f.outside!);
      const hidden: string[] = [];
      for (const f of files) if (f.path !== undefined && !(await view.visible(f.path))) hidden.push(f.path);
      if (outside.length || hidden.length)
        return toolError(
          `Not renamed: the rename would also change ${[
            outside.length
              ? `${plural(outside.length, "file")} outside the workspace (${outside.slice(0, 3).join(", ")})`
              : "",
            hidden.length ? `${plural(hidden.length, "file")} you may not read (${hidden.slice(0, 3).join(", ")})` : "",
          ]
            .filter(Boolean)
            .join(" and ")}. Nothing was changed. Tell the person, or make the changes you may make with edit_file.`,
        );

      const done: string[] = [];
      const lines: string[] = [];
      let stopped: string | undefined;
      let rejected = false;
      for (const [i, f] of files.entries()) {
        if (stopped || ctx.signal.aborted) {
          lines.push(`- ${f.path}: not proposed (${stopped ?? "the task was cancelled"}).`);
          continue;
        }
        const result = await runNested({
          id: `${ctx.toolCallId}_file${i + 1}`,
          name: RENAME_IN_FILE,
          tool: fileTool,
          args: {
            file_path: f.path!,
            ...(oldName ? { old_name: oldName } : {}),
            new_name: args.new_name,
            edits: f.edits,
          },
        });
        if (!result.isError) done.push(f.path!);
        lines.push(`- ${f.path} (${plural(f.edits.length, "edit")}): ${result.content.replace(/\n+/g, " ")}`);
        if (result.details?.rejected === true) {
          rejected = true;
          stopped = "the person rejected an earlier file of this rename";
        }
        if (result.details?.cancelled === true) stopped = "the task was cancelled";
      }
      const what = `${oldName ? `\`${oldName}\`` : "the symbol"} to \`${args.new_name}\``;
      const head =
        done.length === files.length
          ? `Renamed ${what} in ${plural(files.length, "file")}.`
          : done.length === 0
            ? `Did not rename ${what}: no file was changed.`
            : `Renamed ${what} in only ${done.length} of ${plural(files.length, "file")}: the code may not build until the rest is changed or these are undone.`;
      const skipped = found.skipped?.length ? `\nNot done (the server also asked): ${found.skipped.join("; ")}.` : "";
      const note = pos.note ? `\n(${pos.note})` : "";
      return {
        content: `${head}\n${lines.join("\n")}${skipped}${note}`,
        ...(done.length === 0 ? { isError: true } : {}),
        // A person's rejection is not the model's failure (it does not count toward the error cap).
        details: {
          files: files.map((f) => f.path),
          changed: done,
          ...(rejected && done.length === 0 ? { rejected } : {}),
        },
      };
    },
  });
  return tool as unknown as Tool;
}
