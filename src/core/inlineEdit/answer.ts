import { shownContext } from "./prompt";
import type { SelectedLines } from "./selectedLines";

/**
 * A model's answer to an inline edit made into the selection's replacement. Models are asked for
 * only the new lines, but often wrap them in a Markdown fence, put a sentence before them, answer
 * with the whole snippet they were shown, or explain instead of answering. Fences and a leading
 * sentence are taken off, lines repeated from around the selection are narrowed away, and prose,
 * several code blocks or an answer that changes lines outside the selection are refused with a
 * reason for the person: nothing is ever written as the model said it.
 */

export type CleanedAnswer = { replacement: string } | { refused: string };

export interface AnswerContext {
  sel: SelectedLines;
  /** The file's path: prose is a fine answer in a Markdown or text file. */
  path: string;
}

type Step = { lines: string[] } | { refused: string } | { hold: true };

const PROSE_EXTENSIONS = new Set(["", "md", "markdown", "mdx", "txt", "text", "rst", "adoc", "asciidoc", "tex", "org"]);
/** A sentence that introduces the answer ("Here is the updated code:"). */
const PREAMBLE =
  /^(?:here(?:'s|’s| is| are)\b|sure\b|certainly\b|of course\b|okay\b|ok\b|alright\b|below is\b|the following\b|(?:the )?(?:updated|modified|new|revised|edited|rewritten|changed) (?:code|text|lines?|version|selection|function)\b|i(?:'ve|’ve| have)? (?:updated|changed|rewritten|rewrote|modified|refactored|edited|made|converted|added|removed|replaced)\b)/i;
/** A model declining ("I'm sorry, but…"). */
const APOLOGY =
  /^(?:i'?m sorry|i’m sorry|sorry\b|i apologi[sz]e|unfortunately\b|i (?:cannot|can't|can’t|can not|am unable|won't|will not)\b|i'm unable|as an ai\b)/i;
/** What the prompt asks a model to start with when it cannot do the edit. */
const CANNOT = /^cannot:\s*/i;

const isBlank = (line: string) => line.trim() === "";
const same = (a: string, b: string) => a.trimEnd() === b.trimEnd();
const sameRun = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((line, i) => same(line, b[i]!));
const firstText = (lines: readonly string[]) => lines.find((l) => !isBlank(l))?.trim() ?? "";

function fenceOf(line: string): { char: string; length: number; info: string } | undefined {
  const m = /^\s{0,3}(`{3,}|~{3,})([^`]*)$/.exec(line);
  return m ? { char: m[1]![0]!, length: m[1]!.length, info: m[2]!.trim() } : undefined;
}

/** Fenced blocks: where each opens and (unless the answer ends first) closes. */
function fencedBlocks(lines: readonly string[]): { open: number; close?: number }[] {
  const blocks: { open: number; close?: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fenceOf(lines[i]!);
    if (!open) continue;
    const close = lines.findIndex((line, j) => {
      const f = j > i ? fenceOf(line) : undefined;
      return f !== undefined && f.char === open.char && f.length >= open.length && f.info === "";
    });
    if (close < 0) {
      blocks.push({ open: i });
      break;
    }
    blocks.push({ open: i, close });
    i = close;
  }
  return blocks;
}

function excerpt(lines: readonly string[]): string {
  const text = lines.join(" ").replace(/\s+/g, " ").trim();
  return `“${text.length > 300 ? `${text.slice(0, 299)}…` : text}”`;
}

