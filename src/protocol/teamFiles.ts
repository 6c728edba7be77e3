import { z } from "zod";

/**
 * What Fathom found of the files teams keep (rules, prompt files, skills, custom agents), as the
 * Fathom view lists it and the `/` picker and the Agent box offer it. Everything here came from
 * files a stranger may have written: the webview shows it as plain text.
 */

const name = z.string().max(64);
const text = z.string().max(2_000);
/** Where it came from, as shown (`/.github/prompts/review.prompt.md`, `~/.claude/CLAUDE.md`). */
const source = z.string().max(4_096);

export const TeamFilesViewSchema = z.object({
  rules: z.array(z.object({ source, when: text })).max(1_000),
  commands: z
    .array(z.object({ name, description: text, argumentHint: z.string().max(200).optional(), source }))
    .max(1_000),
  skills: z.array(z.object({ name, description: text, source })).max(1_000),
  agents: z.array(z.object({ name, description: text, source })).max(1_000),
  /** What could not be read or was used only in part, with the file (and line) it is about. */
  problems: z
    .array(z.object({ source, line: z.number().int().optional(), message: text, note: z.boolean().optional() }))
    .max(1_000),
});
export type TeamFilesView = z.infer<typeof TeamFilesViewSchema>;

/** A custom agent's name as the Agent box sends it (null: Fathom's own agent). */
export const AgentChoiceSchema = name.nullable();
