// The `fathom` CLI as its tests run it: from source (through tsx), a child process of its own.
import { spawn } from "node:child_process";
import path from "node:path";

export const CLI_ROOT = path.resolve(__dirname, "../..");
export const CLI_MAIN = path.join(CLI_ROOT, "src/cli/main.ts");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `fathom ARGS` with `env` and collects its exit code and output. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const child = spawn(process.execPath, ["--import", "tsx", CLI_MAIN, ...args], {
    cwd: CLI_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/**
 * This process's environment for a CLI run, with `extra`: fast retries, and no provider key
 * unless `extra` gives one (a key of the machine must never decide a test).
 */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FATHOM_RETRY_BASE_DELAY_MS: "1", ...extra };
  for (const key of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]) if (!(key in extra)) delete env[key];
  // The test runner's marker would make a node:test file the CLI loads report to this run.
  delete env.NODE_TEST_CONTEXT;
  return env;
}
