import type { BackendProtocol } from "../backends/protocol";
import { commandRun, type ToolNarrowing } from "./agentRuns";
// The one reading of a leading "/" (also the message box's and the host's): pure, no imports.
import { parseSlashCommand } from "../../protocol/slashCommand";
import { commandInputs, expandCommand, type EditorContext } from "./promptFiles";
import type { PromptCommand, TeamCatalog } from "./types";

/** What `/name args` runs: the prompt file's filled-in text, and what its front matter asks for that Fathom has. */
export interface SlashRun {
  command: PromptCommand;
  /** The message the model gets. */
  prompt: string;
  /** A custom agent the file names. */
  agent?: string;
  narrowing?: ToolNarrowing;
  /** A model id of the person's provider the file asks for. */
  model?: string;
  /** What the file asked for that is not used, each said to the person. */
  notes: string[];
}

/**
 * `/name args` as the CLI and the chat run it: undefined when the text is not a prompt file's
 * command (a built-in or plain text is the caller's). `${input:x}` not given as `x=value` are
 * asked through `ask` (which may refuse with an Error the caller shows); `@file` imports are
 * read through the workspace's backend, so its guard applies.
 */
export async function runSlash(o: {
  text: string;
  catalog: TeamCatalog;
  provider: string;
  backend: BackendProtocol;
  editor: EditorContext;
  ask: (command: PromptCommand, missing: { name: string; placeholder?: string }[]) => Promise<Record<string, string>>;
}): Promise<SlashRun | undefined> {
  const slash = parseSlashCommand(o.text);
  const command = slash ? o.catalog.commands.find((c) => c.name.toLowerCase() === slash.name.toLowerCase()) : undefined;
  if (!slash || !command) return undefined;
  const given = new Set([...slash.args.matchAll(/(?:^|\s)([A-Za-z_][\w-]*)=/g)].map((m) => m[1]!));
  const missing = commandInputs(command).filter((i) => !given.has(i.name));
  const inputs = missing.length ? await o.ask(command, missing) : {};
  const expanded = await expandCommand(command, slash.args, {
    inputs,
    editor: o.editor,
    readInclude: async (p) => {
      const r = await o.backend.readText(p, 65_536);
      return r.text !== undefined ? { text: r.text } : { error: r.error ?? "unreadable" };
    },
  });
  const how = commandRun(command, o.catalog, o.provider);
  return {
    command,
    prompt: expanded.text,
    notes: [...expanded.notes, ...how.notes].map((n) => `/${command.name} (${command.file.label}): ${n}.`),
    ...(how.agent ? { agent: how.agent } : {}),
    ...(how.narrowing ? { narrowing: how.narrowing } : {}),
    ...(how.model ? { model: how.model } : {}),
  };
}
