/**
 * Which lines of which files a diff shows, on the new side: what a finding may point at. GitHub
 * takes line comments only on lines of the diff's hunks (added or context), and a range only
 * within one hunk, so a finding is held to the same rule here, before anyone posts it.
 */
import type { FileDiff } from "../commitMessage/fileDiffs";
import type { ReviewFinding } from "./finding";

export interface DiffLine {
  /** `+` added, `-` removed, ` ` context, `\` git's "No newline at end of file". */
  mark: "+" | "-" | " " | "\\";
  text: string;
  /** The line's number on the new side (added and context lines). */
  newLine?: number;
}

export interface NumberedHunk {
  /** The `@@ … @@` line. */
  header: string;
  /** First and last new-side line the hunk shows (end < start when it shows none: a deletion). */
  newStart: number;
  newEnd: number;
  lines: DiffLine[];
}

const HUNK_HEADER = /^@@+ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/** A hunk's lines with their new-side numbers. */
export function numberHunk(hunk: string): NumberedHunk {
  const [header = "", ...rest] = hunk.split("\n");
  const start = Number(HUNK_HEADER.exec(header)?.[1] ?? "1");
  let next = start;
  const lines: DiffLine[] = rest.map((raw) => {
    const mark = (raw[0] ?? " ") as DiffLine["mark"];
    const text = raw.slice(1);
    if (mark === "+" || mark === " ") return { mark, text, newLine: next++ };
    return { mark: mark === "-" ? "-" : "\\", text };
  });
  return { header, newStart: start, newEnd: next - 1, lines };
}

/** The reviewable files of a diff by path, each with its numbered hunks. */
export class DiffIndex {
  private readonly files = new Map<string, NumberedHunk[]>();

  constructor(files: readonly FileDiff[]) {
    for (const file of files)
      if (!file.binary && file.status !== "deleted") this.files.set(file.path, file.hunks.map(numberHunk));
  }

  get paths(): string[] {
    return [...this.files.keys()];
  }

  /** Why `finding` cannot be placed (a message for the model), or undefined when it can. */
  refusal(finding: Pick<ReviewFinding, "file" | "startLine" | "endLine">): string | undefined {
    const hunks = this.files.get(finding.file);
    if (!hunks) {
      const listed = this.paths.slice(0, 20).join(", ");
      return `${finding.file} is not a changed file of this diff, so a finding cannot go on it. Findings go on the changed lines of: ${listed || "(no files)"}. Use the path exactly as the diff names it.`;
    }
    const hunk = hunks.find((h) => finding.startLine >= h.newStart && finding.startLine <= h.newEnd);
    const shown = hunks
      .filter((h) => h.newEnd >= h.newStart)
      .map((h) => `${h.newStart}-${h.newEnd}`)
      .join(", ");
    if (!hunk)
      return `Line ${finding.startLine} of ${finding.file} is not in the diff (it shows lines ${shown || "none"} of the new file). Put the finding on a line the diff shows, numbered as shown.`;
    if (finding.endLine > hunk.newEnd)
      return `Lines ${finding.startLine}-${finding.endLine} of ${finding.file} leave the hunk that shows lines ${hunk.newStart}-${hunk.newEnd}; a finding's range must lie within one hunk. Narrow end_line, or report the other part as its own finding.`;
    return undefined;
  }

  /** The text of new-side lines `start..end` of `file` as the diff shows them, or undefined. */
  newText(file: string, start: number, end: number): string | undefined {
    const lines = (this.files.get(file) ?? []).flatMap((h) => h.lines).filter((l) => l.newLine !== undefined);
    const picked = lines.filter((l) => l.newLine! >= start && l.newLine! <= end);
    return picked.length === end - start + 1 ? picked.map((l) => l.text).join("\n") : undefined;
  }
}
