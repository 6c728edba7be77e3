import type { SlashCommand } from "../../../src/protocol";
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

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  {
    name: "new",
    description: "Start a new task (this one stays in History)",
    run: () => postToHost({ type: "newTask" }),
  },
  // "/plan" alone switches the message box to Plan (the composer does that); with text it sends it in Plan mode.
  {
    name: "plan",
    description: "Plan first: the agent only reads and asks, then proposes a plan you edit and start",
    argumentHint: "what to plan",
    run: (args) => args && postToHost({ type: "sendMessage", text: args, mode: "plan" }),
  },
  {
    name: "compact",
    description: "Summarize the conversation now, to free context (says how many tokens it freed)",
    run: () => postToHost({ type: "sendMessage", text: "/compact" }),
  },
  {
    name: "review",
    description: "Review the uncommitted changes (or staged, or against a branch): findings as comments in the editor",
    argumentHint: "staged | BRANCH",
    run: (args) => postToHost({ type: "sendMessage", text: args ? `/review ${args}` : "/review" }),
  },
];

/** The built-in command a message's `/name args` runs (`/new`, any case), or undefined: a prompt file's command or text, sent as it is. */
export function builtinFor(slash: SlashCommand | undefined): { command: BuiltinCommand; args: string } | undefined {
  const command = slash ? BUILTIN_COMMANDS.find((c) => c.name === slash.name.toLowerCase()) : undefined;
  return command && slash ? { command, args: slash.args } : undefined;
}
