import type * as lsp from "vscode-languageserver-protocol";
import type { BackendProtocol } from "../../backends/protocol";
import type { CommandSandbox } from "../../executor/sandbox";
import type { ProcessRef } from "../../mcp/processTree";
import type { SecretFileMatcher } from "../../trust/secretFiles";
import type { Answer, CodeIntelligence, CodePosition, CodeSymbol } from "../codeIntelligence";
import type { ProblemEntry } from "../problems";
import { LanguageClient } from "./languageClient";
import type { LanguageServerSpec } from "./languageServers";
import { LspPlaces, hoverParts } from "./lspValues";

/** A request's time limit once the server has answered once (a hung server: a tool error, never a hung run). */
export const LSP_REQUEST_TIMEOUT_MS = 10_000;
/** The first request's, which includes starting the server and reading the project (2 slow cores). */
export const LSP_START_TIMEOUT_MS = 45_000;
/** How long get_problems waits for the diagnostics of files just sent. */
const PROBLEMS_WAIT_MS = 5_000;

export interface LspCodeIntelligenceOptions {
  /** Absolute workspace root. */
  root: string;
  /** The servers chosen for it (./languageServers.ts); none is started before the first call. */
  servers: readonly LanguageServerSpec[];
  /** The run's backend: a file reaches a server only if the agent may read it. */
  backend: BackendProtocol;
  isSecret?: SecretFileMatcher;
  /** The OS sandbox the servers start in (as commands do); undefined: none. */
  sandbox?: CommandSandbox;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  requestTimeoutMs?: number;
  startTimeoutMs?: number;
}

/** A `CodeIntelligence` on language servers the run starts, which must be stopped with the run. */
export interface LspCodeIntelligence extends CodeIntelligence {
  /** A file the agent changed: get_problems covers it (it is opened in its server). */
  touched(path: string): void;
  /** The servers' processes now (tests check none outlives the run). */
  processes(): ProcessRef[];
  /** Stops every server: shutdown and exit, then what is left of their processes killed. */
  stop(): Promise<void>;
}

/**
 * The core's `CodeIntelligence` answered by language servers over LSP, one per language the
 * workspace holds, for the headless runs (the CLI, the ACP agent, the Action). Each starts at
 * the first question about its language and stops with the task. Positions and paths are
 * translated both ways (./lspValues.ts); what a server names outside the workspace stays a label.
 */
export function lspCodeIntelligence(o: LspCodeIntelligenceOptions): LspCodeIntelligence {
  const places = new LspPlaces(o.root);
  const clients = o.servers.map(
    (spec) =>
      new LanguageClient({
        spec,
        places,
        backend: o.backend,
        ...(o.isSecret ? { isSecret: o.isSecret } : {}),
        ...(o.sandbox ? { sandbox: o.sandbox } : {}),
        ...(o.env ? { env: o.env } : {}),
        ...(o.log ? { log: o.log } : {}),
        requestTimeoutMs: o.requestTimeoutMs ?? LSP_REQUEST_TIMEOUT_MS,
        startTimeoutMs: o.startTimeoutMs ?? LSP_START_TIMEOUT_MS,
      }),
  );
  const names = [...new Set(o.servers.map((s) => s.name))].join(" and ");

  function clientFor(path: string): LanguageClient | { error: string } {
    const client = clients.find((c) => c.answersFor(path));
    if (client) return client;
    const answered = [...new Set(o.servers.flatMap((s) => s.extensions))].join(", ");
    return {
      error: `no language server here answers for ${path} (the ones started for this workspace answer for ${answered} files). Use grep and read_file for it.`,
    };
  }

  async function atPosition<R, T>(
    method: string,
    at: CodePosition,
    extra: Record<string, unknown>,
    convert: (r: R) => T,
    signal?: AbortSignal,
  ): Promise<Answer<T>> {
    const client = clientFor(at.path);
    if ("error" in client) return client;
    const r = await client.ask<R>(
      method,
      (uri) => ({ textDocument: { uri }, position: { line: at.line - 1, character: at.column - 1 }, ...extra }),
      at.path,
      signal,
    );
    return "error" in r ? r : convert(r.value);
  }

  type Locations = lsp.Definition | lsp.LocationLink[] | lsp.Location[] | null;
  return {
    label: names,
    definitions: (at, signal) =>
      atPosition<Locations, ReturnType<LspPlaces["locationsOf"]>>(
        "textDocument/definition",
        at,
        {},
        (r) => places.locationsOf(r),
        signal,
      ),
    references: (at, signal) =>
      atPosition<lsp.Location[] | null, ReturnType<LspPlaces["locationsOf"]>>(
        "textDocument/references",
        at,
        { context: { includeDeclaration: true } },
        (r) => places.locationsOf(r),
        signal,
      ),
    hover: (at, signal) => atPosition<lsp.Hover | null, string[]>("textDocument/hover", at, {}, hoverParts, signal),
    rename: (at, newName, signal) =>
      atPosition<lsp.WorkspaceEdit | null, ReturnType<LspPlaces["renameOf"]>>(
        "textDocument/rename",
        at,
        { newName },
        (r) => places.renameOf(r),
        signal,
      ),
    async documentSymbols(path, signal) {
      const client = clientFor(path);
      if ("error" in client) return client;
      const r = await client.ask<(lsp.DocumentSymbol | lsp.SymbolInformation)[] | null>(
        "textDocument/documentSymbol",
        (uri) => ({ textDocument: { uri } }),
        path,
        signal,
      );
      return "error" in r ? r : (r.value ?? []).map((s) => places.symbolOf(s, { path }));
    },
    async workspaceSymbols(query, signal) {
      const found: CodeSymbol[] = [];
      const errors: string[] = [];
      for (const client of clients) {
        const r = await client.ask<(lsp.SymbolInformation | lsp.WorkspaceSymbol)[] | null>(
          "workspace/symbol",
          () => ({ query }),
          undefined,
          signal,
        );
        if ("error" in r) errors.push(r.error);
        else found.push(...(r.value ?? []).map((s) => places.symbolOf(s)));
      }
      return found.length === 0 && errors.length > 0 ? { error: errors.join("; ") } : found;
    },
    async problems(): Promise<Answer<ProblemEntry[]>> {
      const out: ProblemEntry[] = [];
      const errors: string[] = [];
      for (const client of clients) {
        const r = await client.problems(PROBLEMS_WAIT_MS);
        if ("error" in r) {
          errors.push(r.error);
          continue;
        }
        for (const [uri, diagnostics] of r.diagnostics)
          for (const d of diagnostics) {
            const entry = places.problemOf(uri, d);
            if (entry) out.push(entry);
          }
      }
      return out.length === 0 && errors.length > 0 ? { error: errors.join("; ") } : out;
    },
    problemsScope() {
      return `${names} checked only the files opened or changed in this task; other files may have problems too (find_references or document_symbols opens a file)`;
    },
    touched(path) {
      for (const c of clients) c.touch(path);
    },
    processes() {
      return clients.flatMap((c) => c.processes());
    },
    async stop() {
      await Promise.all(clients.map((c) => c.stop()));
    },
  };
}
