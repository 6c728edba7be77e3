import { postToHost } from "../vscodeApi";

/**
 * Fathom's own slash commands, listed in the `/` picker before the prompt files' and run in the
 * webview instead of being sent. A feature adds its command here (plan mode's `/plan`,
 * `/compact`): a name, what it does, and what running it sends to the host.
 */
export interface BuiltinCommand {
  name: string;
  description: string;
  /** What to type after the name, if it takes anything. */
  argumentHint?: string;
  /** Runs it with the rest of the line. */
  run: (args: string) => void;
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [{ name: "new", description: "Start a new task (this one stays in History)", run: () => postToHost({ type: "newTask" }) }];

/** The built-in command a message runs (`/new`), or undefined: a prompt file's command or text, sent as it is. */
export function builtinFor(message: string): { command: BuiltinCommand; args: string } | undefined {
  const m = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(message.trim());
  const command = m ? BUILTIN_COMMANDS.find((c) => c.name === m[1]!.toLowerCase()) : undefined;
  return command ? { command, args: (m![2] ?? "").trim() } : undefined;
}
