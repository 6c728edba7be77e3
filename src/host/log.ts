import type * as vscode from "vscode";

/**
 * The "Fathom" log (a LogOutputChannel): requests, tool calls and errors, never a secret.
 * Every line passes through `redactSecrets` with the keys Fathom knows about, plus a pattern
 * for anything shaped like a provider key, before it reaches the channel.
 */

/** What the session and the rest of the host log through. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Shapes of provider keys (OpenAI `sk-…`/`sk-proj-…`, Anthropic `sk-ant-…`) and bearer tokens. */
const KEY_SHAPES = [/\b(sk-ant|sk-proj|sk)-[A-Za-z0-9_-]{8,}/g, /\b(Bearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi];

/** Replaces each known secret (and anything shaped like a key) with `***`. */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real keys are long.
    if (secret.length >= 8) out = out.split(secret).join("***");
  }
  out = out.replace(KEY_SHAPES[0]!, "$1-***");
  return out.replace(KEY_SHAPES[1]!, "$1***");
}

type Channel = Pick<vscode.LogOutputChannel, "trace" | "debug" | "info" | "warn" | "error">;

/** The log with redaction; it also keeps the last lines (for tests and "copy diagnostics"). */
export class Log implements Logger {
  private readonly secrets = new Set<string>();
  private readonly lines: string[] = [];

  constructor(
    private readonly channel: Channel,
    private readonly keep = 500,
  ) {}

  /** Registers a secret that must never be written (an API key as it was read). */
  addSecret(secret: string | undefined): void {
    if (secret && secret.length >= 8) this.secrets.add(secret);
  }

  /** Redacts with every registered secret; use it for anything that leaves the host too. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  trace(message: string): void {
    this.channel.trace(this.record("trace", message));
  }
  debug(message: string): void {
    this.channel.debug(this.record("debug", message));
  }
  info(message: string): void {
    this.channel.info(this.record("info", message));
  }
  warn(message: string): void {
    this.channel.warn(this.record("warn", message));
  }
  error(message: string): void {
    this.channel.error(this.record("error", message));
  }

  /** The most recent lines written, already redacted. */
  recent(): string[] {
    return [...this.lines];
  }

  private record(level: string, message: string): string {
    const safe = this.redact(message);
    this.lines.push(`[${level}] ${safe}`);
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
    return safe;
  }
}
