import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { MAX_ATTACHMENTS, MAX_ATTACHMENT_CHARS, type Attachment } from "../../core/attachments";

/**
 * A `session/prompt`'s content as a Fathom message: text as the message; a resource link to a
 * file in the workspace as a file attachment (read through the backend, so the path guard and
 * secret-file rules apply); an embedded resource (an editor's unsaved buffer, a selection) as
 * its text under its name; anything else (images, audio, links outside the workspace) named.
 */
export function acpPromptInput(root: string, blocks: readonly ContentBlock[]) {
  const text: string[] = [];
  const context: string[] = [];
  const attachments: Attachment[] = [];
  for (const block of blocks) {
    if (block.type === "text") text.push(block.text);
    else if (block.type === "resource_link") {
      const virtual = workspacePath(root, block.uri);
      if (virtual && attachments.length < MAX_ATTACHMENTS) attachments.push({ kind: "file", path: virtual });
      else context.push(`(Linked: ${block.uri})`);
    } else if (block.type === "resource") {
      const r = block.resource;
      if ("text" in r) {
        const body =
          r.text.length > MAX_ATTACHMENT_CHARS ? `${r.text.slice(0, MAX_ATTACHMENT_CHARS)}\n… (cut)` : r.text;
        const name = workspacePath(root, r.uri) ?? r.uri;
        context.push(`<context name="${name}">\n${body}\n</context>`);
      } else context.push(`(Attached binary resource ${r.uri}: not read.)`);
    } else context.push(`(An ${block.type} was attached; Fathom reads text only.)`);
  }
  return { input: [...text, ...context].join("\n\n").trim(), attachments };
}

/** `file:///root/src/a.ts` (or an absolute path) as `/src/a.ts`; undefined outside the workspace. */
function workspacePath(root: string, uri: string): string | undefined {
  let file: string;
  try {
    file = uri.startsWith("file:") ? fileURLToPath(uri) : uri;
  } catch {
    return undefined;
  }
  if (!path.isAbsolute(file)) return undefined;
  const relative = path.relative(root, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  return `/${relative.split(path.sep).join("/")}`;
}
