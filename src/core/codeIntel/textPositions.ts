import type { TextEdit } from "./codeIntelligence";

/**
 * Lines and columns of a file's text as an editor counts them: lines end at `\r\n`, `\n` or
 * `\r`; a column is a UTF-16 offset in its line, 1-based; a byte-order mark is not part of line 1.
 */
export class TextLines {
  /** Offset in `text` where each line starts. */
  private readonly starts: number[];
  private readonly bom: number;

  constructor(readonly text: string) {
    this.bom = text.startsWith("\uFEFF") ? 1 : 0;
    this.starts = [this.bom];
    for (let i = this.bom; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */ && text.charCodeAt(i + 1) === 10) i++;
      if (c === 10 || c === 13) this.starts.push(i + 1);
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Line `line` (1-based) without its line break; undefined past the end. */
  line(line: number): string | undefined {
    if (line < 1 || line > this.starts.length) return undefined;
    const start = this.starts[line - 1]!;
    const end = line < this.starts.length ? this.starts[line]! : this.text.length;
    return this.text.slice(start, end).replace(/\r?\n$|\r$/, "");
  }

  /** The offset of (line, column), or undefined when the position is not in the text. */
  offset(line: number, column: number): number | undefined {
    const text = this.line(line);
    if (text === undefined || column < 1 || column > text.length + 1) return undefined;
    return this.starts[line - 1]! + column - 1;
  }
}

/**
 * The text with the edits made (all computed against the same text, as a language server's
 * rename is); an error when one lies outside the text or two overlap (the file is not what
 * the server read).
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): { text: string } | { error: string } {
  const lines = new TextLines(text);
  const spans: { start: number; end: number; newText: string }[] = [];
  for (const e of edits) {
    const start = lines.offset(e.line, e.column);
    const end = lines.offset(e.endLine, e.endColumn);
    if (start === undefined || end === undefined || end < start)
      return { error: `an edit at line ${e.line}, column ${e.column} is not inside the file as it is now` };
    spans.push({ start, end, newText: e.newText });
  }
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.start < spans[i - 1]!.end) return { error: "two of the edits overlap" };
  }
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + s.newText;
    at = s.end;
  }
  return { text: out + text.slice(at) };
}

/** The 1-based columns where `word` occurs in `line` as a whole identifier. */
export function wordColumns(line: string, word: string): number[] {
  if (word === "") return [];
  const out: number[] = [];
  const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
  for (let i = line.indexOf(word); i >= 0; i = line.indexOf(word, i + 1)) {
    if (!isWordChar(line[i - 1]) && !isWordChar(line[i + word.length])) out.push(i + 1);
  }
  return out;
}
