/**
 * Runs one shell command. The CLI uses a child process; the VS Code host supplies one that runs
 * in the integrated terminal. Either way the result says which way it ran (`via`).
 */

export interface ExecOptions {
  /** Working directory (the workspace root). */
  cwd: string;
  /** Kill the whole process tree after this long. */
  timeoutMs: number;
  /** Aborting kills the whole process tree. */
  signal?: AbortSignal;
  /** Output as it arrives (stdout and stderr interleaved). */
  onOutput?: (chunk: string) => void;
  /** Keep at most this many characters: the head and the tail, with a note between. */
  maxOutputChars?: number;
  /** Run outside the OS sandbox (only after the person approved exactly that). */
  unsandboxed?: boolean;
}

export interface ExecResult {
  /** stdout + stderr interleaved, head and tail kept when long. */
  output: string;
  /** Null when killed by a signal and no code is known. */
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  durationMs: number;
  /** How it ran, for the person: "child process (/bin/bash)", "terminal (shell integration)". */
  via: string;
  /**
   * Set by an executor that leaves a command running past its timeout (the terminal one, for a
   * dev server or a watcher) instead of killing it: the command still runs, under this handle.
   */
  stillRunning?: boolean;
  handle?: string;
  /** Facts for the model about how it ran ("Ran in the OS sandbox: …", what was refused). */
  notes?: string[];
}

/** A command left running past its timeout, as seen when the model checks on it. */
export interface BackgroundCommandStatus {
  command: string;
  /** Output that arrived since the last check (head and tail when long). */
  output: string;
  running: boolean;
  exitCode: number | null;
}

export interface Executor {
  run(command: string, options: ExecOptions): Promise<ExecResult>;
  /** Commands run in the OS sandbox (and `unsandboxed` leaves it). */
  readonly sandboxed?: boolean;
  /** Executors that leave commands running (`stillRunning`) let the model check on them... */
  readBackground?(handle: string): Promise<BackgroundCommandStatus | undefined>;
  /** ...and stop them (interrupt first, then kill). */
  stopBackground?(handle: string): Promise<BackgroundCommandStatus | undefined>;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

/** Keeps the first and last parts of a stream, counting what was dropped between. */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private dropped = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    this.headMax = Math.floor(maxChars / 2);
    this.tailMax = maxChars - this.headMax;
  }

  push(chunk: string): void {
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk.length === 0) return;
    }
    this.tail += chunk;
    if (this.tail.length > this.tailMax * 2) this.trimTail();
  }

  get truncated(): boolean {
    this.trimTail();
    return this.dropped > 0;
  }

  text(): string {
    this.trimTail();
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n\n[... ${this.dropped} characters of output omitted ...]\n\n${this.tail}`;
  }

  private trimTail(): void {
    if (this.tail.length > this.tailMax) {
      const cut = this.tail.length - this.tailMax;
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }
}
