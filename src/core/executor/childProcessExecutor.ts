import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { stopWhen } from "./stopWhen";
import { DEFAULT_MAX_OUTPUT_CHARS, HeadTailBuffer, type ExecOptions, type ExecResult, type Executor } from "./types";

export interface ChildProcessExecutorOptions {
  /** Shell to run commands with; defaults to $SHELL (then /bin/sh), or cmd.exe on Windows. */
  shell?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** After SIGTERM, wait this long before SIGKILL. */
  killGraceMs?: number;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Runs commands as child processes in their own process group, so a timeout or a cancel kills
 * the whole tree (a test runner and the workers it started), not just the shell.
 */
export class ChildProcessExecutor implements Executor {
  private readonly shell: string;
  private readonly isWindows = process.platform === "win32";

  constructor(private readonly options: ChildProcessExecutorOptions = {}) {
    this.shell =
      options.shell ?? (this.isWindows ? (process.env.ComSpec ?? "cmd.exe") : process.env.SHELL || "/bin/sh");
  }

  run(command: string, opts: ExecOptions): Promise<ExecResult> {
    const started = Date.now();
    const buffer = new HeadTailBuffer(opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
    const via = `child process (${this.shell})`;
    return new Promise<ExecResult>((resolve) => {
      if (opts.signal?.aborted) {
        resolve({ output: "", exitCode: null, timedOut: false, cancelled: true, truncated: false, durationMs: 0, via });
        return;
      }
      let child: ChildProcess;
      try {
        child = this.isWindows
          ? spawn(command, {
              cwd: opts.cwd,
              shell: this.shell,
              stdio: ["ignore", "pipe", "pipe"],
              env: this.env(),
              windowsHide: true,
            })
          : spawn(this.shell, ["-c", command], {
              cwd: opts.cwd,
              stdio: ["ignore", "pipe", "pipe"],
              env: this.env(),
              detached: true,
            });
      } catch (error) {
        resolve({
          output: `Could not start the shell ${this.shell}: ${(error as Error).message}`,
          exitCode: null,
          timedOut: false,
          cancelled: false,
          truncated: false,
          durationMs: 0,
          via,
        });
        return;
      }
      let timedOut = false;
      let cancelled = false;
      let settled = false;
      let exitCode: number | null = null;
      let exited = false;
      let drainTimer: NodeJS.Timeout | undefined;
      let killTimer: NodeJS.Timeout | undefined;

      const onChunk = (decoder: StringDecoder) => (data: Buffer) => {
        const text = decoder.write(data);
        if (text.length === 0) return;
        buffer.push(text);
        opts.onOutput?.(text);
      };
      const outDecoder = new StringDecoder("utf8");
      const errDecoder = new StringDecoder("utf8");
      child.stdout?.on("data", onChunk(outDecoder));
      child.stderr?.on("data", onChunk(errDecoder));

      const finish = () => {
        if (settled) return;
        settled = true;
        unwatch();
        clearTimeout(drainTimer);
        // Anything still holding the pipes (a background job) goes with the group.
        this.killTree(child, "SIGKILL");
        clearTimeout(killTimer);
        buffer.push(outDecoder.end() + errDecoder.end());
        resolve({
          output: buffer.text(),
          exitCode,
          timedOut,
          cancelled,
          truncated: buffer.truncated,
          durationMs: Date.now() - started,
          via,
        });
      };

      const terminate = () => {
        this.killTree(child, "SIGTERM");
        killTimer = setTimeout(() => {
          this.killTree(child, "SIGKILL");
          // Pipes may stay open if a grandchild ignored signals; do not wait on them forever.
          setTimeout(finish, 500).unref();
        }, this.options.killGraceMs ?? 2000);
        killTimer.unref();
      };
      const unwatch = stopWhen(opts.signal, opts.timeoutMs, (why) => {
        if (why === "cancelled") cancelled = true;
        else timedOut = true;
        terminate();
      });

      child.on("error", (error) => {
        buffer.push(`\n${error.message}\n`);
        exited = true;
        finish();
      });
      child.on("exit", (code, signal) => {
        exited = true;
        exitCode = code ?? (signal ? 128 + (SIGNAL_NUMBERS[signal] ?? 0) : null);
        // Give the pipes a moment to drain; a background job holding them must not hang us.
        drainTimer = setTimeout(finish, 250);
      });
      child.on("close", () => {
        if (exited) finish();
      });
    });
  }

  private env(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.options.env };
  }

  /** Signals the whole process group (POSIX) or tree (Windows). Never throws. */
  private killTree(child: ChildProcess, signal: NodeJS.Signals): void {
    const pid = child.pid;
    if (pid === undefined) return;
    try {
      if (this.isWindows) {
        spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true }).on(
          "error",
          () => {},
        );
      } else {
        process.kill(-pid, signal);
      }
    } catch {
      // Already gone.
    }
  }
}
