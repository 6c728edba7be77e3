import { yamlLib } from "../vendor/libraries";

/** Front matter longer than this is refused: no format needs more, and a parser should not chew on megabytes. */
export const MAX_FRONT_MATTER_CHARS = 16_000;
/** Aliases a front matter may expand (YAML's "billion laughs" is thousands of them nested). */
const MAX_ALIASES = 10;

export interface FrontMatterProblem {
  message: string;
  /** 1-based line in the file. */
  line?: number;
}

export interface FrontMatter {
  /** Keys and values (empty when there is none, or when it could not be read). */
  data: Record<string, unknown>;
  /** The text after the front matter. */
  body: string;
  /** Why the front matter was not read; a file whose format requires it is then skipped. */
  problem?: FrontMatterProblem;
  /** The file has a front matter block at all. */
  present: boolean;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /\r?\n---[ \t]*(?:\r?\n|$)/;

/** `---` fenced front matter and the body after it; nothing is parsed yet. */
export function splitFrontMatter(text: string): { yaml?: string; body: string; unclosed?: boolean } {
  const clean = text.replace(/^\uFEFF/, "");
  const open = OPEN.exec(clean);
  if (!open) return { body: clean };
  const rest = clean.slice(open[0].length);
  // An empty block (`---` right after `---`).
  if (/^---[ \t]*(?:\r?\n|$)/.test(rest)) return { yaml: "", body: rest.replace(/^---[ \t]*(?:\r?\n|$)/, "") };
  const close = CLOSE.exec(rest.slice(0, MAX_FRONT_MATTER_CHARS + 8));
  if (!close) return { body: clean, unclosed: true };
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) };
}

/**
 * Front matter read as YAML (the `yaml` package, with aliases capped and duplicate keys
 * refused). `lenient`: a value YAML cannot read (`globs: *.ts`, which YAML takes for an alias) is
 * read as the plain text after `key:`, as Cursor and VS Code read their own headers.
 */
export function parseFrontMatter(text: string, options: { lenient?: boolean } = {}): FrontMatter {
  const split = splitFrontMatter(text);
  if (split.unclosed) {
    return {
      data: {},
      body: split.body,
      present: true,
      problem: {
        message: `the front matter has no closing --- line in its first ${MAX_FRONT_MATTER_CHARS.toLocaleString("en-US")} characters`,
        line: 1,
      },
    };
  }
  if (split.yaml === undefined) return { data: {}, body: split.body, present: false };
  if (split.yaml.trim() === "") return { data: {}, body: split.body, present: true };
  const { parseDocument } = yamlLib();
  const doc = parseDocument(split.yaml, { prettyErrors: true, uniqueKeys: true, strict: true });
  const error = doc.errors[0];
  if (error) {
    const lines = options.lenient ? plainLines(split.yaml) : undefined;
    if (lines) return { data: lines, body: split.body, present: true };
    return {
      data: {},
      body: split.body,
      present: true,
      problem: {
        message: `invalid YAML front matter: ${firstLine(error.message)}`,
        line: (error.linePos?.[0].line ?? 0) + 1,
      },
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    return {
      data: {},
      body: split.body,
      present: true,
      problem: {
        message: `front matter refused: ${firstLine((e as Error).message)} (at most ${MAX_ALIASES} aliases)`,
        line: 2,
      },
    };
  }
  if (value === null || value === undefined) return { data: {}, body: split.body, present: true };
  if (typeof value !== "object" || Array.isArray(value)) {
    return {
      data: {},
      body: split.body,
      present: true,
      problem: { message: "the front matter must be key: value pairs", line: 2 },
    };
  }
  return { data: value as Record<string, unknown>, body: split.body, present: true };
}

/** `key: value` lines as text (quotes taken off); undefined when a line is anything else. */
function plainLines(yaml: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const line of yaml.split(/\r?\n/)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (!m) return undefined;
    data[m[1]!] = m[2]!.trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return data;
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.trim();
}

/** A front matter value as one line of text, or undefined. */
export function textValue(value: unknown, max = 2_000): string | undefined {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string") return undefined;
  const text = value.replace(/\s+/g, " ").trim();
  return text ? (text.length > max ? `${text.slice(0, max - 1)}…` : text) : undefined;
}

/** A front matter list: a YAML sequence, or text separated by commas. */
export function listValue(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.map((v) => textValue(v)).filter((v): v is string => v !== undefined);
  const text = textValue(value);
  if (text === undefined) return undefined;
  return text
    .replace(/^\[(.*)\]$/, "$1")
    .split(",")
    .map((part) => part.trim().replace(/^(["'])(.*)\1$/, "$2"))
    .filter(Boolean);
}

/** True for `true`, "true", "yes". */
export function flagValue(value: unknown): boolean {
  return value === true || (typeof value === "string" && /^(true|yes)$/i.test(value.trim()));
}
