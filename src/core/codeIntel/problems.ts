/**
 * Problems (a language server's errors and warnings) as plain values and as the model reads
 * them: the one text the "Add Problems to Chat" chip, `@problems` and `get_problems` share.
 */

export type Severity = "error" | "warning" | "info" | "hint";

export interface ProblemEntry {
  /** Virtual path (`/src/a.ts`). */
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  endLine?: number;
  severity: Severity;
  message: string;
  source?: string;
  code?: string;
}

/** Most characters of one problem's message. */
const MAX_PROBLEM_MESSAGE = 500;

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Errors first, then warnings (then the rest), by file, line and column. */
export function sortProblems(entries: readonly ProblemEntry[]): ProblemEntry[] {
  return [...entries].sort(
    (a, b) =>
      RANK[a.severity] - RANK[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column,
  );
}

/** `/src/a.ts:12:5 error TS2322 (ts): Type 'string' is not assignable to type 'number'.` */
export function problemLine(e: ProblemEntry): string {
  const where = `${e.path}:${e.line}:${e.column}${e.endLine !== undefined && e.endLine !== e.line ? `-${e.endLine}` : ""}`;
  const code = e.code ? ` ${e.code}` : "";
  const source = e.source ? ` (${e.source})` : "";
  const message = e.message.length > MAX_PROBLEM_MESSAGE ? `${e.message.slice(0, MAX_PROBLEM_MESSAGE)}…` : e.message;
  return `${where} ${e.severity}${code}${source}: ${message.replace(/\s*\n\s*/g, " ")}`;
}

/** "2 errors, 1 warning" (or "3 problems" when there are neither). */
export function problemCounts(entries: readonly ProblemEntry[]): string {
  const errors = entries.filter((e) => e.severity === "error").length;
  const warnings = entries.filter((e) => e.severity === "warning").length;
  return (
    [
      errors ? `${errors} error${errors > 1 ? "s" : ""}` : "",
      warnings ? `${warnings} warning${warnings > 1 ? "s" : ""}` : "",
    ]
      .filter(Boolean)
      .join(", ") || `${entries.length} problem${entries.length > 1 ? "s" : ""}`
  );
}
