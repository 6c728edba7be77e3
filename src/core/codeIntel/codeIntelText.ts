import type { CodeLocation, CodeSymbol } from "./codeIntelligence";
import type { FileView } from "./fileView";

/** Caps of what one result lists; each is said in the text when reached. */
export const CODE_INTEL_CAPS = {
  /** Locations (references, definitions) listed. */
  locations: 100,
  /** Files whose lines are read for context, per call. */
  files: 40,
  /** Symbols listed (document, workspace). */
  symbols: 200,
  /** Characters of one context line. */
  lineChars: 160,
  /** Characters of a hover. */
  hoverChars: 4000,
  /** Problems listed. */
  problems: 100,
} as const;

function oneLine(text: string, max: number = CODE_INTEL_CAPS.lineChars): string {
  const t = text.trim().replace(/\s+/g, " ");
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** One place per position, sorted by file then position. */
function unique(locations: readonly CodeLocation[]): CodeLocation[] {
  const seen = new Set<string>();
  const out: CodeLocation[] = [];
  for (const l of locations) {
    const key = `${l.path ?? `\0${l.outside}`}:${l.line}:${l.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(l);
  }
  return out.sort(
    (a, b) =>
      (a.path ?? `\uffff${a.outside}`).localeCompare(b.path ?? `\uffff${b.outside}`) ||
      a.line - b.line ||
      a.column - b.column,
  );
}

/** A note on places outside the workspace: they are named, never readable through these tools. */
function outsideNote(outside: readonly CodeLocation[]): string | undefined {
  if (outside.length === 0) return undefined;
  const labels = [...new Set(outside.map((l) => l.outside!))];
  const named = labels.slice(0, 3).join(", ") + (labels.length > 3 ? ", …" : "");
  return `(${plural(outside.length, "place")} outside the workspace, not shown: ${named}. Only workspace files can be read.)`;
}

/**
 * Places grouped by file, each with its line as context: `  12:5: const x = foo();`. At most
 * CODE_INTEL_CAPS.locations places and .files files; files the agent may not read (ignored,
 * refused, secret) are counted, not shown.
 */
export async function formatLocations(
  all: readonly CodeLocation[],
  view: FileView,
  head: (shown: string) => string,
): Promise<{ text: string; count: number }> {
  const places = unique(all);
  const inside = places.filter((l) => l.path !== undefined);
  const outside = places.filter((l) => l.path === undefined);
  const lines: string[] = [];
  const hidden: string[] = [];
  let shown = 0;
  let files = 0;
  let cut = 0;
  let current: string | undefined;
  for (const l of inside) {
    const path = l.path!;
    if (shown >= CODE_INTEL_CAPS.locations || (path !== current && files >= CODE_INTEL_CAPS.files)) {
      cut++;
      continue;
    }
    const sight = await view.sight(path);
    if ("hidden" in sight) {
      hidden.push(path);
      continue;
    }
    if (path !== current) {
      lines.push(path);
      current = path;
      files++;
    }
    const text = sight.lines.line(l.line);
    lines.push(`  ${l.line}:${l.column}: ${text === undefined ? "(past the file's end on disk)" : oneLine(text)}`);
    shown++;
  }
  if (cut) lines.push(`(${plural(cut, "more place")} not listed: the first ${shown} are shown.)`);
  const hiddenFiles = [...new Set(hidden)];
  if (hiddenFiles.length)
    lines.push(
      `(${plural(hidden.length, "place")} in ${plural(hiddenFiles.length, "file")} you may not read without asking, not shown: ${hiddenFiles.slice(0, 3).join(", ")}${hiddenFiles.length > 3 ? ", …" : ""}.)`,
    );
  const note = outsideNote(outside);
  if (note) lines.push(note);
  const summary =
    `${plural(shown, "place")}` + (files > 1 ? ` in ${plural(files, "file")}` : files === 1 ? ` in ${current}` : "");
  return { text: `${head(summary)}\n${lines.join("\n")}`.trimEnd(), count: shown };
}

/** A symbol's one line: `class Greeter — lines 3-20` or `method greet(name: string) — line 5`. */
function symbolLine(s: CodeSymbol, where: string): string {
  const detail = s.detail ? ` ${oneLine(s.detail, 80)}` : "";
  return `${s.kind} ${s.name}${detail} — ${where}`;
}

function lineSpan(s: CodeSymbol): string {
  return s.endLine !== undefined && s.endLine > s.line ? `lines ${s.line}-${s.endLine}` : `line ${s.line}`;
}

/** A file's symbols as an indented tree, at most CODE_INTEL_CAPS.symbols lines. */
export function formatDocumentSymbols(path: string, symbols: readonly CodeSymbol[]): string {
  const lines: string[] = [];
  let total = 0;
  const walk = (list: readonly CodeSymbol[], depth: number) => {
    for (const s of [...list].sort((a, b) => a.line - b.line || a.column - b.column)) {
      total++;
      if (lines.length < CODE_INTEL_CAPS.symbols) lines.push(`${"  ".repeat(depth)}${symbolLine(s, lineSpan(s))}`);
      if (s.children) walk(s.children, depth + 1);
    }
  };
  walk(symbols, 0);
  if (total === 0) return `No symbols in ${path} (the language server found no declarations).`;
  if (total > lines.length) lines.push(`(${total - lines.length} more not listed.)`);
  return `Symbols in ${path} (${total}):\n${lines.join("\n")}`;
}

/** Workspace symbols with their places; those outside the workspace or in files the agent may not read are counted only. */
export async function formatWorkspaceSymbols(
  query: string,
  symbols: readonly CodeSymbol[],
  view: FileView,
): Promise<string> {
  const lines: string[] = [];
  const outside: CodeLocation[] = [];
  let hidden = 0;
  let cut = 0;
  let checked = 0;
  for (const s of symbols) {
    if (s.path === undefined) {
      outside.push(s);
      continue;
    }
    if (lines.length >= CODE_INTEL_CAPS.symbols || checked >= CODE_INTEL_CAPS.symbols) {
      cut++;
      continue;
    }
    checked++;
    if ("hidden" in (await view.sight(s.path))) {
      hidden++;
      continue;
    }
    const container = s.container ? ` (in ${s.container})` : "";
    lines.push(symbolLine(s, `${s.path}:${s.line}:${s.column}${container}`));
  }
  if (lines.length === 0 && outside.length === 0 && hidden === 0)
    return `No symbols match "${query}". Try a shorter or different part of the name, or grep.`;
  if (cut) lines.push(`(${cut} more not listed: narrow the query.)`);
  if (hidden) lines.push(`(${plural(hidden, "symbol")} in files you may not read without asking, not shown.)`);
  const note = outsideNote(outside);
  if (note) lines.push(note);
  return `Symbols matching "${query}":\n${lines.join("\n")}`;
}

/** A hover's parts, joined and capped. */
export function formatHover(where: string, parts: readonly string[]): string {
  const text = parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join("\n\n---\n\n");
  if (!text) return `Nothing to show at ${where} (no type or documentation there).`;
  const capped =
    text.length > CODE_INTEL_CAPS.hoverChars
      ? `${text.slice(0, CODE_INTEL_CAPS.hoverChars)}\n(cut at ${CODE_INTEL_CAPS.hoverChars} characters)`
      : text;
  return `At ${where}:\n${capped}`;
}
