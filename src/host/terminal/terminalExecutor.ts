import * as nodePath from "node:path";
import * as vscode from "vscode";
import {
  DEFAULT_MAX_OUTPUT_CHARS,
  HeadTailBuffer,
  shellQuote,
  TerminalTextCleaner,
  type BackgroundCommandStatus,
  type ExecOptions,
  type ExecResult,
  type Executor,
} from "../../core";
import { BackgroundCommands, unreadBuffer, type RunningCommand } from "./backgroundCommands";

export interface TerminalExecutorOptions {
  /** Used when shell integration does not arrive in time. */
  fallback: Executor;
  log: vscode.LogOutputChannel;
  /** How long to wait for a terminal's shell integration before falling back. */
  shellIntegrationTimeoutMs?: number;
  /** After Ctrl+C, how long to wait before killing the terminal. */
  interruptGraceMs?: number;
  /** Shell for the terminal; default: the person's default terminal profile. */
  shellPath?: string;
  /** Name of the terminal (default "Fathom"). */
  terminalName?: string;
}

/**
 * Runs `execute` commands in the integrated terminal "Fathom", where the person can watch
 * them. With shell integration the output and exit code are read from VS Code's API; without
 * it (unsupported shell, remote quirks) the command runs as a child process instead and the
 * result says so. A command that outlives its timeout keeps running in the terminal; the model
 * gets the output so far and a handle to read more or stop it.
 */