/** A line a person would write in a sentence, not in code. */
function proseLine(line: string): boolean {
  const t = line.trim().replace(/^(?:[-*•]|\d+[.)])\s+/, "");
  if (/^(?:\/\/|#|\/\*|\*|--|<!--|;|%)/.test(t) || /[;{}=<>`$\\[\]]|\w\(/.test(t)) return false;
  const words = t.split(/\s+/);
  const letters = t.replace(/[^\p{L}]/gu, "").length;
  return words.length >= 2 && letters >= t.length * 0.6;
}

/** Text that reads as an explanation: sentences, not code. */
function looksLikeProse(lines: readonly string[]): boolean {
  const text = lines.filter((l) => !isBlank(l));
  return (
    text.length > 0 && /^\p{Lu}/u.test(text[0]!.trim()) && text.every(proseLine) && /[.!?:]\s*$/m.test(text.join("\n"))
  );
}

/** The lines the answer holds once fences, a leading sentence and explanations are dealt with. */
function unwrap(lines: string[], ctx: AnswerContext, partial: boolean): Step {
  const selected = ctx.sel.selected;
  const first = firstText(lines);
  if (CANNOT.test(first))
    return partial
      ? { hold: true }
      : { refused: `The model says it cannot do this: ${first.replace(CANNOT, "") || "it gave no reason."}` };
  const selectionHasFence = selected.some((l) => fenceOf(l) !== undefined);
  if (selectionHasFence) {
    // Fences are part of the text here (Markdown): only a fence around the whole answer is taken off.
    const body = lines.map((l, i) => ({ l, i })).filter(({ l }) => !isBlank(l));
    const [head, tail] = [body[0], body.at(-1)];
    const [open, close] = [head && fenceOf(head.l), tail && fenceOf(tail.l)];
    const longest = Math.max(...selected.map((l) => fenceOf(l)?.length ?? 0));
    const wraps =
      open &&
      close &&
      head !== tail &&
      close.char === open.char &&
      (open.length > longest || !fenceOf(firstText(selected)));
    if (wraps) return { lines: lines.slice(head!.i + 1, tail!.i) };
    return { lines };
  }
  const blocks = fencedBlocks(lines);
  if (blocks.length > 1 && !partial)
    return {
      refused: `The model answered with ${blocks.length} code blocks, so Fathom cannot tell which one is the new text.`,
    };
  if (blocks.length > 0) return { lines: lines.slice(blocks[0]!.open + 1, blocks[0]!.close ?? lines.length) };
  if (APOLOGY.test(first) && !APOLOGY.test(firstText(selected)))
    return partial
      ? { hold: true }
      : { refused: `The model answered with an explanation instead of the new text: ${excerpt(lines)}` };
  let body = lines;
  if (PREAMBLE.test(first) && /[:.!]$/.test(first) && !PREAMBLE.test(firstText(selected))) {
    const at = lines.findIndex((l) => !isBlank(l));
    body = lines.slice(at + 1);
    while (body.length > 0 && isBlank(body[0]!)) body = body.slice(1);
    if (body.length === 0)
      return partial
        ? { hold: true }
        : { refused: `The model answered with an explanation instead of the new text: ${excerpt(lines)}` };
  }
  const prose =
    !PROSE_EXTENSIONS.has(/\.([^./]+)$/.exec(ctx.path)?.[1]?.toLowerCase() ?? "") &&
    looksLikeProse(body) &&
    !looksLikeProse(selected);
  if (prose)
    return partial
      ? { hold: true }
      : { refused: `The model answered with an explanation instead of the new text: ${excerpt(body)}` };
  return { lines: body };
}

/**
 * Takes off lines the answer repeats from before and after the selection (a model that answered
 * with the whole snippet or file). A run that the selection itself starts (or ends) with is kept:
 * it may be the new text's own.
 */
function narrow(lines: string[], ctx: AnswerContext, partial: boolean): Step {
  const { before, after, selected } = ctx.sel;
  const { from, afterCount } = shownContext(ctx.sel);
  // Still echoing the context from its start: nothing of the new text has come yet.
  if (partial && lines.some((l) => !isBlank(l))) {
    for (const start of [from, 0])
      if (start + lines.length <= before.length && sameRun(lines, before.slice(start, start + lines.length)))
        return { hold: true };
  }
  let out = lines;
  for (let m = Math.min(out.length, before.length); m > 0; m--) {
    const head = out.slice(0, m);
    if (
      sameRun(head, before.slice(before.length - m)) &&
      head.some((l) => !isBlank(l)) &&
      !sameRun(head, selected.slice(0, m))
    ) {
      out = out.slice(m);
      break;
    }
  }
  for (let n = Math.min(out.length, after.length); n > 0; n--) {
    const tail = out.slice(out.length - n);
    if (
      sameRun(tail, after.slice(0, n)) &&
      tail.some((l) => !isBlank(l)) &&
      !sameRun(tail, selected.slice(selected.length - n))
    ) {
      out = out.slice(0, out.length - n);
      break;
    }
  }
  // Still starting (or ending) with the context's outer lines: the model changed lines around the selection too.
  const starts = [from, 0].some(
    (s) =>
      s + 2 <= before.length &&
      sameRun(out.slice(0, 2), before.slice(s, s + 2)) &&
      !sameRun(selected.slice(0, 2), before.slice(s, s + 2)) &&
      before.slice(s, s + 2).some((l) => !isBlank(l)),
  );
  const ends = [afterCount, after.length].some(
    (e) =>
      e >= 2 &&
      out.length >= 2 &&
      sameRun(out.slice(-2), after.slice(e - 2, e)) &&
      !sameRun(selected.slice(-2), after.slice(e - 2, e)) &&
      after.slice(e - 2, e).some((l) => !isBlank(l)),
  );
  if (starts || ends)
    return partial
      ? { hold: true }
      : { refused: "The model's answer changes lines around the selection too, so it does not fit the selection." };
  if (partial && out.length === 0 && lines.length > 0) return { hold: true };
  return { lines: out };
}

/** The selection's own indentation and surrounding blank lines, where the answer dropped them. */
function fitted(lines: string[], sel: SelectedLines): string[] {
  let body = lines;
  while (body.length > 0 && isBlank(body[0]!)) body = body.slice(1);
  while (body.length > 0 && isBlank(body.at(-1)!)) body = body.slice(0, -1);
  if (body.length === 0) return [];
  const text = sel.selected.filter((l) => !isBlank(l));
  if (text.length === 0) return body;
  const indent = (l: string) => /^[ \t]*/.exec(l)![0];
  const common = text.map(indent).reduce((a, b) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  });
  const firstAt = body.findIndex((l) => !isBlank(l));
  const rest = body.filter((l, i) => i > firstAt && !isBlank(l));
  if (common !== "" && indent(body[firstAt]!) === "") {
    // Only the first line lost its indentation (an answer trimmed at its start): it gets the selection's first line's.
    if (rest.length > 0 && rest.every((l) => indent(l).length >= common.length))
      body = body.map((l, i) => (i === firstAt ? indent(text[0]!) + l : l));
    // Every line answered from column 0: the model dropped the selection's indentation.
    else body = body.map((l) => (isBlank(l) ? l : common + l));
  }
  const lead = sel.selected.findIndex((l) => !isBlank(l));
  const trail = sel.selected.length - 1 - sel.selected.findLastIndex((l) => !isBlank(l));
  return [...Array<string>(lead).fill(""), ...body, ...Array<string>(trail).fill("")];
}

