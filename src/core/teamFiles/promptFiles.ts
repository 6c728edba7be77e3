import { listValue, parseFrontMatter, textValue } from "./frontMatter";
import { expandIncludes, type ReadInclude } from "./includes";
import { badName, type CommandFormat, type PromptCommand, type TeamFileProblem, type TeamFileRef } from "./types";

/** Characters of a prompt file's body used. */
export const MAX_PROMPT_CHARS = 40_000;

type Parsed = { command: PromptCommand; problems: TeamFileProblem[] } | { problems: TeamFileProblem[] };

/**
 * A prompt file as a slash command: `.github/prompts/NAME.prompt.md` (Copilot: `description`,
 * `argument-hint`, `agent`/`mode`, `model`, `tools`), `.claude/commands/NAME.md` (Claude Code:
 * `description`, `argument-hint`, `allowed-tools`, `model`), `.clinerules/workflows/NAME.md`
 * (Cline: plain Markdown), and the person's `~/.config/fathom/prompts/NAME.md` (either header).
 */
export function parsePromptFile(text: string, file: TeamFileRef, format: CommandFormat, fileName: string): Parsed {
  const name = commandName(fileName, format);
  const why = badName(name);
  if (why) return { problems: [{ kind: "commands", file: file.label, message: `skipped: ${why}` }] };
  const fm = parseFrontMatter(text, { lenient: true });
  if (fm.problem)
    return {
      problems: [
        { kind: "commands", file: file.label, line: fm.problem.line, message: `skipped: ${fm.problem.message}` },
      ],
    };
  const d = fm.data;
  const problems: TeamFileProblem[] = [];
  let body = fm.body.trim();
  if (!body) return { problems: [{ kind: "commands", file: file.label, message: "skipped: it has no prompt text" }] };
  if (body.length > MAX_PROMPT_CHARS) {
    body = `${body.slice(0, MAX_PROMPT_CHARS)}\n[... the rest of ${file.label} is not sent (${MAX_PROMPT_CHARS.toLocaleString("en-US")} characters per prompt file) ...]`;
    problems.push({
      kind: "commands",
      file: file.label,
      message: `is too long; only its first ${MAX_PROMPT_CHARS.toLocaleString("en-US")} characters are sent`,
      note: true,
    });
  }
  if (format === "claude-command" && /(^|\s)!`[^`]+`/.test(body)) {
    problems.push({
      kind: "commands",
      file: file.label,
      message:
        "its !`command` lines are not run (a prompt file cannot run programs in Fathom); the model reads them as text",
      note: true,
    });
  }
  const description = textValue(d.description, 300) ?? firstLine(body);
  const tools = listValue(d.tools ?? d["allowed-tools"]);
  const command: PromptCommand = {
    name,
    description,
    file,
    format,
    body,
    ...(textValue(d["argument-hint"], 200) ? { argumentHint: textValue(d["argument-hint"], 200)! } : {}),
    ...((textValue(d.model, 200) ?? listValue(d.model)?.[0])
      ? { model: textValue(d.model, 200) ?? listValue(d.model)![0]! }
      : {}),
    ...(textValue(d.agent ?? d.mode, 100) ? { agent: textValue(d.agent ?? d.mode, 100)! } : {}),
    ...(tools?.length ? { tools } : {}),
  };
  return { command, problems };
}

export function commandName(fileName: string, format: CommandFormat): string {
  if (format === "copilot-prompt") return fileName.replace(/\.prompt\.md$/i, "");
  return fileName.replace(/\.prompt\.md$/i, "").replace(/\.md$/i, "");
}

/** A description for a file that gives none: its first heading or line. */
function firstLine(body: string): string {
  const line = body.split("\n").find((l) => l.trim()) ?? "";
  const text = line.replace(/^#+\s*/, "").trim();
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** `${input:name}` and `${input:name:placeholder}` a command asks the person for, in order. */
export function commandInputs(command: PromptCommand): { name: string; placeholder?: string }[] {
  const seen = new Map<string, string | undefined>();
  for (const m of command.body.matchAll(/\$\{input:([A-Za-z_][\w-]*)(?::([^}]*))?\}/g)) {
    if (!seen.has(m[1]!)) seen.set(m[1]!, m[2]?.trim() || undefined);
  }
  return [...seen].map(([name, placeholder]) => (placeholder ? { name, placeholder } : { name }));
}

/** What the editor gives a command (`${selection}`, `${file}`): absent fields say "nothing there". */
export interface EditorContext {
  /** The active file's virtual path (`/src/a.ts`). */
  file?: string;
  selection?: string;
  /** The workspace's folder on disk. */
  workspaceFolder?: string;
}

/**
 * The message a command sends: its body with `$ARGUMENTS` / `$1…$9` (Claude), `${input:x}`
 * (Copilot: from `inputs`, or `x=value` in the arguments), `${selection}`, `${file}` and
 * `${workspaceFolder}` filled in, and `@file` imports read (Claude's commands, the person's own).
 * A body with no argument placeholder gets the arguments after it.
 */
export async function expandCommand(
  command: PromptCommand,
  args: string,
  o: { inputs?: Record<string, string>; editor?: EditorContext; readInclude?: ReadInclude } = {},
): Promise<{ text: string; notes: string[] }> {
  const notes: string[] = [];
  const inputs = { ...(o.inputs ?? {}) };
  const rest: string[] = [];
  const wanted = new Set(commandInputs(command).map((i) => i.name));
  for (const word of splitArgs(args)) {
    const kv = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(word);
    if (kv && wanted.has(kv[1]!) && inputs[kv[1]!] === undefined) inputs[kv[1]!] = kv[2]!;
    else rest.push(word);
  }
  const restLine = rest.length === splitArgs(args).length ? args.trim() : rest.join(" ");
  const editor = o.editor ?? {};
  const file = editor.file;
  const base = file ? file.slice(file.lastIndexOf("/") + 1) : undefined;
  const variables: Record<string, string | undefined> = {
    selection: editor.selection,
    selectedText: editor.selection,
    file,
    fileBasename: base,
    fileBasenameNoExtension: base?.replace(/\.[^.]*$/, ""),
    fileDirname: file ? file.slice(0, file.lastIndexOf("/")) || "/" : undefined,
    workspaceFolder: editor.workspaceFolder,
    workspaceFolderBasename: editor.workspaceFolder?.split(/[\\/]/).filter(Boolean).pop(),
  };
  let usedArgs = false;
  let text = command.body.replace(
    /\$\{(input:([A-Za-z_][\w-]*)(?::[^}]*)?|[A-Za-z]+)\}/g,
    (whole, inner: string, inputName: string | undefined) => {
      if (inputName !== undefined) {
        const value = inputs[inputName];
        if (value === undefined) notes.push(`nothing was given for \${input:${inputName}}`);
        return value ?? "";
      }
      if (!(inner in variables)) return whole;
      const value = variables[inner];
      if (value === undefined)
        notes.push(`\${${inner}}: ${inner.startsWith("select") ? "nothing is selected" : "no file is open"}`);
      return value ?? "";
    },
  );
  const positional = splitArgs(restLine);
  text = text.replace(/\$ARGUMENTS\b|\$([1-9])\b/g, (whole, n: string | undefined) => {
    usedArgs = true;
    return n === undefined ? restLine : (positional[Number(n) - 1] ?? "");
  });
  if (!usedArgs && restLine) text = `${text}\n\n${restLine}`;
  if (
    o.readInclude &&
    command.file.path &&
    (command.format === "claude-command" || command.format === "fathom-prompt")
  ) {
    const included = await expandIncludes(text, command.file.path, o.readInclude, { fromRoot: true });
    text = included.text;
    notes.push(...included.notes);
  }
  return { text: text.trim(), notes };
}

/** Words as a shell splits them (quotes group, backslash escapes). */
export function splitArgs(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | null = null;
  let any = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      any = true;
    } else if (/\s/.test(c)) {
      if (word || any) words.push(word);
      word = "";
      any = false;
    } else word += c;
  }
  if (word || any) words.push(word);
  return words;
}
