/**
 * The small-model profile: what a model with few parameters or a small context window can use.
 * A short system prompt, only the core tools (`ls`, `read_file`, `write_file`, `edit_file`,
 * `execute`, `find_tools` when MCP tools are on hand, which are then loaded only through it, and
 * in a review `report_finding`), each described in a few words with only its required arguments.
 * The first request of a "hello"
 * is a few hundred tokens instead of about two thousand, which on a CPU-bound local server is most
 * of the wait, and the prompt is the same from request to request (no per-request parts), so the
 * server's prompt cache holds. Chosen by model/fit/modelFit.ts, overridden by `profile` in
 * `fathom.modelOverrides` or `--profile`; the log says which profile a run uses and why.
 */
import type { ToolSpec } from "../model/types";

export const SMALL_PROFILE_TOOLS: readonly string[] = [
  "ls",
  "read_file",
  "write_file",
  "edit_file",
  "execute",
  "find_tools",
  // Only a review's run has it (core/review/): without it a small model could review but not report.
  "report_finding",
];

const SHORT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  ls: "List a folder.",
  read_file: "Read a file.",
  write_file: "Create a file with this content (or replace a file you have read).",
  edit_file: "Replace old_string with new_string in a file.",
  execute: "Run a shell command in the workspace.",
  find_tools: "Find and load more tools (from MCP servers) by words or server name.",
  report_finding: "Record one problem in the diff under review, on a line the diff numbers.",
};

/** Whether the tool is offered in the small-model profile (MCP tools load through find_tools). */
export function inSmallProfile(name: string): boolean {
  return SMALL_PROFILE_TOOLS.includes(name) || name.startsWith("mcp__");
}

/** A tool as the small profile shows it: a short description and only its required arguments. */
export function smallToolSpec(spec: ToolSpec): ToolSpec {
  const short = SHORT_DESCRIPTIONS[spec.name];
  if (!short) return spec;
  const props = (spec.parameters.properties as Record<string, Record<string, unknown>> | undefined) ?? {};
  const required = Array.isArray(spec.parameters.required) ? (spec.parameters.required as string[]) : [];
  // A tool whose only argument is optional (ls's path) keeps it.
  const kept = required.length ? required : Object.keys(props).slice(0, 1);
  const properties = Object.fromEntries(kept.filter((k) => props[k]).map((k) => [k, withoutDescription(props[k]!)]));
  return {
    name: spec.name,
    description: short,
    parameters: { type: "object", properties, required: kept, additionalProperties: false },
  };
}

function withoutDescription(schema: Record<string, unknown>): Record<string, unknown> {
  const { description: _description, default: _default, ...rest } = schema;
  return rest;
}

/** The small profile's system prompt: who it is, where paths start, how to work. */
export function smallSystemPrompt(opts: { extra?: string } = {}): string {
  const base =
    'You are Fathom, a coding agent working in the person\'s workspace. Paths start at "/", the workspace root (for example "/src/app.py"). Do what the person asks with the tools, one step at a time, then answer briefly.';
  return opts.extra?.trim() ? `${base}\n\n${opts.extra.trim()}` : base;
}
