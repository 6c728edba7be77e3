/** `cat -n` formatting shared by every backend's `read`. */

export const DEFAULT_READ_LIMIT = 2000;
/** Lines longer than this many characters are shown in parts `N.1`, `N.2`, ... */
export const MAX_LINE_CHARS = 5000;
export const EMPTY_FILE_REMINDER = "System reminder: the file exists but is empty.";

/** Formats lines numbered from `firstLineNo` (1-based) as `%6d\t<text>`. */
export function formatNumberedLines(lines: readonly string[], firstLineNo: number): string {
  const out: string[] = [];
  lines.forEach((line, i) => {
    const n = firstLineNo + i;
    if (line.length <= MAX_LINE_CHARS) {
      out.push(`${String(n).padStart(6)}\t${line}`);
      return;
    }
    let part = 1;
    let start = 0;
    while (start < line.length) {
      let end = Math.min(start + MAX_LINE_CHARS, line.length);
      // Do not cut a surrogate pair in half.
      const c = line.charCodeAt(end - 1);
      if (end < line.length && c >= 0xd800 && c <= 0xdbff) end--;
      out.push(`${`${n}.${part}`.padStart(6)}\t${line.slice(start, end)}`);
      start = end;
      part++;
    }
  });
  return out.join("\n");
}

/** Splits text into lines the way `read` counts them: a final newline does not start a new line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

export function checkWindowArgs(offset: unknown, limit: unknown): string | null {
  if (offset !== undefined && (!Number.isInteger(offset) || (offset as number) < 0)) {
    return "offset must be a whole number of lines, 0 or more.";
  }
  if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1)) {
    return "limit must be a whole number of lines, 1 or more.";
  }
  return null;
}

export function offsetPastEnd(offset: number, totalLines: number): string {
  return `offset ${offset} is past the end of the file, which has ${totalLines} line${totalLines === 1 ? "" : "s"}. Use an offset below ${totalLines}.`;
}

/** Formats an in-memory text file's window (used by StateBackend and for small files). */
export function formatTextWindow(
  text: string,
  offset = 0,
  limit = DEFAULT_READ_LIMIT,
): { content?: string; error?: string } {
  const bad = checkWindowArgs(offset, limit);
  if (bad) return { error: bad };
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = splitLines(body);
  if (lines.length === 0) {
    return offset === 0 ? { content: EMPTY_FILE_REMINDER } : { error: offsetPastEnd(offset, 0) };
  }
  if (offset >= lines.length) return { error: offsetPastEnd(offset, lines.length) };
  const slice = lines.slice(offset, offset + limit);
  let content = formatNumberedLines(slice, offset + 1);
  if (offset + limit < lines.length) {
    content += `\n\n(Showing lines ${offset + 1}-${offset + slice.length} of ${lines.length}. Use offset=${offset + slice.length} to read more.)`;
  }
  return { content };
}
