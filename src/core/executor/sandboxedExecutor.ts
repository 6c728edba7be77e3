import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import type { CommandSandbox } from "./sandbox";
import { killSandboxLeftovers } from "./sandboxLeftovers";
import { refusalsInOutput } from "./sandboxRefusals";
import type { BackgroundCommandStatus, ExecOptions, ExecResult, Executor } from "./types";

export interface SandboxedExecutorOptions {
  /**
   * Run the wrapped command through a short launcher script (`sh …/run-1.sh # npm test`) instead
   * of the whole several-kilobyte sandbox command line: for the integrated terminal, where the
   * person reads what runs. The scripts live in a folder sandboxed commands cannot write.
   */
  viaScript?: boolean;
}

/**
 * Any executor, with every command run inside the OS sandbox (./sandbox.ts). The result says
 * it ran sandboxed, and what the sandbox refused, so the model (and the person) know why a
 * write or a connection failed and how it can be allowed. `unsandboxed` runs one command as
 * it is: the approvals middleware only lets that through after the person said yes.
 */
export class SandboxedExecutor implements Executor {
  readonly readBackground?: (handle: string) => Promise<BackgroundCommandStatus | undefined>;
  readonly stopBackground?: (handle: string) => Promise<BackgroundCommandStatus | undefined>;
  readonly sandboxed = true;
  private launchDir: string | undefined;
  private launches = 0;
  /** Commands left running past their timeout: handle → the tag of their sandbox's processes. */
  private readonly runningTags = new Map<string, string>();

  constructor(
    private readonly inner: Executor,
    readonly sandbox: CommandSandbox,
    private readonly options: SandboxedExecutorOptions = {},
  ) {
    if (inner.readBackground) {
      this.readBackground = async (handle) => {
        const status = await inner.readBackground!(handle);
        if (status && !status.running) this.runningTags.delete(handle);
        return status;
      };
    }
    if (inner.stopBackground) {
      this.stopBackground = async (handle) => {
        const status = await inner.stopBackground!(handle);
        const tag = this.runningTags.get(handle);
        this.runningTags.delete(handle);
        if (tag) await killSandboxLeftovers(tag);
        return status;
      };
    }
  }

  async run(command: string, opts: ExecOptions): Promise<ExecResult> {
    if (opts.unsandboxed) {
      const result = await this.inner.run(command, opts);
      return {
        ...result,
        notes: [...(result.notes ?? []), "Ran outside the sandbox, as the person approved: it had your full rights."],
      };
    }
    let wrapped;
    try {
      wrapped = await this.sandbox.wrap(command, opts.cwd, opts.signal);
    } catch (error) {
      return notRun(`The sandbox could not start, so the command was not run: ${(error as Error).message}`);
    }
    const line = this.options.viaScript ? this.launcher(wrapped.command, command) : wrapped.command;
    const result = await this.inner.run(line, opts);
    if (result.stillRunning && result.handle) this.runningTags.set(result.handle, wrapped.tag);
    // Stopped (by Fathom, or Ctrl+C in the terminal: a signal's exit code): nothing may outlive it.
    else if (result.cancelled || result.timedOut || (result.exitCode ?? 0) >= 128)
      await killSandboxLeftovers(wrapped.tag);
    return {
      ...result,
      via: `${result.via}, in the OS sandbox`,
      notes: [...(result.notes ?? []), ...this.notes(wrapped.id, result.output)],
    };
  }

  private notes(id: string, output: string): string[] {
    const domains = this.sandbox.allowedDomains;
    const network = `${domains.length ? domains.join(", ") : "none"}${this.sandbox.asksForDomains ? " (the person is asked about any other domain)" : ""}`;
    const notes = [
      `Ran in the OS sandbox: writes only in the workspace and ${this.sandbox.tempDir} ($TMPDIR); secret folders such as ~/.ssh and ~/.aws are unreadable; network: ${network}.`,
    ];
    const refused = [...this.sandbox.refusals(id), ...refusalsInOutput(output, this.sandbox.deniedReads)];
    if (refused.length > 0) {
      notes.push(
        `The sandbox refused: ${refused.join("; ")}. If the task needs it, tell the person what and why: they can allow a domain ` +
          "(setting fathom.sandbox.allowedDomains, or --allow-domain in the CLI); for a write outside the workspace or a read of a " +
          "secret location, you may ask to run this one command outside the sandbox with execute's sandbox: false (the person is always asked).",
      );
    }
    return notes;
  }

  /** Writes the sandbox command line to a script only Fathom can write, and returns how to run it. */
  private launcher(wrapped: string, original: string): string {
    if (!this.launchDir) {
      this.launchDir = nodePath.join(os.tmpdir(), `fathom-launch-${process.pid}-${randomBytes(4).toString("hex")}`);
      mkdirSync(this.launchDir, { recursive: true, mode: 0o700 });
    }
    const file = nodePath.join(this.launchDir, `run-${++this.launches}.sh`);
    writeFileSync(file, `${wrapped}\n`, { mode: 0o600 });
    // The comment shows the person the real command in the terminal.
    return `sh '${file}' # sandboxed: ${original.replace(/\s*\n\s*/g, " ↵ ")}`;
  }

  dispose(): void {
    for (const tag of this.runningTags.values()) void killSandboxLeftovers(tag, { rounds: 1 });
    this.runningTags.clear();
    if (this.launchDir) rmSync(this.launchDir, { recursive: true, force: true });
  }
}

function notRun(message: string): ExecResult {
  return {
    output: message,
    exitCode: null,
    timedOut: false,
    cancelled: false,
    truncated: false,
    durationMs: 0,
    via: "not run",
  };
}
