import type { SlashRun, TeamCatalog, ToolNarrowing } from "../../core";

/** What a task needs of the team files (the host's: found through the guard, kept fresh by a watcher). */
export interface SessionTeamFiles {
  /** What was found (read on first use, again after a file changes). */
  catalog(): Promise<TeamCatalog>;
  /** `/name args` of a prompt file, filled in (its inputs asked, the editor's selection and file); undefined when it is not one. */
  expandSlash(text: string, catalog: TeamCatalog, provider: string): Promise<SlashRun | undefined>;
}

/** What the team files change about one run of a task. */
export interface TeamRunPlan {
  /** The message the model gets (a prompt file's filled-in text for `/name args`). */
  input: string;
  catalog: TeamCatalog;
  agent?: string;
  narrowTools?: ToolNarrowing;
  /** A model id the prompt file asks for (of the person's provider). */
  model?: string;
  /** Said in the transcript: what a file asked for that is not used, an agent that is gone. */
  notes: string[];
}

/**
 * A run's team files: the catalog, the prompt file a `/name args` message runs, and the agent
 * it runs as (the Agent box's choice first, then the prompt file's). An agent whose file is gone
 * is said and not used, so the task still runs.
 */
export async function planTeamRun(
  teamFiles: SessionTeamFiles,
  o: { input: string; chosenAgent: string | null; provider: string },
): Promise<TeamRunPlan> {
  const catalog = await teamFiles.catalog();
  const notes: string[] = [];
  const slash = o.input ? await teamFiles.expandSlash(o.input, catalog, o.provider) : undefined;
  if (slash) notes.push(...slash.notes);
  let agent = o.chosenAgent ?? slash?.agent;
  if (agent && !catalog.agents.some((a) => a.name === agent)) {
    notes.push(
      `The agent "${agent}" is no longer defined (its file was removed or renamed), so Fathom's own agent answers. Pick another in Agent, at the top.`,
    );
    agent = undefined;
  }
  return {
    input: slash?.prompt ?? o.input,
    catalog,
    notes,
    ...(agent ? { agent } : {}),
    ...(slash?.narrowing ? { narrowTools: slash.narrowing } : {}),
    ...(slash?.model ? { model: slash.model } : {}),
  };
}
