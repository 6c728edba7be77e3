import type * as lsp from "vscode-languageserver-protocol";
import type { BackendProtocol } from "../../backends/protocol";
import type { CommandSandbox } from "../../executor/sandbox";
import type { ProcessRef } from "../../mcp/processTree";
import type { SecretFileMatcher } from "../../trust/secretFiles";
import type { LanguageServerSpec } from "./languageServers";
import { LspServer } from "./lspServer";
import type { LspPlaces } from "./lspValues";

/** Largest file sent to a server. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** No new diagnostics for this long: the server has said what it will say about the files sent. */
const DIAGNOSTICS_QUIET_MS = 600;

export interface LanguageClientOptions {
  spec: LanguageServerSpec;
  places: LspPlaces;
  /** The run's backend: a file reaches the server only if the agent may read it (guard, .fathomignore). */
  backend: BackendProtocol;
  /** Secret files are never sent, even if readable with the person's approval. */
  isSecret?: SecretFileMatcher;
  sandbox?: CommandSandbox;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  requestTimeoutMs: number;
  startTimeoutMs: number;
}

interface OpenDocument {
  uri: string;
  version: number;
  text: string;
}

/**
 * One language's server as the run uses it: started at the first question (not before),
 * restarted once at most after a crash, with the files it was asked about opened in it
 * (`didOpen`, then `didChange` when the agent changed them) through the run's backend, and the
 * diagnostics it published for them.
 */
export class LanguageClient {
  private server: LspServer | undefined;
  private starting: Promise<LspServer | { error: string }> | undefined;
  private restarts = 0;
  /** Starts that failed, and why the last one did. */
  private failedStarts = 0;
  private startError = "";
  private answered = false;
  private stopped = false;
  private readonly documents = new Map<string, OpenDocument>();
  /** Files to open before problems are read (the agent changed them). */
  private readonly touched = new Set<string>();
  private readonly diagnostics = new Map<string, lsp.Diagnostic[]>();
  /** Documents sent (opened or changed) whose diagnostics have not come back yet. */
  private readonly pending = new Set<string>();
  private lastDiagnostics = 0;

  constructor(private readonly o: LanguageClientOptions) {}

  get spec(): LanguageServerSpec {
    return this.o.spec;
  }

  get started(): boolean {
    return this.server !== undefined;
  }

  answersFor(path: string): boolean {
    const dot = path.lastIndexOf(".");
    return dot > path.lastIndexOf("/") && this.o.spec.extensions.includes(path.slice(dot).toLowerCase());
  }

  /** The running server, started (or restarted once after a crash) if needed. */
  private async ready(): Promise<LspServer | { error: string }> {
    if (this.stopped) return { error: "the task has ended" };
    if (this.failedStarts >= 2)
      return {
        error: `${this.startError} (tried twice; not tried again in this task). Use grep and read_file instead.`,
      };
    if (this.server?.running) return this.server;
    if (this.server && !this.starting) {
      const reason = this.server.exitReason;
      if (this.restarts >= 1)
        return {
          error: `${reason}; it was restarted once already and is not started again in this task. Use grep and read_file instead.`,
        };
      this.restarts++;
      this.o.log?.(`${reason}; restarting it`);
      this.server = undefined;
      this.documents.clear();
      this.pending.clear();
      this.diagnostics.clear();
      this.answered = false;
    }
    // A progress line: the first call waits for the server to start and read the project.
    if (!this.starting) this.o.log?.(`starting ${this.o.spec.name} for ${this.o.places.root}…`);
    this.starting ??= LspServer.start(
      {
        spec: this.o.spec,
        root: this.o.places.root,
        ...(this.o.sandbox ? { sandbox: this.o.sandbox } : {}),
        ...(this.o.env ? { env: this.o.env } : {}),
        ...(this.o.log ? { log: this.o.log } : {}),
        onDiagnostics: (p) => {
          this.diagnostics.set(p.uri, p.diagnostics);
          this.pending.delete(p.uri);
          this.lastDiagnostics = Date.now();
        },
      },
      this.o.startTimeoutMs,
    ).then(
      (server) => {
        // Stopped meanwhile: stop() has this promise and stops the server.
        if (!this.stopped) this.server = server;
        this.starting = undefined;
        return server;
      },
      (error: unknown) => {
        this.starting = undefined;
        this.failedStarts++;
        this.startError = (error as Error).message;
        return { error: this.startError };
      },
    );
    return this.starting;
  }

