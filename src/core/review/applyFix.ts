/**
 * A finding's fix applied to a file's text, for "Apply fix" (which then goes through the normal
 * diff review): lines startLine..endLine replaced by the fix, the file's line endings and final
 * newline kept. When the lines are no longer what the review saw, nothing is applied and the
 * reason says so.
 */
import type { ReviewFinding } from "./finding";

export function applyFindingFix(
  text: string,
  finding: Pick<ReviewFinding, "file" | "startLine" | "endLine" | "fix">,
  /** The lines as the review saw them (DiffIndex.newText), to refuse a fix for lines changed since. */
  expected?: string,
): { text: string } | { error: string } {
  if (finding.fix === undefined) return { error: `The finding on ${finding.file}:${finding.startLine} has no fix.` };
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  const finalNewline = lines.at(-1) === "";
  if (finalNewline) lines.pop();
  if (finding.endLine > lines.length)
    return {
      error: `${finding.file} has ${lines.length} lines now, fewer than the fix's last line (${finding.endLine}): it changed since the review.`,
    };
  const current = lines.slice(finding.startLine - 1, finding.endLine).join("\n");
  if (expected !== undefined && current !== expected)
    return {
      error: `Lines ${finding.startLine}-${finding.endLine} of ${finding.file} changed since the review, so the fix was not applied.`,
    };
  const replaced = [
    ...lines.slice(0, finding.startLine - 1),
    ...(finding.fix === "" ? [] : finding.fix.split("\n")),
    ...lines.slice(finding.endLine),
  ];
  return { text: replaced.join(eol) + (finalNewline ? eol : "") };
}
