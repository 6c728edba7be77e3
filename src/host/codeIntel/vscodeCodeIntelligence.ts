import * as vscode from "vscode";
import {
  isAnswerError,
  type Answer,
  type CodeFile,
  type CodeIntelligence,
  type CodeLocation,
  type CodePosition,
  type CodeSymbol,
  type ProblemEntry,
  type RenameEdits,
  SYMBOL_KIND_NAMES,
} from "../../core";
import { problemEntry } from "../context/problems";
import { virtualPathOf, workspaceFileUri, type VirtualPathToUri } from "../workspaceUris";

const LABEL = "VS Code's language features";

/**
 * The core's `CodeIntelligence` answered by VS Code's language features: the providers any
 * installed extension registers (TypeScript's built in), asked through the `vscode.execute*Provider`
 * commands, and the diagnostics the Problems view lists. Files are named by the agent's virtual
 * paths; a file outside the workspace only by its name. Nothing here writes: a rename's edits
 * go back to the core, which proposes them for review.
 */
export function vscodeCodeIntelligence(o: { toUri?: VirtualPathToUri } = {}): CodeIntelligence {
  const toUri = o.toUri ?? ((p: string) => workspaceFileUri(p));

  async function ask<T>(what: () => Thenable<T>, uriOf?: string): Promise<Answer<T>> {
    try {
      if (uriOf !== undefined) {
        const uri = toUri(uriOf);
        if (!uri) return { error: `${uriOf} is not a file of the workspace` };
        // The document, loaded: its language's extension activates, and its providers answer for it.
        await vscode.workspace.openTextDocument(uri);
      }
      return await what();
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }
  const at = (p: CodePosition) => ({
    uri: toUri(p.path)!,
    position: new vscode.Position(p.line - 1, p.column - 1),
  });

  return {
    label: LABEL,
    async definitions(p) {
      const r = await ask(() => {
        const { uri, position } = at(p);
        return vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
          "vscode.executeDefinitionProvider",
          uri,
          position,
        );
      }, p.path);
      return isAnswerError(r) ? r : asArray(r).map(locationOf);
    },
    async references(p) {
      const r = await ask(() => {
        const { uri, position } = at(p);
        return vscode.commands.executeCommand<vscode.Location[] | undefined>(
          "vscode.executeReferenceProvider",
          uri,
          position,
        );
      }, p.path);
      return isAnswerError(r) ? r : asArray(r).map(locationOf);
    },
    async documentSymbols(path) {
      const r = await ask(
        () =>
          vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
            "vscode.executeDocumentSymbolProvider",
            toUri(path)!,
          ),
        path,
      );
      if (isAnswerError(r)) return r;
      const file: CodeFile = { path };
      return asArray(r).map((s) => symbolOf(s, file));
    },
    async workspaceSymbols(query) {
      const r = await ask(() =>
        vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
          "vscode.executeWorkspaceSymbolProvider",
          query,
        ),
      );
      if (isAnswerError(r)) return r;
      return asArray(r).map((s) => symbolOf(s));
    },
    async hover(p) {
      const r = await ask(() => {
        const { uri, position } = at(p);
        return vscode.commands.executeCommand<vscode.Hover[] | undefined>("vscode.executeHoverProvider", uri, position);
      }, p.path);
      if (isAnswerError(r)) return r;
      return asArray(r).flatMap((h) => h.contents.map(hoverText));
    },
    async rename(p, newName) {
      const r = await ask(() => {
        const { uri, position } = at(p);
        return vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>(
          "vscode.executeDocumentRenameProvider",
          uri,
          position,
          newName,
        );
      }, p.path);
      if (isAnswerError(r)) return r;
      return renameOf(r);
    },
    problems(): Promise<Answer<ProblemEntry[]>> {
      const out: ProblemEntry[] = [];
      for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
        for (const d of diagnostics) {
          const entry = problemEntry(uri, d);
          if (entry) out.push(entry);
        }
      }
      return Promise.resolve(out);
    },
  };
}

function asArray<T>(value: T[] | undefined | null): T[] {
  return Array.isArray(value) ? value : [];
}

/** A URI as the agent may name it: its virtual path, or only its file name when outside the workspace. */
function fileOf(uri: vscode.Uri): CodeFile {
  const path = virtualPathOf(uri);
  if (path !== undefined) return { path };
  const name = uri.path.split("/").pop() || uri.scheme;
  return { outside: uri.scheme === "file" ? name : `${name} (${uri.scheme})` };
}

function rangeOf(range: vscode.Range): { line: number; column: number; endLine: number; endColumn: number } {
  return {
    line: range.start.line + 1,
    column: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

function locationOf(l: vscode.Location | vscode.LocationLink): CodeLocation {
  if ("targetUri" in l) return { ...fileOf(l.targetUri), ...rangeOf(l.targetSelectionRange ?? l.targetRange) };
  return { ...fileOf(l.uri), ...rangeOf(l.range) };
}

/** A document symbol (its name's position, its whole range's end) or a symbol information (its range). */
function symbolOf(s: vscode.DocumentSymbol | vscode.SymbolInformation, file?: CodeFile): CodeSymbol {
  const kind = SYMBOL_KIND_NAMES[s.kind] ?? "symbol";
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
      ...(s.children?.length ? { children: s.children.map((c) => symbolOf(c, file)) } : {}),
    };
  }
  const range = rangeOf(s.location.range);
  return {
    ...(file ?? fileOf(s.location.uri)),
    name: s.name,
    kind,
    line: range.line,
    column: range.column,
    endLine: range.endLine,
    ...(s.containerName ? { container: s.containerName } : {}),
  };
}

function hoverText(part: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof part === "string") return part;
  if ("language" in part) return `\`\`\`${part.language}\n${part.value}\n\`\`\``;
  return part.value;
}

function renameOf(edit: vscode.WorkspaceEdit | undefined): RenameEdits {
  if (!edit) return { files: [] };
  return {
    files: edit.entries().map(([uri, edits]) => ({
      ...fileOf(uri),
      edits: edits.map((e) => ({ ...rangeOf(e.range), newText: e.newText })),
    })),
  };
}
