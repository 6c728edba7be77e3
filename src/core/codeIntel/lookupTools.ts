import { z } from "zod";
import { normalizeVirtualPath } from "../backends/pathGuard";
import { defineTool, type Tool, type ToolContext, type ToolResult } from "../tools/tool";
import { runContextOf, toolError } from "../middleware/types";
import { isAnswerError, type CodeIntelligence, type CodePosition } from "./codeIntelligence";
import {
  CODE_INTEL_CAPS,
  formatDocumentSymbols,
  formatHover,
  formatLocations,
  formatWorkspaceSymbols,
} from "./codeIntelText";
import type { FileView } from "./fileView";
import { problemCounts, problemLine, sortProblems } from "./problems";
import { resolvePosition, type PositionArgs } from "./symbolPosition";
import type { TextLines } from "./textPositions";

/** The arguments every position tool takes: a file, and a line and column or a symbol's name. */
export const positionSchema = {
  path: z.string().describe("The file, e.g. /src/app.ts"),
  line: z.number().int().min(1).optional().describe("1-based line"),
  column: z.number().int().min(1).optional().describe("1-based column on that line"),
  symbol: z
    .string()
    .optional()
    .describe("The symbol's name when you do not know its column (with line if you know it; Class.method narrows)"),
};

/** What the code intelligence tools share: the language server, and the files as the agent may see them. */
export interface CodeIntelDeps {
  intel: CodeIntelligence;
  /** A fresh view per call: the backend's rules decide which files may be shown. */
  view(): FileView;
}

/** The model's path as the workspace's virtual path, with the file's lines; an error when the agent may not read it. */
export async function openFile(
  raw: string,
  view: FileView,
  ctx: ToolContext,
): Promise<{ path: string; lines: TextLines } | { error: string }> {
  const root = runContextOf(ctx)?.workspaceRoot;
  const path = normalizeVirtualPath(raw, root ? [root] : []);
  if (typeof path !== "string") return path;
  const sight = await view.sight(path);
  return "hidden" in sight ? { error: sight.why } : { path, lines: sight.lines };
}

/** The position the model means in a file it may read, and a note when it was looked up by name. */
export async function positionOf(
  deps: CodeIntelDeps,
  view: FileView,
  args: PositionArgs & { path: string },
  ctx: ToolContext,
): Promise<{ at: CodePosition; lines: TextLines; note?: string } | { error: string }> {
  const file = await openFile(args.path, view, ctx);
  if ("error" in file) return file;
  const at = await resolvePosition(file.path, file.lines, args, deps.intel, ctx.signal);
  return "error" in at ? at : { ...at, lines: file.lines };
}

function where(at: CodePosition, lines: TextLines): string {
  const text = lines.line(at.line)?.trim() ?? "";
  return `${at.path}:${at.line}:${at.column} (${text.length > 80 ? `${text.slice(0, 79)}…` : text})`;
}

const withNote = (text: string, note?: string) => (note ? `${text}\n(${note})` : text);

function failed(what: string, intel: CodeIntelligence, error: string): ToolResult {
  return toolError(`${intel.label} could not ${what}: ${error}`);
}