export class TerminalExecutor implements Executor, vscode.Disposable {
  private readonly terminals = new Set<vscode.Terminal>();
  private readonly busy = new Set<vscode.Terminal>();
  readonly background = new BackgroundCommands();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: TerminalExecutorOptions) {
    this.disposables.push(
      vscode.window.onDidCloseTerminal((terminal) => {
        this.terminals.delete(terminal);
        this.busy.delete(terminal);
      }),
    );
  }

  async run(command: string, opts: ExecOptions): Promise<ExecResult> {
    const started = Date.now();
    if (opts.signal?.aborted) return cancelledBeforeStart();
    const terminal = this.idleTerminal(opts.cwd);
    this.busy.add(terminal);
    terminal.show(true); // preserveFocus: never take the cursor from where the person types
    const integration = await this.waitForShellIntegration(terminal, opts.signal);
    if (!integration) {
      this.busy.delete(terminal);
      if (opts.signal?.aborted) return cancelledBeforeStart();
      this.options.log.warn(
        `Shell integration did not start in the "${terminal.name}" terminal; running as a child process`,
      );
      const result = await this.options.fallback.run(command, opts);
      return { ...result, via: `${result.via}: shell integration was not available in the terminal` };
    }

    const running = this.start(terminal, integration, inFolder(integration, opts.cwd, command), opts);
    const outcome = await Promise.race([
      running.finished.then(() => "finished" as const),
      delay(opts.timeoutMs, opts.signal).then(() =>
        opts.signal?.aborted ? ("cancelled" as const) : ("timeout" as const),
      ),
    ]);
    if (outcome === "cancelled") await this.interrupt(running);
    if (outcome === "timeout") {
      // Leave it running (a dev server, a watcher); the model can read more or stop it.
      const handle = this.background.add(running);
      running.detach();
      return {
        ...running.snapshot(started),
        timedOut: true,
        handle,
        stillRunning: true,
      };
    }
    return { ...running.snapshot(started), cancelled: outcome === "cancelled" };
  }

  /** New output of a command left running at its timeout, and whether it still runs. */
  async readBackground(handle: string): Promise<BackgroundCommandStatus | undefined> {
    return this.background.read(handle);
  }

  /** Stops a command left running at its timeout; returns its last output. */
  async stopBackground(handle: string): Promise<BackgroundCommandStatus | undefined> {
    const running = this.background.get(handle);
    if (!running) return undefined;
    if (!running.done) await this.interrupt(running);
    const status = this.background.read(handle);
    this.background.delete(handle);
    return status && { ...status, running: false };
  }

  /** Ctrl+C first; if the command does not stop, dispose the terminal (which kills its shell). */
  async interrupt(running: RunningCommand): Promise<void> {
    running.terminal.sendText("\x03", false);
    const stopped = await Promise.race([
      running.finished.then(() => true),
      sleep(this.options.interruptGraceMs ?? 3000).then(() => false),
    ]);
    if (!stopped) {
      this.options.log.warn(`"${running.command}" ignored Ctrl+C; closing its terminal`);
      running.terminal.dispose();
      running.markKilled();
    }
  }

  private start(
    terminal: vscode.Terminal,
    integration: vscode.TerminalShellIntegration,
    command: string,
    opts: ExecOptions,
  ): RunningCommand {
    const execution = integration.executeCommand(command);
    // read() must be called at once so no output is missed.
    const stream = execution.read();
    const buffer = new HeadTailBuffer(opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
    let unread = unreadBuffer();
    const cleaner = new TerminalTextCleaner();
    let onOutput = opts.onOutput;
    let exitCode: number | null | undefined;
    let killed = false;

    const ended = new Promise<void>((resolve) => {
      const listener = vscode.window.onDidEndTerminalShellExecution((event) => {
        if (event.execution !== execution) return;
        exitCode = event.exitCode ?? null;
        listener.dispose();
        resolve();
      });
      const closed = vscode.window.onDidCloseTerminal((closedTerminal) => {
        if (closedTerminal !== terminal) return;
        closed.dispose();
        listener.dispose();
        resolve();
      });
    });
    const drained = (async () => {
      for await (const data of stream) {
        const text = cleaner.push(data);
        if (text) {
          buffer.push(text);
          unread.push(text);
          onOutput?.(text);
        }
      }
      const rest = cleaner.end();
      if (rest) {
        buffer.push(rest);
        unread.push(rest);
        onOutput?.(rest);
      }
    })().catch((error: unknown) => this.options.log.warn(`Reading terminal output failed: ${String(error)}`));
    // The end event can arrive before the stream is drained; wait for both, but never for
    // a stream that stays open after the terminal closed.
    const finished = ended
      .then(() => Promise.race([drained, sleep(1000)]))
      .then(() => {
        this.busy.delete(terminal);
      });

    return {
      command,
      terminal,
      finished,
      get done() {
        return exitCode !== undefined || killed;
      },
      detach: () => {
        onOutput = undefined;
        unread = unreadBuffer(); // the tool result already carried everything so far
      },
      takeUnread: () => {
        const text = unread.text();
        unread = unreadBuffer();
        return text;
      },
      markKilled: () => {
        killed = true;
      },
      snapshot: (since: number): ExecResult => ({
        output: buffer.text(),
        exitCode: exitCode ?? null,
        timedOut: false,
        cancelled: false,
        truncated: buffer.truncated,
        durationMs: Date.now() - since,
        via: `terminal "${terminal.name}" (shell integration)`,
      }),
    };
  }

  private idleTerminal(cwd: string): vscode.Terminal {
    for (const terminal of this.terminals) {
      if (!this.busy.has(terminal) && terminal.exitStatus === undefined) return terminal;
    }
    const base = this.options.terminalName ?? "Fathom";
    const name = this.terminals.size === 0 ? base : `${base} (${this.terminals.size + 1})`;
    const terminal = vscode.window.createTerminal({
      name,
      cwd,
      iconPath: new vscode.ThemeIcon("hubot"),
      ...(this.options.shellPath ? { shellPath: this.options.shellPath } : {}),
    });
    this.terminals.add(terminal);
    return terminal;
  }

  private waitForShellIntegration(
    terminal: vscode.Terminal,
    signal?: AbortSignal,
  ): Promise<vscode.TerminalShellIntegration | undefined> {
    if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
    return new Promise((resolve) => {
      const done = (value: vscode.TerminalShellIntegration | undefined) => {
        clearTimeout(timer);
        listener.dispose();
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const onAbort = () => done(undefined);
      const listener = vscode.window.onDidChangeTerminalShellIntegration((event) => {
        if (event.terminal === terminal) done(event.shellIntegration);
      });
      const timer = setTimeout(() => done(terminal.shellIntegration), this.options.shellIntegrationTimeoutMs ?? 5000);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    // Commands the model left running stop with the extension (their terminals close).
    for (const handle of this.background.handles()) this.background.get(handle)?.terminal.dispose();
    this.background.clear();
  }
}

function cancelledBeforeStart(): ExecResult {
  return {
    output: "",
    exitCode: null,
    timedOut: false,
    cancelled: true,
    truncated: false,
    durationMs: 0,
    via: "not started",
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * A reused terminal stays wherever an earlier command's `cd` left it (a folder that may even be
 * gone since): every command starts from the folder the agent meant, as a child process would.
 */
function inFolder(integration: vscode.TerminalShellIntegration, cwd: string, command: string): string {
  const here = integration.cwd?.scheme === "file" ? integration.cwd.fsPath : undefined;
  return here !== undefined && nodePath.resolve(here) === nodePath.resolve(cwd)
    ? command
    : `cd ${shellQuote(cwd)} && ${command}`;
}
