import type { ProblemEntry } from "./problems";

/**
 * What a language server knows about the code, as plain values: the interface the code
 * intelligence tools (../middleware/codeIntelligence.ts) stand on. The host answers from VS
 * Code's providers (`src/host/codeIntel/`); the CLI, the ACP agent and the Action from language
 * servers the run starts (`./lsp/`), where one is installed.
 *
 * Positions are 1-based lines and 1-based columns counted in UTF-16 code units (a JavaScript
 * string's index plus one), as everywhere else in Fathom. Paths are the agent's virtual paths
 * (`/src/a.ts`). A place outside the workspace has no path, only `outside`: a short label (a
 * file name) that informs the model and can never be read through these tools. A language
 * server is a stranger: what it answers is shown, never trusted to widen what may be read or written.
 */
export interface CodeIntelligence {
  /** Who answers, as the tools say it ("VS Code's language features"). */
  readonly label: string;
  definitions(at: CodePosition, signal?: AbortSignal): Promise<Answer<CodeLocation[]>>;
  references(at: CodePosition, signal?: AbortSignal): Promise<Answer<CodeLocation[]>>;
  documentSymbols(path: string, signal?: AbortSignal): Promise<Answer<CodeSymbol[]>>;
  workspaceSymbols(query: string, signal?: AbortSignal): Promise<Answer<CodeSymbol[]>>;
  /** The hover's parts (markdown), as the editor would show them. */
  hover(at: CodePosition, signal?: AbortSignal): Promise<Answer<string[]>>;
  /** The edits a rename makes, per file; nothing is applied. */
  rename(at: CodePosition, newName: string, signal?: AbortSignal): Promise<Answer<RenameEdits>>;
  /** The workspace's current errors, warnings, information and hints (what the Problems view lists). */
  problems(signal?: AbortSignal): Promise<Answer<ProblemEntry[]>>;
  /** What `problems()` covers when it is not the whole workspace (a server that checks only the files it was given). */
  problemsScope?(): string;
}

/** A value, or an error written for the model (a provider failed, no provider for the language). */
export type Answer<T> = T | { error: string };

export interface CodePosition {
  path: string;
  line: number;
  column: number;
}

/** A file a language server named: a workspace file's virtual path, or a label for one outside it. */
export type CodeFile = { path: string; outside?: undefined } | { path?: undefined; outside: string };

/** A place: where it starts (1-based), and where it ends when known. */
export type CodeLocation = CodeFile & {
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
};

/** A declaration: `line`/`column` is its name when known, `endLine` the end of the whole declaration. */
export type CodeSymbol = CodeLocation & {
  name: string;
  /** Lower-case kind: `class`, `function`, `method`, `variable`… */
  kind: string;
  /** The signature or type, as the server gives it. */
  detail?: string;
  /** The enclosing declaration's name (workspace symbols). */
  container?: string;
  children?: CodeSymbol[];
};

/** Replace the text from (line, column) up to (endLine, endColumn) with `newText`. */
export interface TextEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  newText: string;
}

export interface RenameEdits {
  files: (CodeFile & { edits: TextEdit[] })[];
  /** What the server asked for that is not done (renaming or creating files). */
  skipped?: string[];
}

/**
 * Symbol kinds' names in their order: index `kind` of VS Code's 0-based `SymbolKind`, index
 * `kind - 1` of LSP's 1-based one.
 */
export const SYMBOL_KIND_NAMES: readonly string[] = [
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

export function isAnswerError<T>(value: Answer<T>): value is { error: string } {
  return typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string";
}
