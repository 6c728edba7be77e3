// Runs the fathom CLI (the built dist/cli.js when there is one, else the sources through tsx) as
// a person would, against a model URL, and collects its --json events.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentEvent } from "../../src/core/run/events";

export const repoRoot = path.resolve(import.meta.dirname, "..", "..");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  events: AgentEvent[];
  /** stdout lines that were not JSON (must be none). */
  badLines: string[];
  ms: number;
  timedOut: boolean;
}

export function cliCommand(): string[] {
  const built = path.join(repoRoot, "dist", "cli.js");
  const sources = path.join(repoRoot, "src", "cli", "main.ts");
  const useBuilt = fs.existsSync(built) && fs.statSync(built).mtimeMs >= fs.statSync(sources).mtimeMs;
  if (useBuilt) return [process.execPath, built];
  // tsx by its full URL: a bare "tsx" would be looked up from the run's working folder.
  const tsx = pathToFileURL(createRequire(path.join(repoRoot, "package.json")).resolve("tsx")).href;
  return [process.execPath, "--import", tsx, sources];
}

export function runCli(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; timeoutMs: number; cwd?: string; onStdout?: (text: string) => void },
): Promise<CliRun> {
  const [cmd, ...pre] = cliCommand();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd!, [...pre, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      opts.onStdout?.(stdout);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, opts.timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const events: AgentEvent[] = [];
      const badLines: string[] = [];
      for (const line of stdout.split("\n")) {
        if (!line.trim()) continue;
        try {
          events.push(JSON.parse(line) as AgentEvent);
        } catch {
          badLines.push(line);
        }
      }
      resolve({ code, signal, stdout, stderr, events, badLines, ms: Date.now() - started, timedOut });
    });
  });
}

/** The environment of a CLI run: no API keys, tasks kept under `dataHome`. */
export function cliEnv(dataHome: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: dataHome, ...extra };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  return env;
}
