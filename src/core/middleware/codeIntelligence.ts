import type { BackendProtocol } from "../backends/protocol";
import type { CodeIntelligence } from "../codeIntel/codeIntelligence";
import { FileView } from "../codeIntel/fileView";
import { lookupTools } from "../codeIntel/lookupTools";
import { renameTool } from "../codeIntel/renameTool";
import type { SecretFileMatcher } from "../trust/secretFiles";
import { offerAfterFirstTool } from "./afterFirstTool";
import type { Middleware } from "./types";

export interface CodeIntelligenceOptions {
  /** The language server's answers (the host's VS Code providers). */
  intel: CodeIntelligence;
  /** The backend writes go through (the checkpointing one): it decides which files may be shown or changed. */
  backend: BackendProtocol;
  isSecret?: SecretFileMatcher;
}

const PROMPT = `# Code intelligence
A language server answers find_definition, find_references, document_symbols, workspace_symbols, hover and get_problems: prefer them to grep and reading whole files when you follow code (they know scopes, imports and types). To rename a symbol use rename_symbol: it proposes every file's change for review.`;

/**
 * The code intelligence tools, over the `CodeIntelligence` the host gives (../codeIntel/):
 * `find_definition`, `find_references`, `document_symbols`, `workspace_symbols`, `hover`,
 * `get_problems` (read tools), and `rename_symbol`, whose edits are proposed one file at a time
 * through the approvals as any edit is. Offered only when the host has a language server to ask.
 */
export function codeIntelligenceMiddleware(options: CodeIntelligenceOptions): Middleware {
  const deps = {
    intel: options.intel,
    view: () => new FileView(options.backend, options.isSecret),
  };
  const tools = [...lookupTools(deps), renameTool(deps, options.backend)];
  const names = new Set(tools.map((t) => t.name));
  return {
    name: "codeIntelligence",
    tools,
    // From the run's second step on (see afterFirstTool.ts), with the section that explains them.
    wrapModelCall: (call, ctx, next) => next(offerAfterFirstTool(call, ctx, names, PROMPT)),
  };
}
