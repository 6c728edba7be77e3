import { createInterface } from "node:readline/promises";
import type { AgentEvent } from "../core/run/events";
import type { Attachment } from "../core/attachments";
import type { BackendProtocol } from "../core/backends/protocol";
import type { ToolNarrowing } from "../core/teamFiles/agentRuns";
import { discoverTeamFiles } from "../core/teamFiles/discovery";
import type { EditorContext } from "../core/teamFiles/promptFiles";
import { runSlash } from "../core/teamFiles/slashRun";
import type { PromptCommand, TeamCatalog } from "../core/teamFiles/types";
import { userTeamFolders } from "../core/teamFiles/userFolders";
import type { TerminalStreams } from "./terminalApprovalGate";

/** What the team files change about a `fathom run`. */
export interface CliTeamRun {
  catalog: TeamCatalog;
  /** The message the model gets: the prompt, or a slash command's filled-in prompt file. */
  prompt: string;
  /** The slash command run, if the prompt was one. */
  command?: PromptCommand;
  agent?: string;
  narrowTools?: ToolNarrowing;
  /** A model id a prompt file asks for (one the provider has). */
  model?: string;
  /** What a team file asked for that is not used (said as warnings). */
  notes: string[];
}

class TeamUsageError extends Error {}

/**
 * The team files of a run: found in the workspace (through its backend) and the person's
 * folders; `fathom run "/name args"` expands the prompt file `name` (its `${input:x}` asked at
 * the terminal, or given as `x=value`; `${file}` and `${selection}` from the first `--file`);
 * `--agent NAME` runs as that custom agent. A name no file defines is a usage error listing them.
 */
export async function cliTeamRun(o: Parameters<typeof teamRun>[0]): Promise<CliTeamRun | { error: string }> {
  try {
    return await teamRun(o);
  } catch (error) {
    if (error instanceof TeamUsageError) return { error: error.message };
    throw error;
  }
}

async function teamRun(o: {
  root: string;
  backend: BackendProtocol;
  prompt: string;
  agent?: string;
  provider: string;
  attachments: readonly Attachment[];
  /** The terminal, to ask for inputs (absent: no one to ask). */
  terminal?: TerminalStreams;
  env?: NodeJS.ProcessEnv;
}): Promise<CliTeamRun> {
  const catalog = await discoverTeamFiles({ workspace: o.backend, user: userTeamFolders(o.env) });
  const run: CliTeamRun = { catalog, prompt: o.prompt, notes: [] };
  if (o.agent !== undefined) {
    if (!catalog.agents.some((a) => a.name === o.agent)) {
      const names = catalog.agents.map((a) => a.name);
      throw new TeamUsageError(
        `--agent ${o.agent}: no custom agent has that name. ${names.length ? `The agents are: ${names.join(", ")}.` : "This workspace and your folders define none (.github/agents/*.agent.md, .claude/agents/*.md)."}`,
      );
    }
    run.agent = o.agent;
  }
  const slash = await runSlash({
    text: o.prompt,
    catalog,
    provider: o.provider,
    backend: o.backend,
    editor: await editorContext(o.backend, o.attachments, o.root),
    ask: (command, missing) => askInputs(command, missing, o.terminal),
  });
  if (!slash) return run;
  return {
    ...run,
    prompt: slash.prompt,
    command: slash.command,
    notes: slash.notes,
    ...((run.agent ?? slash.agent) ? { agent: run.agent ?? slash.agent } : {}),
    ...(slash.narrowing ? { narrowTools: slash.narrowing } : {}),
    ...(slash.model ? { model: slash.model } : {}),
  };
}

/** Says which prompt file a slash command ran (on stderr), and what its files asked for that is not used. */
export function announce(team: CliTeamRun, json: boolean, render: (event: AgentEvent) => void): void {
  if (team.command && !json)
    process.stderr.write(
      `/${team.command.name}: ${team.command.file.label}${team.agent ? ` (agent ${team.agent})` : ""}\n`,
    );
  for (const message of team.notes) render({ type: "warning", code: "team_files", message });
}

/** `${input:x}` values not given as `x=value`: asked at the terminal, else a usage error naming them. */
async function askInputs(
  command: PromptCommand,
  missing: { name: string; placeholder?: string }[],
  terminal: TerminalStreams | undefined,
): Promise<Record<string, string>> {
  if (!terminal) {
    throw new TeamUsageError(
      `/${command.name} asks for ${missing.map((i) => `\${input:${i.name}}`).join(", ")}, and no one is at a terminal to answer. Give ${missing.length > 1 ? "them" : "it"} after the command: fathom run "/${command.name} ${missing.map((i) => `${i.name}=…`).join(" ")}"`,
    );
  }
  const rl = createInterface({
    input: terminal.input,
    output: terminal.output,
    terminal: terminal.input.isTTY === true,
  });
  rl.on("SIGINT", () => terminal.onInterrupt());
  try {
    const out: Record<string, string> = {};
    for (const i of missing) out[i.name] = (await rl.question(`/${command.name}: ${i.placeholder ?? i.name}? `)).trim();
    return out;
  } finally {
    rl.close();
  }
}

/** `${file}` and `${selection}`: the first `--file` and its lines, read through the backend. */
async function editorContext(
  backend: BackendProtocol,
  attachments: readonly Attachment[],
  root: string,
): Promise<EditorContext> {
  const first = attachments.find((a) => a.kind === "file");
  if (!first || first.kind !== "file") return { workspaceFolder: root };
  if (first.startLine === undefined) return { workspaceFolder: root, file: first.path };
  const r = await backend.readText(first.path, 1_048_576);
  const lines = r.text?.split(/\r?\n/).slice(first.startLine - 1, first.endLine ?? first.startLine);
  return { workspaceFolder: root, file: first.path, ...(lines ? { selection: lines.join("\n") } : {}) };
}