  /**
   * Sends the file's text as the agent may read it now: opened the first time, changed when it
   * differs. An error when the agent may not read it (the server is never given it).
   */
  private async sync(server: LspServer, path: string): Promise<{ uri: string } | { error: string }> {
    const secret = this.o.isSecret?.(path);
    if (secret)
      return {
        error: `${path} may hold secrets (it matches ${secret}), so it is not given to the language server. Read it with read_file (the person is asked).`,
      };
    const read = await this.o.backend.readText(path, MAX_FILE_BYTES);
    if (read.error !== undefined) return { error: read.error };
    if (read.truncated) return { error: `${path} is too large to give the language server.` };
    const text = read.text ?? "";
    const open = this.documents.get(path);
    if (open) {
      if (open.text !== text) {
        open.version++;
        open.text = text;
        this.pending.add(open.uri);
        server.notify("textDocument/didChange", {
          textDocument: { uri: open.uri, version: open.version },
          contentChanges: [{ text }],
        });
      }
      return { uri: open.uri };
    }
    const uri = this.o.places.uriOf(path);
    const dot = path.lastIndexOf(".");
    const languageId = this.o.spec.languageIds[path.slice(dot).toLowerCase()] ?? this.o.spec.language;
    this.documents.set(path, { uri, version: 1, text });
    this.pending.add(uri);
    server.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
    return { uri };
  }

  /**
   * Asks the server about `path` (opened first) or about the workspace. A crash is retried once
   * on a restarted server; a time-out or a refusal is an error written for the model.
   */
  async ask<R>(
    method: string,
    params: (uri: string | undefined) => unknown,
    path: string | undefined,
    signal?: AbortSignal,
  ): Promise<{ value: R } | { error: string }> {
    for (let attempt = 0; ; attempt++) {
      const server = await this.ready();
      if ("error" in server) return server;
      let uri: string | undefined;
      if (path !== undefined) {
        const synced = await this.sync(server, path);
        if ("error" in synced) return synced;
        uri = synced.uri;
      } else if (this.documents.size === 0) {
        // A TypeScript server knows no project before a file is open: open one of the workspace's.
        const any = await this.someFile();
        if (any) await this.sync(server, any);
      }
      const timeoutMs = this.answered ? this.o.requestTimeoutMs : this.o.startTimeoutMs;
      const r = await server.request<R>(method, params(uri), { timeoutMs, ...(signal ? { signal } : {}) });
      if (!("failure" in r)) {
        this.answered = true;
        return r;
      }
      if (r.failure === "exited" && attempt === 0 && this.restarts === 0 && !this.stopped) continue;
      if (r.failure === "timeout")
        return {
          error: `${r.error}. It may still be reading the project: try once more in a moment, or use grep and read_file.`,
        };
      return { error: r.error };
    }
  }

  /** A file of this server's language the agent may read, to give a server that has none open. */
  private async someFile(): Promise<string | undefined> {
    const pattern = `**/*.{${this.o.spec.extensions.map((e) => e.slice(1)).join(",")}}`;
    const found = await this.o.backend.glob(pattern, "/");
    return found.files?.find((f) => !f.is_dir && !this.o.isSecret?.(f.path))?.path;
  }

  /** A file the agent changed: opened in the server at the next problems(), so they cover it. */
  touch(path: string): void {
    if (this.answersFor(path)) this.touched.add(path);
  }

  /**
   * The diagnostics published for the files this run opened or changed: those are sent again
   * (changed ones), and their diagnostics awaited up to `waitMs`. A server not started yet is
   * started only when the agent changed files of its language.
   */
  async problems(
    waitMs: number,
  ): Promise<{ diagnostics: [string, lsp.Diagnostic[]][]; files: number; waiting: number } | { error: string }> {
    if (!this.server && !this.starting && this.touched.size === 0) return { diagnostics: [], files: 0, waiting: 0 };
    const server = await this.ready();
    if ("error" in server) return server;
    for (const path of new Set([...this.documents.keys(), ...this.touched])) await this.sync(server, path);
    this.touched.clear();
    const deadline = Date.now() + (this.answered ? waitMs : this.o.startTimeoutMs);
    // Servers publish in stages (syntax, then types): wait for every file sent, then for a quiet moment.
    while (
      (this.pending.size > 0 || Date.now() - this.lastDiagnostics < DIAGNOSTICS_QUIET_MS) &&
      server.running &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 50));
    return { diagnostics: [...this.diagnostics], files: this.documents.size, waiting: this.pending.size };
  }

  processes(): ProcessRef[] {
    return this.server?.processes() ?? [];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const server = this.server ?? (await this.starting?.then((s) => ("error" in s ? undefined : s)));
    this.server = undefined;
    await server?.stop();
  }
}
