import * as path from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { FileChangeProposal } from "../../core/tools/tool";

/**
 * How Fathom's tool calls look to an ACP client: the kind it files them under, a title a
 * person reads, the files they touch (absolute paths, as ACP wants them) and an edit's diff.
 */

const KINDS: Record<string, ToolKind> = {
  read_file: "read",
  ls: "read",
  load_skill: "read",
  glob: "search",
  grep: "search",
  find_tools: "search",
  write_file: "edit",
  edit_file: "edit",
  execute: "execute",
  run_tests: "execute",
  command_output: "execute",
  stop_command: "execute",
  web_fetch: "fetch",
  write_todos: "think",
  ask_user: "other",
  task: "other",
};

export function acpToolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? "other";
}

/** A workspace path the model gave (`/src/a.ts`, or a relative one) as an absolute path under `root`. */
export function absolutePath(root: string, virtual: string): string {
  return path.join(root, virtual.replace(/^\/+/, ""));
}

function argString(args: unknown, key: string): string | undefined {
  if (!args || typeof args !== "object") return undefined;
  const value = (args as Record<string, unknown>)[key];
  return typeof value === "string" ? value : undefined;
}

/** The file or folder a call is about, as the model named it. */
function targetOf(args: unknown): string | undefined {
  return argString(args, "file_path") ?? argString(args, "path");
}

export function acpToolTitle(toolName: string, args: unknown): string {
  const command = argString(args, "command");
  if (command && acpToolKind(toolName) === "execute") return `Run \`${command}\``;
  const target = targetOf(args);
  const pattern = argString(args, "pattern");
  const url = argString(args, "url");
  const detail = target ?? pattern ?? url;
  return detail ? `${toolName} ${detail}` : toolName;
}

export function acpLocations(root: string, args: unknown): ToolCallLocation[] {
  const target = targetOf(args);
  return target ? [{ path: absolutePath(root, target) }] : [];
}

/** An edit's change as ACP's diff content (`oldText` absent for a new file). */
export function acpDiff(root: string, proposal: FileChangeProposal): ToolCallContent {
  return {
    type: "diff",
    path: absolutePath(root, proposal.path),
    ...(proposal.before !== null ? { oldText: proposal.before } : {}),
    newText: proposal.after,
  };
}

/** A tool's result text as content, cut to what a client's panel shows well. */
export function acpText(text: string, max = 8_000): ToolCallContent {
  const cut = text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
  return { type: "content", content: { type: "text", text: cut } };
}
