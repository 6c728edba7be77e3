/**
 * A model's answer as a commit message: models asked for "only the message" still wrap it in
 * a code fence, quote it, or start with "Commit message:". What goes into the commit box is the
 * message alone. While the answer streams in, the same cleaning runs on what has come so far
 * (`partial`), so a fence's opening line never flashes in the box.
 */

const LABEL =
  /^\s*(\*\*|__)?\s*(here(?:'s| is)\s+(?:a|an|the|your)?\s*)?(suggested\s+|proposed\s+|generated\s+)?(git\s+)?commit\s+message\s*(\*\*|__)?\s*:\s*(\*\*|__)?\s*/i;
const FENCE = /^\s*(```|~~~)/;
const QUOTES: Record<string, string> = { '"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019" };

export function cleanCommitMessage(answer: string, o: { partial?: boolean } = {}): string {
  let lines = answer.replace(/\r\n?/g, "\n").split("\n");
  lines = dropLeadingBlank(lines);

  // "Commit message:" alone on its line, or before the subject on the same line.
  const label = LABEL.exec(lines[0] ?? "");
  if (label) {
    const rest = lines[0]!.slice(label[0].length);
    if (rest.trim() === "") lines = dropLeadingBlank(lines.slice(1));
    else lines[0] = rest;
  }

  // A fenced block, at the start or after a one-line preamble ("Here it is:").
  const fenceAt = lines.findIndex((l) => FENCE.test(l));
  const preamble = lines.slice(0, Math.max(fenceAt, 0)).filter((l) => l.trim() !== "");
  if (fenceAt >= 0 && (preamble.length === 0 || (preamble.length === 1 && preamble[0]!.trim().endsWith(":")))) {
    const opening = lines[fenceAt]!;
    // Until the fence's line is complete it may still be a language name: show nothing yet.
    if (o.partial && fenceAt === lines.length - 1) return "";
    const body = lines.slice(fenceAt + 1);
    const fence = FENCE.exec(opening)![1]!;
    const closing = body.findIndex((l) => l.trim().startsWith(fence));
    lines = closing >= 0 ? body.slice(0, closing) : body;
  }
  if (o.partial && /^\s*(`{1,3}|~{1,3})\s*$/.test(lines.at(-1) ?? "")) lines = lines.slice(0, -1);

  lines = dropLeadingBlank(lines.map((l) => l.trimEnd()));
  let text = lines.join("\n").trim();
  text = unquote(text, o.partial === true);
  text = unbold(text);

  // A body straight after the subject gets the blank line git expects.
  const [subject, ...body] = text.split("\n");
  if (body.length > 0 && body[0]!.trim() !== "") text = [subject, "", ...body].join("\n");
  return text.replace(/\n{3,}/g, "\n\n").trim();
}

function dropLeadingBlank(lines: string[]): string[] {
  const first = lines.findIndex((l) => l.trim() !== "");
  return first < 0 ? [] : lines.slice(first);
}

/** Quotes around the whole message (while streaming, the opening one alone). */
function unquote(text: string, partial: boolean): string {
  const close = QUOTES[text[0] ?? ""];
  if (!close) return text;
  const inner = text.slice(1);
  if (inner.endsWith(close) && !inner.slice(0, -1).includes(close)) return inner.slice(0, -1).trim();
  return partial && !inner.includes(close) ? inner.trimStart() : text;
}

/** A subject written in bold, as a model writing markdown does. */
function unbold(text: string): string {
  const [subject = "", ...rest] = text.split("\n");
  const m = /^(\*\*|__)(.+)\1$/.exec(subject.trim());
  return m ? [m[2]!.trim(), ...rest].join("\n") : text;
}
