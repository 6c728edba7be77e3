import * as nodePath from "node:path";
import { realpathSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type * as lsp from "vscode-languageserver-protocol";
import { isInside, toVirtual } from "../../backends/pathGuard";
import type { ProblemEntry, Severity } from "../problems";
import {
  SYMBOL_KIND_NAMES,
  type CodeFile,
  type CodeLocation,
  type CodeSymbol,
  type RenameEdits,
  type TextEdit,
} from "../codeIntelligence";

/**
 * A language server's answers as the core's plain values: LSP's 0-based lines and UTF-16
 * columns become Fathom's 1-based ones, its file URIs the agent's virtual paths. A URI outside
 * the workspace (a library's typings, the standard library) keeps only its file name: a label.
 */
export class LspPlaces {
  private readonly roots: string[];

  constructor(readonly root: string) {
    let real = root;
    try {
      real = realpathSync(root);
    } catch {
      // A root that cannot be resolved is compared as given.
    }
    this.roots = real === root ? [root] : [root, real];
  }

  /** The file URI of a virtual path (`/src/a.ts`). */
  uriOf(path: string): string {
    return pathToFileURL(nodePath.join(this.root, path)).href;
  }

  fileOf(uri: string): CodeFile {
    let file: string;
    try {
      file = fileURLToPath(uri);
    } catch {
      const name = uri.split(/[/\\]/).pop() || uri;
      return { outside: `${name} (${uri.split(":")[0]})` };
    }
    for (const root of this.roots) if (isInside(root, file)) return { path: toVirtual(root, file) };
    return { outside: nodePath.basename(file) };
  }

  locationOf(l: lsp.Location | lsp.LocationLink): CodeLocation {
    if ("targetUri" in l) return { ...this.fileOf(l.targetUri), ...rangeOf(l.targetSelectionRange ?? l.targetRange) };
    return { ...this.fileOf(l.uri), ...rangeOf(l.range) };
  }

  /** A definition answer: one location, several, or links. */
  locationsOf(found: lsp.Definition | lsp.LocationLink[] | lsp.Location[] | null | undefined): CodeLocation[] {
    if (!found) return [];
    return (Array.isArray(found) ? found : [found]).map((l) => this.locationOf(l));
  }

  /** A document symbol (its name's range, its whole range's end) or a symbol information (its range). */
  symbolOf(s: lsp.DocumentSymbol | lsp.SymbolInformation | lsp.WorkspaceSymbol, file?: CodeFile): CodeSymbol {
    const kind = SYMBOL_KIND_NAMES[s.kind - 1] ?? "symbol";
    if ("selectionRange" in s) {
      const name = rangeOf(s.selectionRange);
      return {
        ...(file ?? { outside: "?" }),
        name: s.name,
        kind,
        line: name.line,
        column: name.column,
        endLine: s.range.end.line + 1,
        ...(s.detail ? { detail: s.detail } : {}),
        ...(s.children?.length ? { children: s.children.map((c) => this.symbolOf(c, file)) } : {}),
      };
    }
    const where = s.location;
    const range = "range" in where ? rangeOf(where.range) : { line: 1, column: 1 };
    return {
      ...(file ?? this.fileOf(where.uri)),
      name: s.name,
      kind,
      ...range,
      ...(s.containerName ? { container: s.containerName } : {}),
    };
  }

  /** A rename's WorkspaceEdit: text edits per file; file operations are not done, only named. */
  renameOf(edit: lsp.WorkspaceEdit | null | undefined): RenameEdits {
    if (!edit) return { files: [] };
    const byUri = new Map<string, TextEdit[]>();
    const skipped: string[] = [];
    const add = (uri: string, edits: readonly (lsp.TextEdit | lsp.AnnotatedTextEdit | lsp.SnippetTextEdit)[]) =>
      byUri.set(uri, [
        ...(byUri.get(uri) ?? []),
        ...edits.map((e) => ({ ...rangeOf(e.range), newText: "snippet" in e ? e.snippet.value : e.newText })),
      ]);
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
    for (const change of edit.documentChanges ?? []) {
      if ("textDocument" in change) add(change.textDocument.uri, change.edits);
      else skipped.push(fileOperation(change, this));
    }
    const files = [...byUri].map(([uri, edits]) => ({ ...this.fileOf(uri), edits }));
    return skipped.length ? { files, skipped } : { files };
  }

  problemOf(uri: string, d: lsp.Diagnostic): ProblemEntry | undefined {
    const file = this.fileOf(uri);
    if (file.path === undefined) return undefined;
    const code = d.code === undefined ? undefined : String(d.code);
    return {
      path: file.path,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      endLine: d.range.end.line + 1,
      severity: SEVERITIES[(d.severity ?? 1) - 1] ?? "error",
      message: typeof d.message === "string" ? d.message : d.message.value,
      ...(d.source ? { source: d.source } : {}),
      ...(code ? { code } : {}),
    };
  }
}

const SEVERITIES: readonly Severity[] = ["error", "warning", "info", "hint"];

function rangeOf(range: lsp.Range): { line: number; column: number; endLine: number; endColumn: number } {
  return {
    line: range.start.line + 1,
    column: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

function fileOperation(op: lsp.CreateFile | lsp.RenameFile | lsp.DeleteFile, places: LspPlaces): string {
  const name = (uri: string) => {
    const f = places.fileOf(uri);
    return f.path ?? f.outside;
  };
  if (op.kind === "rename") return `rename the file ${name(op.oldUri)} to ${name(op.newUri)}`;
  return `${op.kind} the file ${name(op.uri)}`;
}

/** A hover's contents as markdown parts. */
export function hoverParts(hover: lsp.Hover | null | undefined): string[] {
  if (!hover) return [];
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts.map((p) => {
    if (typeof p === "string") return p;
    if ("language" in p) return `\`\`\`${p.language}\n${p.value}\n\`\`\``;
    return p.value;
  });
}
