import type { CodeIntelligence, CodePosition, CodeSymbol } from "./codeIntelligence";
import { isAnswerError } from "./codeIntelligence";
import { wordColumns, type TextLines } from "./textPositions";

export interface PositionArgs {
  line?: number | undefined;
  column?: number | undefined;
  symbol?: string | undefined;
}

/** How far below a declaration's start its name is looked for (decorators, doc comments). */
const NAME_SEARCH_LINES = 30;

/**
 * Where the model means: its line and column, or a symbol's name (with its line when it knows
 * it). A name is found as a declaration among the file's symbols first (`Class.method` narrows
 * to a member), else as the first whole-word occurrence in the file's text. `note` says what
 * was chosen when the model gave no column.
 */
export async function resolvePosition(
  path: string,
  lines: TextLines,
  args: PositionArgs,
  intel: CodeIntelligence,
  signal?: AbortSignal,
): Promise<{ at: CodePosition; note?: string } | { error: string }> {
  const { line, column } = args;
  const symbol = args.symbol?.trim();
  if (line !== undefined && line > lines.lineCount)
    return { error: `${path} has ${lines.lineCount} lines; line ${line} is past its end.` };
  if (line !== undefined && column !== undefined) {
    if (lines.offset(line, column) === undefined)
      return {
        error: `Line ${line} of ${path} has ${lines.line(line)!.length} characters; column ${column} is past its end.`,
      };
    return { at: { path, line, column } };
  }
  if (!symbol)
    return {
      error:
        line === undefined
          ? "Give the position (line and column, 1-based) or the symbol's name (with its line if you know it)."
          : "Give the column (1-based) on that line, or the symbol's name.",
    };
  const name = symbol
    .split(/\.|::|#/)
    .pop()!
    .replace(/\(.*$/, "");
  if (line !== undefined) {
    const cols = wordColumns(lines.line(line)!, name);
    if (cols.length === 0)
      return { error: `\`${name}\` is not on line ${line} of ${path}, which reads: ${lines.line(line)!.trim()}` };
    return { at: { path, line, column: cols[0]! } };
  }
  const declared = await declarations(path, symbol, name, intel, signal);
  if (declared.length > 0) {
    const d = declared[0]!;
    const at = { path, ...nameIn(lines, d, name) };
    const others = declared.slice(1).map((s) => s.line);
    return {
      at,
      note:
        `Used the declaration of \`${symbol}\` at line ${at.line}, column ${at.column}` +
        (others.length ? ` (also declared at line ${others.slice(0, 5).join(", ")}: give line to choose).` : "."),
    };
  }
  for (let l = 1; l <= lines.lineCount; l++) {
    const cols = wordColumns(lines.line(l)!, name);
    if (cols.length)
      return {
        at: { path, line: l, column: cols[0]! },
        note: `\`${name}\` is not among the file's declarations; used its first occurrence, line ${l}, column ${cols[0]}.`,
      };
  }
  return {
    error: `\`${name}\` does not occur in ${path}. Use workspace_symbols to find where it is declared, or give line and column.`,
  };
}

/** The file's declarations named `name`, members of `symbol`'s qualifier first. */
async function declarations(
  path: string,
  symbol: string,
  name: string,
  intel: CodeIntelligence,
  signal?: AbortSignal,
): Promise<CodeSymbol[]> {
  const symbols = await intel.documentSymbols(path, signal);
  if (isAnswerError(symbols)) return [];
  const qualifier = symbol.includes(".") ? symbol.slice(0, symbol.lastIndexOf(".")).split(".").pop() : undefined;
  const found: { s: CodeSymbol; inQualifier: boolean }[] = [];
  const walk = (list: readonly CodeSymbol[], parents: string[]) => {
    for (const s of list) {
      const plain = s.name.replace(/\(.*$/, "");
      if (plain === name && s.outside === undefined)
        found.push({ s, inQualifier: qualifier !== undefined && [...parents, s.container].includes(qualifier) });
      if (s.children) walk(s.children, [...parents, s.name]);
    }
  };
  walk(symbols, []);
  found.sort((a, b) => Number(b.inQualifier) - Number(a.inQualifier) || a.s.line - b.s.line);
  return found.map((f) => f.s);
}

/** The name's own position: at the symbol's position when it is there, else the first in its declaration. */
function nameIn(lines: TextLines, s: CodeSymbol, name: string): { line: number; column: number } {
  const at = lines.line(s.line);
  if (at !== undefined && at.slice(s.column - 1).startsWith(name)) return { line: s.line, column: s.column };
  const last = Math.min(lines.lineCount, s.endLine ?? s.line, s.line + NAME_SEARCH_LINES);
  for (let l = s.line; l <= last; l++) {
    const cols = wordColumns(lines.line(l)!, name).filter((c) => l !== s.line || c >= s.column);
    if (cols.length) return { line: l, column: cols[0]! };
  }
  return { line: s.line, column: s.column };
}
