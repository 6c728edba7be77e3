import { lookupModel } from "../model/modelTable";
import type { ToolKind } from "../tools/tool";
import { mapToolNames } from "./agentFiles";
import type { AgentDefinition, PromptCommand, TeamCatalog } from "./types";

/** What a team file may change about a run: it only ever narrows the tools. */
export interface ToolNarrowing {
  /** Only these tools (Fathom's names). */
  names?: readonly string[];
  /** Only tools of these kinds. */
  kinds?: readonly ToolKind[];
}

/**
 * The model a team file names, as an id for the person's provider, or why it is not used. A
 * file may pick among the provider's models Fathom knows (Claude's `sonnet`/`opus`/`haiku`,
 * Copilot's display names, plain ids): never another provider, endpoint or key.
 */
export function modelForName(name: string | undefined, provider: string): { model?: string; note?: string } {
  const raw = name?.trim();
  if (!raw || /^inherit$/i.test(raw)) return {};
  const id = raw
    .toLowerCase()
    .replace(/\s*\([^)]*\)\s*/g, "")
    .trim()
    .replace(/\s+/g, "-");
  const family =
    id.startsWith("claude") || /^(sonnet|opus|haiku)$/.test(id)
      ? "anthropic"
      : /^(gpt|o\d|chatgpt|codex)/.test(id)
        ? "openai"
        : undefined;
  const not = (why: string) => ({
    note: `the model "${raw}" it asks for is not used (${why}); the task's model answers`,
  });
  if (provider !== "anthropic" && provider !== "openai")
    return not(`only with the openai and anthropic providers does Fathom know the models by name`);
  if (family !== provider) return not(`not a model of ${provider}`);
  if (/^(sonnet|opus|haiku)$/.test(id)) {
    // The newest of that line in Fathom's table.
    for (const candidate of ALIAS_ORDER[id] ?? []) if (lookupModel(candidate)) return { model: candidate };
    return not("Fathom knows no model of that line");
  }
  const normalized = id.startsWith("claude") ? id.replace(/\./g, "-") : id;
  return lookupModel(normalized) ? { model: normalized } : not("Fathom does not know that model");
}

const ALIAS_ORDER: Record<string, string[]> = {
  sonnet: ["claude-sonnet-5-5", "claude-sonnet-5", "claude-sonnet-4-6", "claude-sonnet-4-5"],
  opus: ["claude-opus-5-5", "claude-opus-5", "claude-opus-4-8", "claude-opus-4-7"],
  haiku: ["claude-haiku-4-5", "claude-3-5-haiku"],
};

/** Copilot's `agent`/`mode` values that are modes, not agents, and what each narrows to. */
const MODES: Record<string, ToolNarrowing> = {
  ask: { kinds: ["read"] },
  edit: { kinds: ["read", "edit", "other"] },
  agent: {},
};

/** What running a prompt file's message means: the agent it names, the tools it narrows to, its model, and notes on what is not honoured. */
export function commandRun(
  command: PromptCommand,
  catalog: TeamCatalog,
  provider: string,
): { agent?: string; narrowing?: ToolNarrowing; model?: string; notes: string[] } {
  const notes: string[] = [];
  let agent: string | undefined;
  let narrowing: ToolNarrowing | undefined;
  const wanted = command.agent?.trim();
  if (wanted) {
    const mode = MODES[wanted.toLowerCase()];
    if (mode) narrowing = mode.kinds ? { kinds: mode.kinds } : undefined;
    else if (catalog.agents.some((a) => a.name === wanted)) agent = wanted;
    else
      notes.push(
        `the agent "${wanted}" it asks for is not one Fathom has (no such custom agent); Fathom's own agent answers`,
      );
  }
  if (command.tools?.length) {
    const mapped = mapToolNames(command.tools);
    narrowing = { ...narrowing, names: mapped.tools };
    if (mapped.unknown.length) notes.push(`Fathom has no tool for ${mapped.unknown.join(", ")}`);
  }
  const model = modelForName(command.model, provider);
  if (model.note) notes.push(model.note);
  return {
    ...(agent ? { agent } : {}),
    ...(narrowing ? { narrowing } : {}),
    ...(model.model ? { model: model.model } : {}),
    notes,
  };
}

/** A tool passes when every narrowing lets it (none given: all pass). */
export function allowsTool(narrowings: readonly (ToolNarrowing | undefined)[], name: string, kind: ToolKind): boolean {
  return narrowings.every((n) => !n || ((!n.names || n.names.includes(name)) && (!n.kinds || n.kinds.includes(kind))));
}

/** A custom agent's tool list as a narrowing (absent: it has all of the person's tools). */
export function agentNarrowing(agent: AgentDefinition): ToolNarrowing | undefined {
  return agent.tools ? { names: agent.tools } : undefined;
}
