/**
 * The pure parts of diff review: text comparisons, URIs of proposals, path mapping, and how
 * diagnostics are described to the model. No `vscode` import, so unit tests run them in Node.
 */

export const BOM = "\uFEFF";

export function hasBom(text: string): boolean {
  return text.startsWith(BOM);
}

export function stripBom(text: string): string {
  return hasBom(text) ? text.slice(1) : text;
}

export type EolStyle = "lf" | "crlf" | "mixed" | "none";

/** Which line endings a text uses (a lone `\r` counts as mixed: an editor cannot keep it). */
export function eolStyle(text: string): EolStyle {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  const cr = (text.match(/\r/g) ?? []).length - crlf;
  if (cr > 0 || (crlf > 0 && lf > 0)) return "mixed";
  if (crlf > 0) return "crlf";
  if (lf > 0) return "lf";
  return "none";
}

/** `text` with every line ending turned into `eol`. */
export function withEol(text: string, eol: "\n" | "\r\n"): string {
  return text.replace(/\r\n|\r|\n/g, eol);
}

/**
 * Whether an editor document's text (no BOM, line endings normalised to the document's) holds
 * the same content as `original` (exact file text). An editor normalises mixed line endings and
 * hides the BOM, so those differences alone do not count as a change.
 */
export function sameAsEditorText(original: string, editorText: string, editorEol: "\n" | "\r\n"): boolean {
  return withEol(stripBom(original), editorEol) === editorText;
}

/** Which side of a diff a proposal URI serves. */
export type ProposalSide = "before" | "after";

/**
 * The folder both sides' paths start with. package.json maps JavaScript and TypeScript files
 * under it to languages that only borrow their grammars (`fathom-review-js`, ...): the
 * TypeScript extension takes up every JS/TS document of a scheme it does not exclude, and doing
 * it for both sides of every diff tripled its work while the person waits for the card and the
 * diff. The right side gets its real language once the person puts the cursor in it.
 */
export const REVIEW_FOLDER = "/.fathom-review";

/** The real language each grammar-only language of a diff side stands for. */
export const REAL_LANGUAGE_OF: Readonly<Record<string, string>> = {
  "fathom-review-js": "javascript",
  "fathom-review-jsx": "javascriptreact",
  "fathom-review-ts": "typescript",
  "fathom-review-tsx": "typescriptreact",
};

/**
 * Path and query of a proposal URI: the path is the file's virtual path under REVIEW_FOLDER
 * (so the editor picks the highlighting and the breadcrumbs show the file), the query says
 * whose proposal and which side.
 */
export function proposalUriParts(
  toolCallId: string,
  side: ProposalSide,
  virtualPath: string,
): { path: string; query: string } {
  const path = REVIEW_FOLDER + "/" + virtualPath.replace(/^\/+/, "");
  return { path, query: new URLSearchParams({ side, id: toolCallId }).toString() };
}

export function parseProposalUri(query: string): { toolCallId: string; side: ProposalSide } | undefined {
  const q = new URLSearchParams(query);
  const side = q.get("side");
  const id = q.get("id");
  if (id === null || id === "" || (side !== "before" && side !== "after")) return undefined;
  return { toolCallId: id, side };
}

/** The diff editor's title: which file, and that the right side is Fathom's (editable) proposal. */
export function proposalTitle(virtualPath: string, isNewFile: boolean): string {
  const name = virtualPath.replace(/^\/+/, "") || virtualPath;
  return `${name} ↔ Fathom's proposal${isNewFile ? " (new file)" : ""} (editable)`;
}

export interface FolderLike {
  name: string;
  /** Absolute path of the folder on disk (for accepting real absolute paths). */
  fsPath: string;
}

/**
 * Which workspace folder a virtual path lies in, and its path relative to that folder. One
 * folder: `/` is its root. Several: the first segment names the folder (`/web/src/a.ts`).
 */
export function locateVirtualPath(
  virtualPath: string,
  folders: readonly FolderLike[],
): { folder: number; relative: string } | { error: string } {
  if (folders.length === 0) return { error: "No folder is open in VS Code, so there is no workspace to write to." };
  const parts = virtualPath.split("/").filter((s) => s !== "");
  if (folders.length === 1) return { folder: 0, relative: parts.join("/") };
  const first = parts[0];
  const index = folders.findIndex((f) => f.name === first);
  if (index < 0) {
    return {
      error: `'${virtualPath}' is not in a workspace folder; start the path with one of: ${folders.map((f) => `/${f.name}/`).join(", ")}`,
    };
  }
  return { folder: index, relative: parts.slice(1).join("/") };
}

/** A diagnostic as the model is told about it (positions 1-based). */
export interface DiagnosticFact {
  message: string;
  line: number;
  column: number;
  source?: string;
  code?: string;
}

const keyOf = (d: DiagnosticFact) => `${d.source ?? ""}\u0000${d.code ?? ""}\u0000${d.message}`;

/**
 * Errors in `after` that were not in `before`. Positions move when text is edited, so errors
 * are compared by source, code and message, counting repeats.
 */
export function newDiagnostics(before: readonly DiagnosticFact[], after: readonly DiagnosticFact[]): DiagnosticFact[] {
  const left = new Map<string, number>();
  for (const d of before) left.set(keyOf(d), (left.get(keyOf(d)) ?? 0) + 1);
  const out: DiagnosticFact[] = [];
  for (const d of after) {
    const k = keyOf(d);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(d);
  }
  return out;
}

/** The text appended to a tool result; `compared` says whether the errors were compared with before. */
export function describeDiagnostics(
  virtualPath: string,
  errors: readonly DiagnosticFact[],
  compared: boolean,
  max = 20,
): string {
  const head = compared
    ? `New errors the editor reports in ${virtualPath} after this change:`
    : `Errors the editor reports in ${virtualPath} after this change (the file was not open before, so some may be older than your change):`;
  const lines = errors.slice(0, max).map((d) => {
    const origin = [d.source, d.code].filter(Boolean).join(" ");
    return `- line ${d.line}, column ${d.column}: ${d.message.replace(/\s+/g, " ").trim()}${origin ? ` (${origin})` : ""}`;
  });
  if (errors.length > max) lines.push(`- … and ${errors.length - max} more.`);
  return `${head}\n${lines.join("\n")}\nFix them if your change caused them.`;
}
