import {
  MAX_ATTACHMENT_CHARS,
  problemCounts,
  problemLine,
  sortProblems,
  type Attachment,
  type ProblemEntry,
  type Severity,
} from "../../core";

/**
 * The text of chips the host captures (a terminal's last command, problems), built from plain
 * values so it is tested without VS Code. Every cap is said in the text the model reads.
 */

/** Most problems one chip lists (errors first). */
export const MAX_PROBLEMS = 100;

export { problemLine, type ProblemEntry, type Severity };

/**
 * Problems as the model reads them: errors first, then warnings (information and hints only
 * when asked), by file and line; at most MAX_PROBLEMS, and how many were left out.
 */
export function problemsAttachment(
  entries: readonly ProblemEntry[],
  o: { label?: string; includeInfo?: boolean } = {},
): Attachment | { refused: string } {
  const kept = entries.filter((e) => o.includeInfo || e.severity === "error" || e.severity === "warning");
  if (kept.length === 0)
    return { refused: "There are no errors or warnings in the workspace right now (the Problems view is empty)." };
  const sorted = sortProblems(kept);
  const shown = sorted.slice(0, MAX_PROBLEMS);
  const lines = shown.map(problemLine);
  if (sorted.length > shown.length)
    lines.push(
      `(${sorted.length - shown.length} more not listed: only the first ${MAX_PROBLEMS} are attached, errors first)`,
    );
  const { text } = capHead(lines.join("\n"));
  return { kind: "problems", label: o.label ?? `Problems (${problemCounts(kept)})`, text };
}

/** Keeps the start of a list (errors come first), cut at a line, and says so. */
function capHead(text: string): { text: string; cut: boolean } {
  if (text.length <= MAX_ATTACHMENT_CHARS) return { text, cut: false };
  const kept = text.slice(0, MAX_ATTACHMENT_CHARS);
  return {
    text: `${kept.slice(0, Math.max(0, kept.lastIndexOf("\n")))}\n(cut here: the list is longer than ${MAX_ATTACHMENT_CHARS.toLocaleString("en")} characters)`,
    cut: true,
  };
}

export { terminalAttachment, type TerminalCapture } from "../../core";
