import { createHash } from "node:crypto";

/**
 * The lines an inline edit replaces, counted as VS Code counts them: 1-based, a line break
 * ends a line, and a text that ends with a line break has an empty last line after it. An
 * inline edit always replaces whole lines (a selection that starts or ends inside a line takes
 * that whole line), so the model never has to continue half a line.
 */

const BOM = "\uFEFF";

/** Where one line starts, where its text ends, and where the next line starts. */
interface LineSpan {
  start: number;
  end: number;
  next: number;
}

export interface SelectedLines {
  /** The lines before the selection, the selected ones and those after it, without line endings (a BOM left out). */
  before: string[];
  selected: string[];
  after: string[];
  /** The line ending a replacement gets: the selection's own, else the file's first, else `\n`. */
  eol: "\n" | "\r\n";
  /** Whether the selection's last line ends with a line break (false: it is the file's last line). */
  endsWithEol: boolean;
}

function lineSpans(text: string): LineSpan[] {
  const spans: LineSpan[] = [];
  let start = text.startsWith(BOM) ? 1 : 0;
  for (const m of text.matchAll(/\r\n|\n|\r/g)) {
    spans.push({ start, end: m.index, next: m.index + m[0].length });
    start = m.index + m[0].length;
  }
  spans.push({ start, end: text.length, next: text.length });
  return spans;
}

/** How many lines the text has (VS Code's count). */
export function lineCount(text: string): number {
  return lineSpans(text).length;
}

/** The file split around lines `startLine`–`endLine`, or why that range is not in it. */
export function selectLines(text: string, startLine: number, endLine: number): SelectedLines | { error: string } {
  const spans = lineSpans(text);
  if (!Number.isInteger(startLine) || !Number.isInteger(endLine) || startLine < 1 || endLine < startLine) {
    return {
      error: `Lines ${startLine}–${endLine} are not a range of lines (they are counted from 1, the end not before the start).`,
    };
  }
  if (endLine > spans.length)
    return {
      error: `The file has ${spans.length} line${spans.length === 1 ? "" : "s"} now, so lines ${startLine}–${endLine} are not in it.`,
    };
  const lines = spans.map((s) => text.slice(s.start, s.end));
  const last = spans[endLine - 1]!;
  const ownEol = text.slice(spans[startLine - 1]!.end, spans[startLine - 1]!.next);
  const firstEol = /\r\n|\n/.exec(text)?.[0];
  return {
    before: lines.slice(0, startLine - 1),
    selected: lines.slice(startLine - 1, endLine),
    after: lines.slice(endLine),
    eol: ownEol === "\r\n" || (ownEol !== "\n" && firstEol === "\r\n") ? "\r\n" : "\n",
    endsWithEol: last.next > last.end,
  };
}

/** The text with lines `startLine`–`endLine` (their line breaks included) replaced by `replacement`. */
export function replaceLines(text: string, startLine: number, endLine: number, replacement: string): string {
  const spans = lineSpans(text);
  const from = spans[startLine - 1]!.start;
  const to = spans[endLine - 1]!.next;
  return text.slice(0, from) + replacement + text.slice(to);
}

/** A short fingerprint of the text the model was shown: its edit applies only to that same text. */
export function textVersion(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/** Lines `startLine`–`endLine` as the person sees them named: "line 4", "lines 4–9". */
export function linesLabel(startLine: number, endLine: number): string {
  return startLine === endLine ? `line ${startLine}` : `lines ${startLine}–${endLine}`;
}
