import type { BackendProtocol } from "../backends/protocol";
import type { Middleware } from "./types";

/** `@/src/app.ts` in a person's message: a workspace path they point the agent at. */
const MENTION = /(?:^|\s)@(\/[^\s"'`<>|]+)/g;
/** `@mcp:server:uri`: a resource of an MCP server. */
const RESOURCE_MENTION = /(?:^|\s)@mcp:([A-Za-z0-9_.-]+):([^\s"'`<>]+)/g;

/** Reads an MCP resource as text; throws with a reason the model can read. */
export type McpResourceReader = (server: string, uri: string, signal?: AbortSignal) => Promise<string>;
const MAX_MENTIONS = 10;
const MAX_TOTAL_CHARS = 60_000;
const EXPANDED_MARK = "\n\n<mentioned_files>";

/**
 * Resolves `@` mentions: before the model first sees a person's message, the files it
 * mentions are read through the backend (so the usual path rules and `.fathomignore` apply,
 * and the file counts as read for the stale-write guard) and attached to the message.
 * A folder gets its listing; a path that cannot be read gets the backend's reason.
 */
export function mentionsMiddleware(backend: BackendProtocol, readResource?: McpResourceReader): Middleware {
  return {
    name: "mentions",
    async beforeModel(ctx) {
      const messages = ctx.state.messages;
      const last = messages.at(-1);
      if (last?.role !== "user" || last.content.includes(EXPANDED_MARK)) return;
      const paths = [...new Set([...last.content.matchAll(MENTION)].map((m) => m[1]!.replace(/[.,;:!?)]+$/, "")))];
      const resources = readResource ? [...new Map([...last.content.matchAll(RESOURCE_MENTION)].map((m) => [`${m[1]}:${m[2]}`, { server: m[1]!, uri: m[2]!.replace(/[.,;!?)]+$/, "") }])).values()] : [];
      if (paths.length === 0 && resources.length === 0) return;
      const blocks: string[] = [];
      let budget = MAX_TOTAL_CHARS;
      for (const path of paths.slice(0, MAX_MENTIONS)) {
        const body = await describePath(backend, path, budget);
        budget -= body.length;
        blocks.push(`<file path="${path}">\n${body}\n</file>`);
      }
      if (paths.length > MAX_MENTIONS) blocks.push(`(${paths.length - MAX_MENTIONS} more mentions not attached; read them with read_file.)`);
      for (const { server, uri } of resources.slice(0, MAX_MENTIONS)) {
        const body = await describeResource(readResource!, server, uri, budget, ctx.signal);
        budget -= body.length;
        blocks.push(`<resource server="${server}" uri="${uri}">\n${body}\n</resource>`);
      }
      messages[messages.length - 1] = { role: "user", content: `${last.content}${EXPANDED_MARK}\n${blocks.join("\n")}\n</mentioned_files>` };
    },
  };
}

async function describePath(backend: BackendProtocol, path: string, budget: number): Promise<string> {
  if (budget <= 0) return "(not attached: the mentioned files are already long; read it with read_file)";
  const read = await backend.read(path);
  if (read.content !== undefined) {
    return read.content.length <= budget
      ? read.content
      : `${read.content.slice(0, budget)}\n(cut here; read the rest with read_file and an offset)`;
  }
  const listing = await backend.ls(path);
  if (listing.files) {
    const names = listing.files.map((f) => f.path).join("\n");
    return names.length <= budget ? names || "(empty folder)" : `${names.slice(0, budget)}\n(cut)`;
  }
  return `(could not attach: ${read.error ?? listing.error ?? "unknown error"})`;
}

async function describeResource(read: McpResourceReader, server: string, uri: string, budget: number, signal?: AbortSignal): Promise<string> {
  if (budget <= 0) return "(not attached: the mentioned files are already long)";
  try {
    const text = await read(server, uri, signal);
    return text.length <= budget ? text || "(empty)" : `${text.slice(0, budget)}\n(cut here: the resource is longer)`;
  } catch (error) {
    return `(could not attach: ${(error as Error).message})`;
  }
}