function join(lines: string[], sel: SelectedLines): string {
  return lines.length === 0 ? "" : lines.join(sel.eol) + (sel.endsWithEol ? sel.eol : "");
}

/** The whole answer as the selection's replacement (with the selection's line endings), or why it cannot be one. */
export function cleanAnswer(answer: string, ctx: AnswerContext): CleanedAnswer {
  const lines = answer.replace(/\r\n?/g, "\n").split("\n");
  const unwrapped = unwrap(lines, ctx, false);
  if (!("lines" in unwrapped))
    return "refused" in unwrapped ? unwrapped : { refused: "The model's answer could not be read." };
  const narrowed = narrow(unwrapped.lines, ctx, false);
  if (!("lines" in narrowed))
    return "refused" in narrowed ? narrowed : { refused: "The model's answer could not be read." };
  return { replacement: join(fitted(narrowed.lines, ctx.sel), ctx.sel) };
}

/**
 * What the answer streamed so far makes of the selection, for the diff to show while the model
 * writes: undefined until there is new text to show (the answer's first line, a fence's opening,
 * lines repeated from the context), or when the answer is turning out to be something it will refuse.
 */
export function partialReplacement(answer: string, ctx: AnswerContext): string | undefined {
  const lines = answer.replace(/\r\n?/g, "\n").split("\n");
  // The last line is still being written: kept unless it may become a fence or is the first line (a sentence?).
  const last = lines.at(-1)!;
  if (isBlank(last) || /^\s*[`~]+[^`\s]*$/.test(last) || lines.slice(0, -1).every(isBlank)) lines.pop();
  if (lines.every(isBlank)) return undefined;
  const unwrapped = unwrap(lines, ctx, true);
  if (!("lines" in unwrapped)) return undefined;
  const narrowed = narrow(unwrapped.lines, ctx, true);
  if (!("lines" in narrowed) || narrowed.lines.every(isBlank)) return undefined;
  return join(fitted(narrowed.lines, ctx.sel), ctx.sel);
}
