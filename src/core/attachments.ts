/**
 * Context a person attaches to a message from where they work (the editor's selection, a file
 * in the explorer, a terminal's last command, the Problems list, a diagnostic's quick fix).
 * Files and ranges are only named here: their text is read through the backend when the model
 * first sees the message, so the path guard, ignore rules and secret-file rules apply as to any
 * read. Terminal output and problems are text the host captured (capped before it came here).
 */
export type Attachment =
  /** A workspace file or folder (virtual path); with lines, only that range (1-based, inclusive). */
  | { kind: "file"; path: string; startLine?: number; endLine?: number }
  /** A terminal's last command: its command line, exit code and output as the host read them. */
  | { kind: "terminal"; label: string; text: string }
  /** Diagnostics (the Problems list, or the ones a quick fix was asked for). */
  | { kind: "problems"; label: string; text: string };

/** Most attachments one message carries. */
export const MAX_ATTACHMENTS = 20;
/** Most characters of one attachment's text (a range, a file, a terminal's output, problems). */
export const MAX_ATTACHMENT_CHARS = 20_000;
/** Most lines of a file range attached (a bigger range is cut, and the cut said). */
export const MAX_ATTACHED_LINES = 2_000;

export { attachmentLabel } from "../protocol/attachments";

/** What makes two attachments the same (the same range is attached once). */
export function attachmentKey(a: Attachment): string {
  return a.kind === "file"
    ? `file:${a.path}:${a.startLine ?? ""}-${a.endLine ?? ""}`
    : `${a.kind}:${a.label}:${a.text.length}:${a.text.slice(-200)}`;
}

/** Keeps the first of each attachment, at most MAX_ATTACHMENTS. */
export function uniqueAttachments(list: readonly Attachment[]): Attachment[] {
  const seen = new Set<string>();
  const out: Attachment[] = [];
  for (const a of list) {
    const key = attachmentKey(a);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
    if (out.length === MAX_ATTACHMENTS) break;
  }
  return out;
}

/**
 * Parses `path[:start[-end]]` (the CLI's `--file`). Lines are 1-based; `error` says what is wrong.
 * A Windows drive letter or a colon inside the name stays part of the path unless digits follow.
 */
export function parseFileRange(spec: string): Attachment | { error: string } {
  const m = /^(.*?):(\d+)(?:-(\d+))?$/.exec(spec);
  const path = (m ? m[1]! : spec).trim();
  if (!path) return { error: `--file needs a path (got "${spec}")` };
  const virtual = path.startsWith("/") ? path : `/${path.replace(/^\.\//, "")}`;
  if (!m) return { kind: "file", path: virtual };
  const start = Number(m[2]);
  const end = m[3] !== undefined ? Number(m[3]) : start;
  if (start < 1 || end < start)
    return { error: `--file ${spec}: lines are 1-based and the end may not come before the start (PATH:START-END)` };
  return { kind: "file", path: virtual, startLine: start, endLine: end };
}

/** Cuts text to MAX_ATTACHMENT_CHARS, keeping its end (a command's error is at the end), and says so. */
export function capTail(text: string, max = MAX_ATTACHMENT_CHARS): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const kept = text.slice(text.length - max);
  const firstLine = kept.indexOf("\n");
  return { text: firstLine >= 0 && firstLine < 200 ? kept.slice(firstLine + 1) : kept, cut: true };
}
