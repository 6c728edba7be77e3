import type { Attachment } from "./attachments";
import { capTail, MAX_ATTACHMENT_CHARS } from "./attachments";
import { cleanTerminalText } from "./executor/terminalText";

/**
 * A command the person ran in one of their terminals (or text they selected there), as the
 * host saw it. The same text reaches the model from a chip ("Add Terminal Output to Chat") and
 * from the `terminal_output` tool.
 */
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
  /** The command had not ended when it was captured. */
  running?: boolean;
  /** Why its output could not be read (said instead of "(no output)"). */
  unreadable?: string;
  terminalName: string;
}

/** A terminal's last command (or its selection) as a chip: ANSI removed, the end kept within the cap. */
export function terminalAttachment(c: TerminalCapture): Extract<Attachment, { kind: "terminal" }> {
  const command = c.command.trim();
  const short = command.length > 60 ? `${command.slice(0, 57)}…` : command;
  const label = c.selection
    ? `Terminal selection (${c.terminalName})`
    : `Terminal: ${short || c.terminalName}${c.running ? " (still running)" : c.exitCode !== undefined ? ` (exit ${c.exitCode})` : ""}`;
  return { kind: "terminal", label, text: terminalCaptureText(c) };
}

/** The capture as the model reads it: command line, exit code, then the output's end within the cap. */
export function terminalCaptureText(c: TerminalCapture): string {
  const clean = cleanTerminalText(c.output).replace(/\s+$/, "");
  const capped = capTail(clean);
  const command = c.command.trim();
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
  return [...head, ...cut, capped.text || (c.unreadable ? `(${c.unreadable})` : "(no output)")].join("\n");
}
