import {
  capTail,
  cleanTerminalText,
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

export interface TerminalCapture {
  /** The command line as the shell reported it ("" when unknown). */
  command: string;
  /** The exit code; undefined when not known (Fathom was not running when it ended, or no shell integration). */
  exitCode?: number | undefined;
  /** Raw output (escape sequences are removed here). */
  output: string;
  /** The output's start was already dropped while recording. */
  cut?: boolean;
  /** Selected terminal text rather than a command's output. */
  selection?: boolean;
  /** The command had not ended when the chip was made. */
  running?: boolean;
  terminalName: string;
}

/** A terminal's last command (or its selection) as a chip: ANSI removed, the end kept within the cap. */
export function terminalAttachment(c: TerminalCapture): Extract<Attachment, { kind: "terminal" }> {
  const clean = cleanTerminalText(c.output).replace(/\s+$/, "");
  const capped = capTail(clean);
  const command = c.command.trim();
  const short = command.length > 60 ? `${command.slice(0, 57)}…` : command;
  const label = c.selection
    ? `Terminal selection (${c.terminalName})`
    : `Terminal: ${short || c.terminalName}${c.running ? " (still running)" : c.exitCode !== undefined ? ` (exit ${c.exitCode})` : ""}`;
  const head = c.selection
    ? [`Text selected in the terminal "${c.terminalName}":`]
    : [
        `$ ${command || "(command line not reported by the shell)"}`,
        c.running
          ? "exit code: none yet (the command was still running)"
          : c.exitCode !== undefined
            ? `exit code: ${c.exitCode}`
            : "exit code: unknown (Fathom was not running when the command ended)",
      ];
  const cut =
    capped.cut || c.cut
      ? [`(output cut: only its last ${MAX_ATTACHMENT_CHARS.toLocaleString("en")} characters are attached)`]
      : [];
  return { kind: "terminal", label, text: [...head, ...cut, capped.text || "(no output)"].join("\n") };
}
