import { linesLabel } from "../../core";

/**
 * A tool call in words, for the card's title: "Reading /src/app.ts", "Running `npm test`".
 * `args` may be partial or missing while the call streams; the title then says less.
 */

type Args = Record<string, unknown>;

function str(args: Args, key: string): string | undefined {
  const value = args[key];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function oneLine(text: string, max = 80): string {
  // A line break stays visible (↵): a command on two lines must not read as one.
  const line = text
    .trim()
    .replace(/\s*\n\s*/g, " ↵ ")
    .replace(/[ \t\f\v]+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function code(text: string): string {
  return `\`${oneLine(text).replace(/`/g, "'")}\``;
}

export function toolTitle(toolName: string, rawArgs: unknown): string {
  const args: Args = rawArgs !== null && typeof rawArgs === "object" ? (rawArgs as Args) : {};
  const path = str(args, "file_path") ?? str(args, "path");
  switch (toolName) {
    case "ls":
      return `Listing ${path ?? "/"}`;
    case "read_file":
      return path ? `Reading ${path}` : "Reading a file";
    case "write_file":
      return path ? `Writing ${path}` : "Writing a file";
    case "edit_file":
      return path ? `Editing ${path}` : "Editing a file";
    case "edit_selection": {
      const [start, end] = [args.start_line, args.end_line];
      const lines =
        typeof start === "number" && typeof end === "number" ? linesLabel(start, end) : "the selected lines";
      return path ? `Editing ${lines} of ${path}` : "Editing the selection";
    }
    case "glob": {
      const pattern = str(args, "pattern");
      return pattern
        ? `Finding files matching ${code(pattern)}${path && path !== "/" ? ` in ${path}` : ""}`
        : "Finding files";
    }
    case "grep": {
      const pattern = str(args, "pattern");
      return pattern ? `Searching for ${code(pattern)}${path && path !== "/" ? ` in ${path}` : ""}` : "Searching";
    }
    case "execute": {
      const command = str(args, "command");
      return command ? `Running ${code(command)}` : "Running a command";
    }
    case "run_tests": {
      const pattern = str(args, "pattern");
      return pattern ? `Running the tests matching ${code(pattern)}` : "Running the tests";
    }
    case "write_todos":
      return "Updating the todo list";
    case "find_definition":
    case "find_references":
    case "hover": {
      const what = { find_definition: "the definition of", find_references: "references to", hover: "the type of" }[
        toolName
      ];
      const symbol = str(args, "symbol");
      const at = typeof args.line === "number" ? `${path ?? "a file"}:${args.line}` : (path ?? "a file");
      return `Finding ${what} ${symbol ? `${code(symbol)} in ${at}` : at}`;
    }
    case "document_symbols":
      return path ? `Listing the symbols of ${path}` : "Listing a file's symbols";
    case "workspace_symbols": {
      const query = str(args, "query");
      return query ? `Finding symbols named ${code(query)}` : "Finding symbols";
    }
    case "get_problems":
      return `Reading the problems${path && path !== "/" ? ` in ${path}` : ""}`;
    case "rename_symbol": {
      const [symbol, to] = [str(args, "symbol"), str(args, "new_name")];
      const what = symbol ? code(symbol) : path ? `a symbol in ${path}` : "a symbol";
      return to ? `Renaming ${what} to ${code(to)}` : `Renaming ${what}`;
    }
    case "rename_in_file": {
      const [from, to] = [str(args, "old_name"), str(args, "new_name")];
      const what = from && to ? `${code(from)} to ${code(to)}` : "a symbol";
      return path ? `Renaming ${what} in ${path}` : `Renaming ${what}`;
    }
    case "web_fetch": {
      const url = str(args, "url");
      return url ? `Fetching ${code(oneLine(url, 100))}` : "Fetching a web page";
    }
    case "report_finding": {
      // A review's finding (core/review/): its place and title, as the summary lists it.
      const [file, title] = [str(args, "file"), str(args, "title")];
      const place = file && typeof args.line === "number" ? `${file}:${args.line}` : file;
      const what = typeof args.severity === "string" ? `a ${args.severity}` : "a finding";
      return place ? `Reporting ${what} at ${place}${title ? `: ${oneLine(title, 60)}` : ""}` : "Reporting a finding";
    }
    case "ask_user": {
      const question = str(args, "question");
      return question ? `Asking you: ${oneLine(question, 80)}` : "Asking you a question";
    }
    case "task": {
      const type = str(args, "subagent_type");
      const description = str(args, "description");
      const who = type ? `the ${type} subagent` : "a subagent";
      return description ? `Asking ${who}: ${oneLine(description, 60)}` : `Asking ${who}`;
    }
    default: {
      const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
      return mcp ? `Calling ${mcp[2]} on the MCP server ${mcp[1]}` : `Using ${toolName}`;
    }
  }
}

/** Parses streamed argument JSON; undefined while it is incomplete. */
export function parseArgs(text: string): Args | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Args) : undefined;
  } catch {
    return undefined;
  }
}

export function prettyArgs(args: unknown): string {
  if (args === undefined) return "";
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

/** Most characters of a tool result a card keeps. */
export const MAX_CARD_RESULT_CHARS = 20_000;

/** The command of an `execute` call's arguments. */
export function commandOf(args: unknown): string | undefined {
  const command = args !== null && typeof args === "object" ? (args as Record<string, unknown>).command : undefined;
  return typeof command === "string" ? command : undefined;
}

/** A tool result as its card keeps it. */
export function capResult(text: string): string {
  return text.length > MAX_CARD_RESULT_CHARS
    ? `${text.slice(0, MAX_CARD_RESULT_CHARS)}\n… (${text.length - MAX_CARD_RESULT_CHARS} more characters)`
    : text;
}
