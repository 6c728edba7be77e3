/**
 * `/name args` at the start of a message: the one reading of a leading "/" for the message box
 * (Fathom's own commands), the host (`/plan`, `/compact` it receives) and the core (a prompt
 * file's command, in the chat and the CLI). A path such as `/src/a.ts is broken` is not a command.
 */
export interface SlashCommand {
  /** As typed: prompt files and the message box's own commands match it ignoring case, the host's `/plan` and `/compact` exactly. */
  name: string;
  /** The rest of the line, trimmed ("" when there is none). */
  args: string;
}

/** The command a message starts with, or undefined (the message is text). Leading and trailing space is ignored. */
export function parseSlashCommand(text: string): SlashCommand | undefined {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, args: (m[2] ?? "").trim() } : undefined;
}
