import { CommandSandbox, sandboxUnavailable } from "../core/executor/sandbox";

/** Parts of `fathom run` that need no state of its own (kept out of main.ts, which is at its size limit). */

/** The sandbox for this run, or null (said once on stderr) when it cannot run here. */
export function cliSandbox(opts: { allowDomains: string[] }): CommandSandbox | null {
  const problem = sandboxUnavailable();
  if (problem) {
    process.stderr.write(`fathom: ${problem} Until then every command is asked (or pass --no-sandbox to run commands with your full rights).\n`);
    return null;
  }
  return new CommandSandbox({ allowedDomains: opts.allowDomains });
}

export const NO_TTY_OUTSIDE_SANDBOX =
  "Running a command outside the OS sandbox needs the person's yes at a terminal, and no one is there, so it was not run. Do it inside the sandbox (when it runs here), or report what you need.";

export const NO_TTY_MEMORY =
  "No one is at a terminal to approve a write to memory, so it was not written. The person can rerun fathom with --allow-memory-writes, or at a terminal.";

export const NO_TTY_REASON =
  "No one is at a terminal to approve this, so it was not run. The person can rerun fathom with --yes to allow writes and commands.";

export function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => (stream.writableNeedDrain ? stream.once("drain", () => resolve()) : resolve()));
}
