/** What "Apply fix" needs of a finding: where it is, the lines as they were reviewed, and what the review suggests. */
export interface FixTarget {
  /** The file's virtual path (`/src/a.ts`). */
  path: string;
  /** 1-based, inclusive, on the reviewed (new) side. */
  startLine: number;
  endLine: number;
  /** Lines `startLine`..`endLine` as they were when the review ended (LF line breaks, no final one). */
  reviewed: string;
  /** What replaces those lines (the finding's `fix`: whole lines, no final line break). */
  replacement: string;
}

/** An `edit_file` call's arguments: the fix proposed as any agent edit is. */
export interface FixEditArgs {
  file_path: string;
  old_string: string;
  new_string: string;
}

const lf = (text: string) => text.replace(/\r\n/g, "\n");

/** The file's lines, each with its line break (the last one may have none). */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const stripBreak = (line: string) => (line.endsWith("\n") ? line.slice(0, -1) : line);

/** Why a fix cannot be applied any more, said for the person. */
export function staleFixMessage(target: Pick<FixTarget, "path" | "startLine" | "endLine">): string {
  const where =
    target.startLine === target.endLine ? `line ${target.startLine}` : `lines ${target.startLine}-${target.endLine}`;
  return `${target.path.replace(/^\//, "")} changed since the review: ${where} no longer read as reviewed, so the suggested fix does not apply. Run /review again for fresh findings.`;
}

/**
 * The whole file with the fix applied, from its text now (LF line breaks in the answer). The
 * reviewed lines are looked for where they were, then anywhere in the file when they are there
 * exactly once (lines added above them move them); otherwise the file changed under the finding
 * and the fix is refused with why.
 */
export function fixedText(current: string, target: FixTarget): { before: string; after: string } | { error: string } {
  const before = lf(current);
  const lines = linesOf(before);
  const count = target.endLine - target.startLine + 1;
  const wanted = lf(target.reviewed).split("\n");
  if (count < 1 || wanted.length !== count) return { error: staleFixMessage(target) };
  const matchesAt = (start: number) =>
    wanted.every((line, i) => lines[start + i] !== undefined && stripBreak(lines[start + i]!) === line);
  let start = target.startLine - 1;
  if (!matchesAt(start)) {
    const found: number[] = [];
    for (let i = 0; i + count <= lines.length && found.length < 2; i++) if (matchesAt(i)) found.push(i);
    if (found.length !== 1) return { error: staleFixMessage(target) };
    start = found[0]!;
  }
  const lastLine = lines[start + count - 1]!;
  // The replacement takes the place of whole lines: it keeps the last one's line break (or its lack).
  const replacement = lf(target.replacement).replace(/\n$/, "");
  const inserted = replacement === "" ? "" : replacement + (lastLine.endsWith("\n") ? "\n" : "");
  const after = lines.slice(0, start).join("") + inserted + lines.slice(start + count).join("");
  return { before, after };
}

/**
 * The smallest `edit_file` call that turns `before` into `after`: the changed lines, widened
 * by a line of context at a time until `old_string` occurs once in the file (as `edit_file`
 * requires).
 */
export function editArgsFor(path: string, before: string, after: string): FixEditArgs | { error: string } {
  if (before === after) return { error: "The suggested fix changes nothing in the file as it is now." };
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  let from = head;
  let to = a.length - tail;
  let toNew = b.length - tail;
  const oldText = () => a.slice(from, to).join("");
  const occurrences = (needle: string) => {
    let n = 0;
    for (let i = before.indexOf(needle); i !== -1 && n < 2; i = before.indexOf(needle, i + 1)) n++;
    return n;
  };
  while (oldText() === "" || occurrences(oldText()) !== 1) {
    if (from === 0 && to === a.length) break;
    if (from > 0) from--;
    if (to < a.length) {
      to++;
      toNew++;
    }
  }
  const old_string = oldText();
  const new_string = b.slice(from, toNew).join("");
  if (old_string === "" || occurrences(old_string) !== 1)
    return { error: "The suggested fix could not be placed in the file as it is now." };
  return { file_path: path, old_string, new_string };
}
