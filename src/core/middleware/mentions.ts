import { MAX_ATTACHED_LINES, MAX_ATTACHMENT_CHARS, type Attachment } from "../attachments";
import type { BackendProtocol } from "../backends/protocol";
import { normalizeVirtualPath } from "../backends/pathGuard";
import type { SecretFileMatcher } from "../trust/secretFiles";
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
 * Resolves `@` mentions and attachments (chips): before the model first sees a person's
 * message, the files it mentions or attaches are read through the backend (so the usual path
 * rules and `.fathomignore` apply, and the file counts as read for the stale-write guard) and
 * attached to the message. A folder gets its listing; a path that cannot be read gets the
 * backend's reason; a secret file is not attached (reading it with read_file asks the person).
 */
export function mentionsMiddleware(
  backend: BackendProtocol,
  readResource?: McpResourceReader,
  isSecret?: SecretFileMatcher,
): Middleware {
  return {
    name: "mentions",
    async beforeModel(ctx) {
      const messages = ctx.state.messages;
      const last = messages.at(-1);
      if (last?.role !== "user" || last.content.includes(EXPANDED_MARK)) return;
      const attachments = last.attachments ?? [];
      const paths = [...new Set([...last.content.matchAll(MENTION)].map((m) => m[1]!.replace(/[.,;:!?)]+$/, "")))];
      const resources = readResource
        ? [
            ...new Map(
              [...last.content.matchAll(RESOURCE_MENTION)].map((m) => [
                `${m[1]}:${m[2]}`,
                { server: m[1]!, uri: m[2]!.replace(/[.,;!?)]+$/, "") },
              ]),
            ).values(),
          ]
        : [];
      if (paths.length === 0 && resources.length === 0 && attachments.length === 0) return;
      const blocks: string[] = [];
      let budget = MAX_TOTAL_CHARS;
      for (const attachment of attachments) {
        const block = await describeAttachment(backend, attachment, budget, isSecret);
        budget -= block.length;
        blocks.push(block);
      }
      for (const path of paths.slice(0, MAX_MENTIONS)) {
        const secret = secretMatch(path, isSecret);
        const body = secret ? secretNote(path, secret) : await describePath(backend, path, budget);
        budget -= body.length;
        blocks.push(`<file path="${path}">\n${body}\n</file>`);
      }
      if (paths.length > MAX_MENTIONS)
        blocks.push(`(${paths.length - MAX_MENTIONS} more mentions not attached; read them with read_file.)`);
      for (const { server, uri } of resources.slice(0, MAX_MENTIONS)) {
        const body = await describeResource(readResource!, server, uri, budget, ctx.signal);
        budget -= body.length;
        blocks.push(`<resource server="${server}" uri="${uri}">\n${body}\n</resource>`);
      }
      messages[messages.length - 1] = {
        ...last,
        content: `${last.content}${EXPANDED_MARK}\n${blocks.join("\n")}\n</mentioned_files>`,
      };
    },
  };
}

function secretMatch(path: string, isSecret: SecretFileMatcher | undefined): string | undefined {
  const normal = normalizeVirtualPath(path);
  return typeof normal === "string" ? isSecret?.(normal) : undefined;
}

function secretNote(path: string, pattern: string): string {
  return `(not attached: ${path} may hold secrets (it matches ${pattern}). Read it with read_file only if the task needs it: the person is asked first.)`;
}

const escapeAttr = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** One attachment as the block the model reads. */
async function describeAttachment(
  backend: BackendProtocol,
  a: Attachment,
  budget: number,
  isSecret: SecretFileMatcher | undefined,
): Promise<string> {
  if (a.kind === "terminal" || a.kind === "problems") {
    const tag = a.kind === "terminal" ? "terminal_output" : "problems";
    const text =
      a.text.length > Math.min(MAX_ATTACHMENT_CHARS, Math.max(0, budget))
        ? `${a.text.slice(0, Math.max(0, Math.min(MAX_ATTACHMENT_CHARS, budget)))}\n(cut here: the message's attachments are already long)`
        : a.text;
    return `<${tag} label="${escapeAttr(a.label)}">\n${text}\n</${tag}>`;
  }
  const lines = a.startLine !== undefined ? ` lines="${a.startLine}-${a.endLine ?? a.startLine}"` : "";
  const open = `<file path="${escapeAttr(a.path)}"${lines}>`;
  const secret = secretMatch(a.path, isSecret);
  if (secret) return `${open}\n${secretNote(a.path, secret)}\n</file>`;
  if (a.startLine === undefined)
    return `${open}\n${await describePath(backend, a.path, Math.min(budget, MAX_ATTACHMENT_CHARS))}\n</file>`;
  if (budget <= 0)
    return `${open}\n(not attached: the message's attachments are already long; read it with read_file)\n</file>`;
  const start = Math.max(1, a.startLine);
  const wanted = Math.max(1, (a.endLine ?? start) - start + 1);
  const count = Math.min(wanted, MAX_ATTACHED_LINES);
  const read = await backend.read(a.path, start - 1, count);
  if (read.content === undefined) return `${open}\n(could not attach: ${read.error ?? "unknown error"})\n</file>`;
  const max = Math.min(budget, MAX_ATTACHMENT_CHARS);
  let body =
    read.content.length <= max
      ? read.content
      : `${read.content.slice(0, max)}\n(cut here; read the rest with read_file and an offset)`;
  if (count < wanted && read.content.length <= max)
    body += `\n(the range has ${wanted} lines; the first ${count} are attached. Read the rest with read_file, offset=${start - 1 + count})`;
  return `${open}\n${body}\n</file>`;
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

async function describeResource(
  read: McpResourceReader,
  server: string,
  uri: string,
  budget: number,
  signal?: AbortSignal,
): Promise<string> {
  if (budget <= 0) return "(not attached: the mentioned files are already long)";
  try {
    const text = await read(server, uri, signal);
    return text.length <= budget ? text || "(empty)" : `${text.slice(0, budget)}\n(cut here: the resource is longer)`;
  } catch (error) {
    return `(could not attach: ${(error as Error).message})`;
  }
}
