/**
 * String replacement that keeps a file's BOM, line endings and final newline, and matches
 * `old_string` whichever line endings the model wrote it with.
 */

export type Eol = "\n" | "\r\n";

/** The dominant line ending of the text (judged on its first megabyte, which is plenty). */
export function detectEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  const end = Math.min(text.length, 1 << 20);
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

/** Rewrites every line break of `s` (LF or CRLF) as `eol`. */
export function toEol(s: string, eol: Eol): string {
  return eol === "\n" ? s.replace(/\r\n/g, "\n") : s.replace(/\r?\n/g, "\r\n");
}

/** Non-overlapping occurrences of `needle` in `hay`, left to right. */
export function countOccurrences(hay: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

export interface EditOutcome {
  after?: string;
  occurrences?: number;
  error?: string;
}

/**
 * Applies an edit to a whole file's text (as decoded from disk, BOM included).
 * `displayPath` is used in messages.
 */
export function applyTextEdit(
  original: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  displayPath: string,
): EditOutcome {
  if (oldString === "") {
    return { error: "old_string is empty. Give the exact text to replace, or use write_file to create a new file." };
  }
  if (oldString === newString) return { error: "old_string and new_string are identical; nothing to change." };
  const bom = original.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom ? original.slice(1) : original;
  const eol = detectEol(body);
  let needle = oldString.startsWith("\uFEFF") ? oldString.slice(1) : oldString;
  // replace_all: one native split both counts the occurrences (non-overlapping, left to right,
  // like the indexOf loop) and gives the pieces to join, instead of a count pass, a slice loop
  // and a join (profiled: most of a 50 MB replace_all).
  let parts = replaceAll && needle !== "" ? body.split(needle) : null;
  let count = parts ? parts.length - 1 : countOccurrences(body, needle);
  if (count === 0 && /\r?\n/.test(needle)) {
    const alt = toEol(needle, eol);
    if (alt !== needle) {
      const altParts = replaceAll ? body.split(alt) : null;
      const altCount = altParts ? altParts.length - 1 : countOccurrences(body, alt);
      if (altCount > 0) {
        needle = alt;
        count = altCount;
        parts = altParts;
      }
    }
  }
  if (count === 0) return { error: notFoundMessage(body, oldString, displayPath) };
  if (count > 1 && !replaceAll) {
    return {
      error: `old_string appears ${count} times in ${displayPath}. Add surrounding lines to make it unique, or set replace_all=true to replace all ${count}.`,
    };
  }
  const replacement = /\n/.test(newString) ? toEol(newString, eol) : newString;
  let next: string;
  if (parts) {
    next = parts.join(replacement);
  } else {
    const at = body.indexOf(needle);
    next = body.slice(0, at) + replacement + body.slice(at + needle.length);
  }
  next = keepFinalNewline(body, next, eol);
  return { after: bom + next, occurrences: replaceAll ? count : 1 };
}

function keepFinalNewline(before: string, after: string, eol: Eol): string {
  if (before === "" || after === "") return after;
  const had = before.endsWith("\n");
  const has = after.endsWith("\n");
  if (had && !has) return after + eol;
  if (!had && has) return after.endsWith("\r\n") ? after.slice(0, -2) : after.slice(0, -1);
  return after;
}

/** A 0-match message that helps the model: whitespace hints and the closest lines. */
function notFoundMessage(body: string, oldString: string, displayPath: string): string {
  let msg = `old_string was not found in ${displayPath}.`;
  const squash = (s: string): string => s.replace(/\s+/g, " ").trim();
  const firstLine =
    oldString
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "";
  if (body.length <= 2_000_000 && squash(body).includes(squash(oldString))) {
    msg +=
      " The text exists with different whitespace or indentation; copy it exactly from read_file output (without the line-number prefix).";
  }
  const close = body.length <= 5_000_000 ? closestLines(body, firstLine) : [];
  if (close.length) {
    msg += " Closest lines:\n" + close.map(({ n, text }) => `${String(n).padStart(6)}\t${text}`).join("\n");
  }
  return msg + "\nRead the file again and retry with text copied exactly.";
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function similarity(a: Map<string, number>, aLen: number, b: string): number {
  if (aLen < 1 || b.length < 2) return 0;
  const bm = bigrams(b);
  let common = 0;
  for (const [g, n] of bm) common += Math.min(n, a.get(g) ?? 0);
  return (2 * common) / (aLen + b.length - 1);
}

function closestLines(body: string, target: string): { n: number; text: string }[] {
  if (target.length < 3) return [];
  const tg = bigrams(target);
  const tLen = target.length - 1;
  const scored: { n: number; text: string; score: number }[] = [];
  const lines = body.split("\n");
  const max = Math.min(lines.length, 50_000);
  for (let i = 0; i < max; i++) {
    const raw = (lines[i] as string).replace(/\r$/, "");
    const t = raw.trim();
    if (Math.abs(t.length - target.length) > Math.max(20, target.length)) continue;
    const score = similarity(tg, tLen, t);
    if (score >= 0.5) scored.push({ n: i + 1, text: raw.length > 200 ? raw.slice(0, 200) + "…" : raw, score });
  }
  scored.sort((a, b) => b.score - a.score || a.n - b.n);
  return scored.slice(0, 3).map(({ n, text }) => ({ n, text }));
}
