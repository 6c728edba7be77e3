import { listValue, parseFrontMatter, textValue } from "./frontMatter";
import { badName, type AgentDefinition, type AgentFormat, type TeamFileProblem, type TeamFileRef } from "./types";

const MAX_INSTRUCTIONS = 30_000;

/** Names Fathom gives its own agents (not to be taken by a file). */
const RESERVED = new Set(["general-purpose", "fathom", "default"]);

/**
 * Claude Code's and Copilot's tool names mapped to Fathom's, where they mean the same thing.
 * A name that maps to nothing is listed as unknown (the agent simply lacks it).
 */
const TOOL_NAMES: Record<string, readonly string[]> = {
  // Claude Code
  read: ["read_file"],
  write: ["write_file"],
  edit: ["edit_file", "write_file"],
  multiedit: ["edit_file"],
  glob: ["glob"],
  grep: ["grep"],
  ls: ["ls"],
  bash: ["execute", "command_output", "stop_command", "run_tests"],
  bashoutput: ["command_output"],
  killshell: ["stop_command"],
  todowrite: ["write_todos"],
  task: ["task"],
  webfetch: ["web_fetch"],
  // Copilot (tool sets and single tools)
  readfile: ["read_file"],
  editfiles: ["edit_file", "write_file"],
  createfile: ["write_file"],
  search: ["grep", "glob", "ls"],
  codebase: ["grep", "glob", "ls", "read_file"],
  filesearch: ["glob"],
  textsearch: ["grep"],
  listdirectory: ["ls"],
  execute: ["execute", "command_output", "stop_command", "run_tests"],
  runcommands: ["execute", "command_output", "stop_command", "run_tests"],
  runinterminal: ["execute", "command_output", "stop_command", "run_tests"],
  terminal: ["execute", "command_output", "stop_command", "run_tests"],
  fetch: ["web_fetch"],
  web: ["web_fetch"],
  runtests: ["run_tests"],
  todos: ["write_todos"],
  todo: ["write_todos"],
  agent: ["task"],
  runsubagent: ["task"],
};

/** Fathom tool names for `names` as an agent or prompt file writes them; Fathom's own names pass as they are. */
export function mapToolNames(names: readonly string[]): { tools: string[]; unknown: string[] } {
  const tools = new Set<string>();
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw
      .trim()
      .replace(/\(.*\)$/, "")
      .trim(); // Claude's `Bash(git diff:*)`: the tool, not the pattern
    if (!name) continue;
    const mapped =
      FATHOM_TOOLS.has(name) || name.startsWith("mcp__")
        ? [name]
        : TOOL_NAMES[name.toLowerCase().replace(/[^a-z]/g, "")];
    if (mapped) for (const t of mapped) tools.add(t);
    else unknown.push(name);
  }
  // A command left running is read and stopped with these, and tests run as a command: they come with `execute`.
  if (tools.has("execute")) for (const t of ["command_output", "stop_command", "run_tests"]) tools.add(t);
  return { tools: [...tools], unknown };
}

/** Fathom's own tool names (a list may use them directly). */
const FATHOM_TOOLS = new Set([
  "ls",
  "read_file",
  "write_file",
  "edit_file",
  "glob",
  "grep",
  "execute",
  "run_tests",
  "command_output",
  "stop_command",
  "write_todos",
  "task",
  "load_skill",
  "find_tools",
  "web_fetch",
  "ask_user",
]);

type Parsed = { agent: AgentDefinition; problems: TeamFileProblem[] } | { problems: TeamFileProblem[] };

/**
 * A custom agent: `.github/agents/NAME.agent.md` (Copilot: `name`, `description`, `tools`,
 * `model`), `.claude/agents/NAME.md` (Claude Code: `name` and `description` required, `tools`
 * as a comma-separated list, `model`), or the person's own. The body is its instructions.
 */
export function parseAgentFile(text: string, file: TeamFileRef, format: AgentFormat, fileName: string): Parsed {
  const skip = (message: string, line?: number): Parsed => ({
    problems: [{ kind: "agents", file: file.label, ...(line ? { line } : {}), message: `skipped: ${message}` }],
  });
  const fm = parseFrontMatter(text);
  if (fm.problem) return skip(fm.problem.message, fm.problem.line);
  const d = fm.data;
  const name =
    (typeof d.name === "string" ? d.name.trim() : "") || fileName.replace(/\.agent\.md$/i, "").replace(/\.md$/i, "");
  const why = badName(name, /^[A-Za-z0-9][A-Za-z0-9_.-]*$/);
  if (why) return skip(why);
  if (RESERVED.has(name.toLowerCase())) return skip(`"${name}" is the name of Fathom's own agent`);
  const description = textValue(d.description, 500);
  if (!description) return skip("it has no description (the model picks agents by their descriptions)");
  let instructions = fm.body.trim();
  const problems: TeamFileProblem[] = [];
  if (instructions.length > MAX_INSTRUCTIONS) {
    instructions = `${instructions.slice(0, MAX_INSTRUCTIONS)}\n[... the rest of ${file.label} is not used ...]`;
    problems.push({
      kind: "agents",
      file: file.label,
      message: `its instructions are cut at ${MAX_INSTRUCTIONS.toLocaleString("en-US")} characters`,
      note: true,
    });
  }
  const listed = listValue(d.tools);
  const mapped = listed ? mapToolNames(listed) : undefined;
  if (mapped?.unknown.length)
    problems.push({
      kind: "agents",
      file: file.label,
      message: `Fathom has no tool for ${mapped.unknown.join(", ")}; the agent works without ${mapped.unknown.length > 1 ? "them" : "it"}`,
      note: true,
    });
  const model = textValue(d.model, 200) ?? listValue(d.model)?.[0];
  return {
    agent: {
      name,
      description,
      file,
      format,
      instructions,
      ...(mapped ? { tools: mapped.tools } : {}),
      unknownTools: mapped?.unknown ?? [],
      ...(model ? { model } : {}),
    },
    problems,
  };
}
