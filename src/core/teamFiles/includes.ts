import * as posix from "node:path/posix";
import { normalizeVirtualPath } from "../backends/pathGuard";

/** Claude Code's limit on nested imports. */
export const MAX_INCLUDE_DEPTH = 5;
const MAX_INCLUDES_PER_FILE = 20;
/** All included text of one file together. */
export const MAX_INCLUDED_CHARS = 40_000;

/** `@path/to/file` at the start of a line or after a space, outside code: an import (Claude's CLAUDE.md and commands). */
const IMPORT = /(^|[ \t])@((?:(?:\.{1,2}\/)+|\/)?[\w.][\w.-]*(?:\/[\w.-]+)*\.[A-Za-z0-9]+)(?=$|[\s),;:!?])/gm;

export type ReadInclude = (virtualPath: string) => Promise<{ text: string } | { error: string }>;

/**
 * Replaces `@path` imports with the files' text, read through `read` (the backend, so the path
 * guard applies: nothing outside the workspace is reached). Paths are relative to the including
 * file (`from`: CLAUDE.md's imports), or to the workspace root (`fromRoot`: a command's file
 * references, as Claude Code reads them); a file that includes itself, directly or by a loop, is not included again, and
 * depth, count and size are capped. Each refusal is left in the text as a note the model reads.
 */
export async function expandIncludes(
  text: string,
  from: string,
  read: ReadInclude,
  options: { budget?: number; stack?: readonly string[]; fromRoot?: boolean } = {},
): Promise<{ text: string; notes: string[] }> {
  const stack = options.stack ?? [from];
  const notes: string[] = [];
  let budget = options.budget ?? MAX_INCLUDED_CHARS;
  const parts = splitCode(text);
  let count = 0;
  let out = "";
  for (const part of parts) {
    if (part.code) {
      out += part.text;
      continue;
    }
    const matches = [...part.text.matchAll(IMPORT)];
    let last = 0;
    for (const m of matches) {
      const start = m.index + m[1]!.length;
      out += part.text.slice(last, start);
      last = start + 1 + m[2]!.length;
      const raw = m[2]!;
      const base = options.fromRoot ? "/" : posix.dirname(from);
      const target = raw.startsWith("/") ? normalizeVirtualPath(raw) : normalizeVirtualPath(posix.join(base, raw));
      if (typeof target !== "string") {
        out += `@${raw} [not included: ${target.error.split(". ")[0]}]`;
        continue;
      }
      if (stack.includes(target)) {
        notes.push(`${from} includes ${target}, which includes it again: not included a second time`);
        out += `@${raw} [not included: it would include itself]`;
        continue;
      }
      if (stack.length > MAX_INCLUDE_DEPTH) {
        out += `@${raw} [not included: imports nest at most ${MAX_INCLUDE_DEPTH} deep]`;
        continue;
      }
      if (++count > MAX_INCLUDES_PER_FILE || budget <= 0) {
        out += `@${raw} [not included: too many or too long imports]`;
        continue;
      }
      const got = await read(target);
      if ("error" in got) {
        // Not a file (a handle, an e-mail, a decorator): left as it is.
        if (/not found/i.test(got.error)) out += `@${raw}`;
        else out += `@${raw} [not included: ${got.error}]`;
        continue;
      }
      const inner = await expandIncludes(got.text, target, read, {
        budget,
        stack: [...stack, target],
        ...(options.fromRoot ? { fromRoot: true } : {}),
      });
      notes.push(...inner.notes);
      const body =
        inner.text.length > budget
          ? `${inner.text.slice(0, budget)}\n[... ${target} cut here: imports are capped at ${MAX_INCLUDED_CHARS.toLocaleString("en-US")} characters ...]`
          : inner.text;
      budget -= body.length;
      out += `\n<included path="${target}">\n${body.trim()}\n</included>\n`;
    }
    out += part.text.slice(last);
  }
  return { text: out, notes };
}

/** The text in runs of code (fences and inline code spans, where `@x` is not an import) and the rest. */
function splitCode(text: string): { text: string; code: boolean }[] {
  const parts: { text: string; code: boolean }[] = [];
  const pattern = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), code: false });
    parts.push({ text: m[0], code: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), code: false });
  return parts;
}