/** `find_definition`, `find_references`, `document_symbols`, `workspace_symbols`, `hover`, `get_problems`. */
export function lookupTools(deps: CodeIntelDeps): Tool[] {
  const { intel } = deps;
  const positional = z.object(positionSchema);

  const locations = (kind: "definition" | "references") =>
    defineTool({
      name: kind === "definition" ? "find_definition" : "find_references",
      description:
        kind === "definition"
          ? "Where a symbol is defined, from the language server: give path and line and column, or symbol (its name). Returns file:line:column with the line."
          : `Every use of a symbol, from the language server, grouped by file with each line (at most ${CODE_INTEL_CAPS.locations}): give path and line and column, or symbol. Better than grep for code: it knows scopes and imports.`,
      schema: positional,
      kind: "read",
      async run(args, ctx) {
        const view = deps.view();
        const pos = await positionOf(deps, view, args, ctx);
        if ("error" in pos) return toolError(pos.error);
        const found =
          kind === "definition"
            ? await intel.definitions(pos.at, ctx.signal)
            : await intel.references(pos.at, ctx.signal);
        if (isAnswerError(found)) return failed(`find ${kind}`, intel, found.error);
        const at = where(pos.at, pos.lines);
        if (found.length === 0)
          return {
            content: withNote(
              `No ${kind === "definition" ? "definition" : "references"} found for ${at}. Is the position on a name? The language server may not know this file's language.`,
              pos.note,
            ),
          };
        const { text, count } = await formatLocations(found, view, (shown) =>
          kind === "definition" ? `Definition of ${at}: ${shown}` : `References to ${at}: ${shown}`,
        );
        return { content: withNote(text, pos.note), details: { count } };
      },
    });

  const documentSymbols = defineTool({
    name: "document_symbols",
    description:
      "The declarations in a file (classes, functions, methods, variables…) as a tree with their lines, from the language server.",
    schema: z.object({ path: positionSchema.path }),
    kind: "read",
    async run(args, ctx) {
      const file = await openFile(args.path, deps.view(), ctx);
      if ("error" in file) return toolError(file.error);
      const symbols = await intel.documentSymbols(file.path, ctx.signal);
      if (isAnswerError(symbols)) return failed("list the file's symbols", intel, symbols.error);
      return { content: formatDocumentSymbols(file.path, symbols) };
    },
  });

  const workspaceSymbols = defineTool({
    name: "workspace_symbols",
    description:
      "Find declarations by name across the workspace, from the language server (fuzzy match). Returns kind, name and file:line:column.",
    schema: z.object({ query: z.string().trim().min(1).describe("The name, or part of it") }),
    kind: "read",
    async run(args, ctx) {
      const symbols = await intel.workspaceSymbols(args.query, ctx.signal);
      if (isAnswerError(symbols)) return failed("search the workspace's symbols", intel, symbols.error);
      return { content: await formatWorkspaceSymbols(args.query, symbols, deps.view()) };
    },
  });

  const hover = defineTool({
    name: "hover",
    description:
      "The type and documentation of the symbol at a position, as the editor's hover shows them: give path and line and column, or symbol.",
    schema: positional,
    kind: "read",
    async run(args, ctx) {
      const view = deps.view();
      const pos = await positionOf(deps, view, args, ctx);
      if ("error" in pos) return toolError(pos.error);
      const parts = await intel.hover(pos.at, ctx.signal);
      if (isAnswerError(parts)) return failed("show the hover", intel, parts.error);
      return { content: withNote(formatHover(where(pos.at, pos.lines), parts), pos.note) };
    },
  });

  const problems = defineTool({
    name: "get_problems",
    description: `The editor's current errors and warnings (errors first, at most ${CODE_INTEL_CAPS.problems}), for the whole workspace or under path. Files are checked once open; after an edit, errors come back with its result.`,
    schema: z.object({ path: z.string().optional().describe("A file or folder (default: the whole workspace)") }),
    kind: "read",
    async run(args, ctx) {
      const root = runContextOf(ctx)?.workspaceRoot;
      const scope = args.path === undefined ? "/" : normalizeVirtualPath(args.path, root ? [root] : []);
      if (typeof scope !== "string") return toolError(scope.error);
      const all = await intel.problems(ctx.signal);
      if (isAnswerError(all)) return failed("read the problems", intel, all.error);
      const view = deps.view();
      const inScope = all.filter(
        (p) =>
          (p.severity === "error" || p.severity === "warning") &&
          (scope === "/" || p.path === scope || p.path.startsWith(`${scope}/`)),
      );
      const shown = [];
      let hidden = 0;
      for (const p of sortProblems(inScope)) {
        if (shown.length >= CODE_INTEL_CAPS.problems) break;
        if (await view.visible(p.path)) shown.push(p);
        else hidden++;
      }
      const place = scope === "/" ? "the workspace" : scope;
      const covers = intel.problemsScope ? `\n(${intel.problemsScope()}.)` : "";
      if (shown.length === 0)
        return {
          content: `No errors or warnings in ${place} right now${hidden ? ` (${hidden} in files you may not read)` : ""}. The editor checks files once they are open.${covers}`,
        };
      const lines = shown.map(problemLine);
      const left = inScope.length - shown.length - hidden;
      if (left > 0) lines.push(`(${left} more not listed: narrow with path.)`);
      if (hidden) lines.push(`(${hidden} in files you may not read without asking, not shown.)`);
      return {
        content: `Problems in ${place} (${problemCounts(inScope)}):\n${lines.join("\n")}${covers}`,
        details: { count: inScope.length },
      };
    },
  });

  return [
    locations("definition"),
    locations("references"),
    documentSymbols,
    workspaceSymbols,
    hover,
    problems,
  ] as unknown as Tool[];
}
