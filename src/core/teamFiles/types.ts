/**
 * What Fathom reads of the files teams already keep for agents: rules, prompt files (slash
 * commands), Agent Skills and custom agents. Each format is read by its own adapter into these
 * shared definitions. Everything in them was written by whoever wrote the repository (or by the
 * person, for their own folders): it informs the agent, and can only narrow what it may do.
 */

/** Where a team file was found. */
export interface TeamFileRef {
  /** Where the agent reads it: a virtual path (`/AGENTS.md`, `/.user-skills/pdf/SKILL.md`); absent for the person's own files the agent does not see. */
  path?: string;
  /** How it is shown: the virtual path, or `~/.config/fathom/AGENTS.md`. */
  label: string;
  origin: "workspace" | "user";
  /** The person's own files: the real path (to open it in the editor). */
  realPath?: string;
}

/** When a rules file applies. */
export type RuleScope =
  /** From the start of every task (root files, the person's own). */
  | { kind: "always" }
  /** When the task reads or writes a file under `folder` (a nested AGENTS.md or CLAUDE.md). */
  | { kind: "folder"; folder: string }
  /** When the task reads or writes a file matching one of `globs` (from `root`). */
  | { kind: "globs"; globs: string[]; root: string }
  /** The model reads it when its description fits the task (Cursor's "agent requested"). */
  | { kind: "requested"; description: string }
  /** Only when the person mentions it (`@/.cursor/rules/x.mdc`): never added by itself. */
  | { kind: "manual" };

export type RuleFormat =
  "AGENTS.md" | "CLAUDE.md" | "copilot-instructions" | "instructions.md" | "cursor-mdc" | "clinerules";

export interface RuleFile {
  file: TeamFileRef;
  format: RuleFormat;
  scope: RuleScope;
  /** The rules' text (front matter removed, imports expanded), capped per file. */
  text: string;
  /** The file was longer than the per-file cap. */
  truncated: boolean;
}

export type CommandFormat = "copilot-prompt" | "claude-command" | "cline-workflow" | "fathom-prompt";

export interface PromptCommand {
  /** Typed after `/`. */
  name: string;
  description: string;
  file: TeamFileRef;
  format: CommandFormat;
  body: string;
  /** What to type after the name (`argument-hint`). */
  argumentHint?: string;
  /** A model the file asks for (honoured when the person's provider has it). */
  model?: string;
  /** Copilot's `agent`/`mode`: `ask`, `edit`, `agent`, or a custom agent's name. */
  agent?: string;
  /** Tool names the file allows (Claude's `allowed-tools`, Copilot's `tools`), as written. */
  tools?: string[];
}

export interface Skill {
  name: string;
  description: string;
  /** SKILL.md; its `path` is where the agent reads it. */
  file: TeamFileRef;
  /** The skill's folder as the agent sees it (`/.github/skills/pdf`). */
  folder: string;
  /** The person's own skills: the folder on disk (their scripts run from there). */
  realFolder?: string;
}

export type AgentFormat = "copilot-agent" | "claude-agent" | "fathom-agent";

export interface AgentDefinition {
  name: string;
  description: string;
  file: TeamFileRef;
  format: AgentFormat;
  /** Its instructions (the file's body). */
  instructions: string;
  /** Fathom tool names it may use (mapped from Claude's and Copilot's names); absent: all the person's. */
  tools?: string[];
  /** Names in its tool list that Fathom has no tool for (left out). */
  unknownTools: string[];
  /** The model it asks for, as written (`sonnet`, `gpt-4.1`, `inherit`). */
  model?: string;
}

export type TeamFileKind = "rules" | "commands" | "skills" | "agents";

export interface TeamFileProblem {
  kind: TeamFileKind;
  /** The file's label. */
  file: string;
  line?: number;
  message: string;
  /** A file that was used anyway (a note), not skipped. */
  note?: boolean;
}

export interface TeamCatalog {
  rules: RuleFile[];
  commands: PromptCommand[];
  skills: Skill[];
  agents: AgentDefinition[];
  problems: TeamFileProblem[];
}

export function emptyCatalog(): TeamCatalog {
  return { rules: [], commands: [], skills: [], agents: [], problems: [] };
}

/** Longest name of a command, skill or agent. */
export const MAX_NAME_CHARS = 64;

/**
 * Why a name from a team file cannot be used (control characters, spaces, too long), or
 * undefined. Names are shown in the UI and sent to the model, so they are kept plain.
 */
export function badName(name: string, allowed: RegExp = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(name))
    return "its name has control or invisible characters";
  if (name.length === 0) return "it has no name";
  if (name.length > MAX_NAME_CHARS) return `its name is longer than ${MAX_NAME_CHARS} characters`;
  if (!allowed.test(name)) return `its name "${name}" has characters other than letters, digits, -, _, . and :`;
  return undefined;
}

/** Text safe to show on one line: control and invisible characters become `?`. */
export function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "?");
}
