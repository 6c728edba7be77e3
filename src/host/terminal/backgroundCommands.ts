import type * as vscode from "vscode";
import { DEFAULT_MAX_OUTPUT_CHARS, HeadTailBuffer, type ExecResult } from "../../core";

/** A command running in a terminal, as the executor and the background registry see it. */
export interface RunningCommand {
  command: string;
  terminal: vscode.Terminal;
  /** Settles when the command ended (or its terminal closed). */
  finished: Promise<void>;
  readonly done: boolean;
  /** Stop streaming output to the tool call that started it (it returned at its timeout). */
  detach(): void;
  markKilled(): void;
  /** Whole output so far (head and tail), exit code if known. */
  snapshot(since: number): ExecResult;
  /** Output that arrived since the last call (head and tail when long). */
  takeUnread(): string;
}

export interface BackgroundStatus {
  command: string;
  output: string;
  running: boolean;
  exitCode: number | null;
}

/**
 * Commands left running after their timeout (dev servers, watchers), by handle, so the model
 * can read their new output or stop them later.
 */
export class BackgroundCommands {
  private readonly byHandle = new Map<string, RunningCommand>();
  private next = 1;

  add(running: RunningCommand): string {
    const handle = `cmd-${this.next++}`;
    this.byHandle.set(handle, running);
    return handle;
  }

  get(handle: string): RunningCommand | undefined {
    return this.byHandle.get(handle);
  }

  /** New output since the last read; a finished command is forgotten once read. */
  read(handle: string): BackgroundStatus | undefined {
    const running = this.byHandle.get(handle);
    if (!running) return undefined;
    const output = running.takeUnread();
    const snapshot = running.snapshot(0);
    if (running.done) this.byHandle.delete(handle);
    return { command: running.command, output, running: !running.done, exitCode: snapshot.exitCode };
  }

  handles(): string[] {
    return [...this.byHandle.keys()];
  }

  delete(handle: string): void {
    this.byHandle.delete(handle);
  }

  clear(): void {
    this.byHandle.clear();
  }
}

/** Output arriving after the last read, kept as head and tail like the rest. */
export function unreadBuffer(): HeadTailBuffer {
  return new HeadTailBuffer(DEFAULT_MAX_OUTPUT_CHARS);
}
