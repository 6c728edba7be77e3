import type { SecretFileMatcher } from "../trust/secretFiles";
import { z } from "zod";
import type { BackendProtocol, GrepOutputMode } from "../backends/protocol";
import { isFileNotFound, nearMissHint, nearMissPath } from "./nearMissPath";
import { defineTool, type FileChangeProposal, type Tool, type ToolResult } from "./tool";

export interface FileToolsOptions {
  /** Longest text one tool result may return, in characters (default 30,000). */
  maxOutputChars?: number;
  /** Most grep matches in `content` mode (default 300) and files/entries listed (default 500). */
  maxGrepMatches?: number;
  maxListed?: number;
  /** Secret files (./secretFiles.ts): grep leaves them out; reading one is asked by the approvals middleware. */
  isSecret?: SecretFileMatcher;
}

const err = (content: string): ToolResult => ({ content, isError: true });

/** Caps a tool's text so one result cannot flood the context. */
export function capOutput(text: string, max: number, hint: string): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf("\n", max);
  const keep = cut > max * 0.5 ? cut : max;
  return `${text.slice(0, keep)}\n\n(Output cut at ${max} characters. ${hint})`;
}

async function guard(fn: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await fn();
  } catch (e) {
    return err(`The tool failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The six file tools (`ls`, `read_file`, `write_file`, `edit_file`, `glob`, `grep`) over a backend. */
export function createFileTools(backend: BackendProtocol, options: FileToolsOptions = {}): Tool[] {
  const maxChars = options.maxOutputChars ?? 30_000;
  const maxMatches = options.maxGrepMatches ?? 300;
  const maxListed = options.maxListed ?? 500;

  /**
   * What ls and glob answer: the paths (at most maxListed, then a line saying more were left out),
   * capped; `empty` when there are none.
   */
  const listed = (
    r: { error?: string; files?: { path: string }[] },
    empty: string,
    truncated: boolean,
    cut: (files: number) => { more: string; hint: string },
  ) => {
    if (r.error !== undefined) return err(r.error);
    const files = r.files ?? [];
    if (files.length === 0) return { content: empty };
    const { more, hint } = cut(files.length);
    const lines = files.slice(0, maxListed).map((f) => f.path);
    if (truncated || files.length > maxListed) lines.push(more);
    return { content: capOutput(lines.join("\n"), maxChars, hint), details: { count: files.length } };
  };

  const ls = defineTool({
    name: "ls",
    description:
      "List the direct children of a folder (folders end with '/'), sorted. Paths start at the workspace root '/'.",
    schema: z.object({ path: z.string().default("/").describe("Folder to list, e.g. / or /src") }),
    kind: "read",
    run: (args) =>
      guard(async () => {
        const r = await backend.ls(args.path);
        return listed(r, `${args.path} is empty.`, false, (files) => ({
          more: `(${files - maxListed} more entries not shown; use glob to narrow.)`,
          hint: "Use glob to narrow.",
        }));
      }),
  });

  const readFile = defineTool({
    name: "read_file",
    description:
      "Read a text file as numbered lines (`cat -n` style, from line offset+1); long lines are split as N.1, N.2. Page through large files with offset/limit. Binary files are refused.",
    schema: z.object({
      file_path: z.string().describe("File to read, e.g. /src/index.ts"),
      offset: z.number().int().min(0).optional().describe("Lines to skip (default 0)"),
      limit: z.number().int().min(1).optional().describe("Most lines to return (default 2000)"),
    }),
    kind: "read",
    run: (args) =>
      guard(async () => {
        let r = await backend.read(args.file_path, args.offset, args.limit);
        let resolved = "";
        if (r.error !== undefined && isFileNotFound(r.error)) {
          // A unique near miss is read as meant (said first), unless it is a secret file, which the person is asked about by name.
          const near = await nearMissPath(backend, args.file_path);
          if (!near || !("path" in near) || options.isSecret?.(near.path))
            return err(r.error + nearMissHint(near, "read_file"));
          r = await backend.read(near.path, args.offset, args.limit);
          resolved = `(${args.file_path} does not exist; this is ${near.path}.)\n`;
        }
        if (r.error !== undefined) return err(r.error);
        const next = (args.offset ?? 0) + (args.limit ?? 2000);
        return {
          content:
            resolved +
            capOutput(
              r.content ?? "",
              maxChars,
              `Read fewer lines with a smaller limit, or continue with a larger offset (e.g. offset=${next}).`,
            ),
        };
      }),
  });

  const writeSchema = z.object({
    file_path: z.string().describe("File to create or replace, e.g. /src/new.ts"),
    content: z.string().describe("The whole new content of the file"),
  });
  const writeFile: Tool<typeof writeSchema> = defineTool({
    name: "write_file",
    description:
      "Create a file (and its parent folders) with the given content. Overwrite one only after read_file, if unchanged since; prefer edit_file for changes.",
    schema: writeSchema,
    kind: "edit",
    proposeChange: async (args) => {
      try {
        const p = await backend.prepareWrite(args.file_path, args.content);
        return "error" in p ? p : { path: p.path, before: p.before, after: p.after };
      } catch (e) {
        return { error: `The change could not be prepared: ${String(e)}` };
      }
    },
    applyChange: (proposal) =>
      applyProposal(backend, proposal, (p) => (proposal.before === null ? `Created ${p}.` : `Wrote ${p}.`)),
    run: (args, ctx) =>
      guard(async () => {
        const p = await writeFile.proposeChange?.(args, ctx);
        if (!p) return err("write_file is unavailable.");
        if ("error" in p) return err(p.error);
        return (await writeFile.applyChange?.(p, ctx)) ?? err("write_file is unavailable.");
      }),
  });

  const editSchema = z.object({
    file_path: z.string().describe("File to edit"),
    old_string: z.string().describe("Exact text to replace (copied from read_file output, without line numbers)"),
    new_string: z.string().describe("Replacement text"),
    replace_all: z.boolean().default(false).describe("Replace every non-overlapping occurrence (default false)"),
  });
  const editFile: Tool<typeof editSchema> = defineTool({
    name: "edit_file",
    description:
      "Replace exact text in a file; old_string must occur exactly once unless replace_all. Line endings, BOM and final newline are kept. Fails if the file changed since you read it.",
    schema: editSchema,
    kind: "edit",
    proposeChange: async (args) => {
      try {
        const p = await backend.prepareEdit(args.file_path, args.old_string, args.new_string, args.replace_all);
        if ("error" in p && isFileNotFound(p.error))
          return { error: p.error + nearMissHint(await nearMissPath(backend, args.file_path), "edit_file") };
        return "error" in p ? p : { path: p.path, before: p.before, after: p.after };
      } catch (e) {
        return { error: `The change could not be prepared: ${String(e)}` };
      }
    },
    applyChange: (proposal) => applyProposal(backend, proposal, (p) => `Edited ${p}.`),
    run: (args) =>
      guard(async () => {
        const p = await backend.prepareEdit(args.file_path, args.old_string, args.new_string, args.replace_all);
        if ("error" in p)
          return err(
            isFileNotFound(p.error)
              ? p.error + nearMissHint(await nearMissPath(backend, args.file_path), "edit_file")
              : p.error,
          );
        const r = await applyProposal(
          backend,
          p,
          (path) => `Edited ${path}: replaced ${p.occurrences ?? 1} occurrence${p.occurrences === 1 ? "" : "s"}.`,
        );
        if (!r.isError) r.details = { ...r.details, occurrences: p.occurrences };
        return r;
      }),
  });

  const glob = defineTool({
    name: "glob",
    description:
      "Find files by glob pattern (minimatch: '*.ts' is one level, '**/*.ts' recursive, braces allowed) under a folder. Returns matching file paths, sorted, capped; skips .git and ignored files.",
    schema: z.object({
      pattern: z.string().describe("Glob such as **/*.test.ts"),
      path: z.string().default("/").describe("Folder to search from (default /)"),
    }),
    kind: "read",
    run: (args) =>
      guard(async () => {
        const r = await backend.glob(args.pattern, args.path);
        return listed(r, `No files match ${args.pattern} under ${args.path}.`, r.truncated === true, () => ({
          more: `(Results truncated; narrow the pattern or path.)`,
          hint: "Narrow the pattern or path.",
        }));
      }),
  });

  const grep = defineTool({
    name: "grep",
    description:
      "Search file contents for literal text (not a regex), skipping .git, ignored and binary files. output_mode: files_with_matches (default; paths), content (path:line:text) or count (path:count). Results are sorted and capped.",
    schema: z.object({
      pattern: z.string().describe("Literal text to find (one line)"),
      path: z.string().optional().describe("Folder or single file to search (default /)"),
      glob: z.string().optional().describe("Only files matching this glob, e.g. *.ts or docs/*.md"),
      output_mode: z.enum(["files_with_matches", "content", "count"]).default("files_with_matches"),
    }),
    kind: "read",
    run: (args, ctx) =>
      guard(async () => {
        const mode: GrepOutputMode = args.output_mode;
        const cap = mode === "content" ? maxMatches : maxListed;
        const r = await backend.grep(args.pattern, args.path, args.glob, {
          outputMode: mode,
          maxResults: cap,
          signal: ctx.signal,
        });
        if (r.error !== undefined) return err(r.error);
        const all = r.matches ?? [];
        const ms = options.isSecret ? all.filter((m) => !options.isSecret!(m.path)) : all;
        const hidden = new Set(all.filter((m) => !ms.includes(m)).map((m) => m.path));
        const note =
          hidden.size > 0
            ? `(${hidden.size} secret file${hidden.size === 1 ? "" : "s"} such as ${[...hidden][0]} left out; read_file one to ask the person.)`
            : "";
        if (ms.length === 0) return { content: `No matches for "${args.pattern}".${note ? ` ${note}` : ""}` };
        let lines: string[];
        if (mode === "content") lines = ms.map((m) => `${m.path}:${m.line}:${m.text}`);
        else if (mode === "count") lines = ms.map((m) => `${m.path}:${r.counts?.[m.path] ?? 1}`);
        else lines = ms.map((m) => m.path);
        if (r.truncated) lines.push(`(Results truncated at ${cap}; narrow with path or glob.)`);
        if (note) lines.push(note);
        return {
          content: capOutput(lines.join("\n"), maxChars, "Narrow with path or glob."),
          details: { count: ms.length, truncated: r.truncated ?? false },
        };
      }),
  });

  return [ls, readFile, writeFile, editFile, glob, grep] as unknown as Tool[];
}

async function applyProposal(
  backend: BackendProtocol,
  proposal: FileChangeProposal,
  ok: (path: string) => string,
): Promise<ToolResult> {
  return guard(async () => {
    const w = await backend.commitChange(proposal.path, proposal.before, proposal.after);
    if (w.error !== undefined) return err(w.error);
    return { content: ok(w.path ?? proposal.path), details: { path: w.path ?? proposal.path } };
  });
}
