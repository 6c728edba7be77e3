import * as vscode from "vscode";
import type { ProblemEntry, Severity } from "./contextText";
import { virtualPathOf } from "../workspaceUris";

const SEVERITY: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "info",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

/** One diagnostic as a plain entry (for the chip's text); undefined outside the workspace. */
export function problemEntry(uri: vscode.Uri, d: vscode.Diagnostic): ProblemEntry | undefined {
  const path = virtualPathOf(uri);
  if (!path) return undefined;
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return {
    path,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    severity: SEVERITY[d.severity] ?? "error",
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined && code !== "" ? { code: String(code) } : {}),
  };
}

/** The workspace's diagnostics now (what the Problems view lists), files outside it left out. */
export function workspaceProblems(): ProblemEntry[] {
  const out: ProblemEntry[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    for (const d of diagnostics) {
      const entry = problemEntry(uri, d);
      if (entry) out.push(entry);
    }
  }
  return out;
}
