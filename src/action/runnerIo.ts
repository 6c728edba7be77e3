/**
 * The runner's side of a JavaScript action, read and written as the runner defines it: inputs
 * are `INPUT_<NAME>` variables, outputs are appended to the file `GITHUB_OUTPUT` names, and a
 * `::add-mask::` line makes the runner hide a value in every later log line. (Small enough to
 * own: `@actions/core` is ES-module-only, which this CommonJS bundle and its tests would need
 * to load through a second module system.)
 */
import { appendFileSync } from "node:fs";
import { randomUUID } from "node:crypto";

/** `name` as the runner passes it: spaces become `_`, upper case; an unset input is "". */
export function readInput(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}

export interface RunnerLog {
  info(line: string): void;
  warning(line: string): void;
  error(line: string): void;
}

/**
 * Log lines with every secret replaced by `***` before they are written (the runner masks them
 * too once `mask` ran, but only in its own log, not in files we write).
 */
export function runnerLog(
  write: (text: string) => void,
  secrets: () => readonly string[],
): RunnerLog & { mask(value: string): void } {
  // A workflow command's message is escaped as the runner reads it back.
  const clean = (line: string) =>
    redactSecrets(line, secrets()).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return {
    info: (line) => write(`${redactSecrets(line, secrets())}\n`),
    warning: (line) => write(`::warning::${clean(line)}\n`),
    error: (line) => write(`::error::${clean(line)}\n`),
    mask: (value) => {
      for (const part of value.split(/\r?\n/)) if (part.trim()) write(`::add-mask::${part}\n`);
    },
  };
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("***");
  return out;
}

/** Appends `name=value` to the outputs file (a heredoc with a fresh delimiter, so any value is safe). */
export function setOutput(env: NodeJS.ProcessEnv, name: string, value: string): void {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  const delimiter = `fathom_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

/**
 * Variables that carry credentials to the action. They are read once, then removed from the
 * process's environment, so no command the agent runs (and no git hook or tool it starts) can
 * inherit them.
 */
const CREDENTIAL_VARIABLES = [
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
];

/** Removes every input and credential variable, and any variable holding one of `secrets`. */
export function scrubEnvironment(env: NodeJS.ProcessEnv, secrets: readonly string[]): void {
  for (const name of Object.keys(env)) {
    const value = env[name] ?? "";
    if (
      name.startsWith("INPUT_") ||
      CREDENTIAL_VARIABLES.includes(name) ||
      secrets.some((s) => s.length >= 4 && value.includes(s))
    )
      delete env[name];
  }
}
