import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { EXIT } from "../exitCodes";
import { cliModels } from "../runModel";
import { parseCli, UsageError } from "../runOptions";
import { runTrust } from "../runPeople";
import { fathomAcpAgent } from "./acpAgent";
import type { AcpSession } from "./acpSession";

export const ACP_USAGE = `Usage: fathom acp [--provider NAME] [--model ID] [--base-url URL] [--yes] [--no-sandbox]
                 [--approvals LEVEL] [--allow-domain D]... [--mcp-config FILE]...
                 [model options as for fathom run]

Runs Fathom as an Agent Client Protocol agent on stdin/stdout (JSON-RPC, one message a line),
for editors that host agents over ACP (Zed, JetBrains IDEs, Neovim's CodeCompanion, …). The
editor starts it; each session works in the folder the editor gives. Keys and providers are
those of "fathom run" (OPENAI_API_KEY, ANTHROPIC_API_KEY, --provider, --base-url). Writes and
commands are asked in the editor unless --yes or the permission level (--approvals, or the
editor's mode: session/set_mode) says otherwise; nothing but the protocol goes to stdout
(messages for a person go to stderr). See docs/cli.md, "Fathom in other editors (ACP)".`;

/** `fathom run` flags that mean nothing here: the editor gives the folder, the prompt and the files. */
const NOT_HERE = [
  "--cwd",
  "--json",
  "--task",
  "--plan",
  "--act",
  "--record",
  "--replay",
  "--file",
  "--worktree",
  "--agent",
];

/** `fathom acp`: serves one client on stdin/stdout until it closes stdin; then every run is stopped. */
export async function acpCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${ACP_USAGE}\n`);
    return EXIT.done;
  }
  const unsupported = argv.find((a) => NOT_HERE.includes(a.split("=")[0]!));
  let opts;
  try {
    if (unsupported)
      throw new UsageError(
        `${unsupported} is not an option of fathom acp: the editor gives the folder and the prompt.`,
      );
    // The same flags, keys and providers as `fathom run` (the prompt comes from the editor).
    const parsed = parseCli(["run", ...argv, "(prompts come from the editor)"], process.env, process.cwd());
    if (parsed === "help") throw new UsageError("Unexpected help.");
    opts = parsed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`fathom acp: ${error.message}\n${ACP_USAGE}\n`);
    return EXIT.usage;
  }
  const { makeModel } = cliModels(opts);
  const { sandbox, policy, level, autopilotRefused } = runTrust(opts);
  // Runs start their commands from an empty folder of our own (the sandbox puts stand-ins in
  // the process's folder), made once here since sessions may run at once.
  const neutral = sandbox ? mkdtempSync(path.join(os.tmpdir(), "fathom-acp-")) : undefined;
  if (neutral) process.chdir(neutral);
  const sessions = new Map<string, AcpSession>();
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = fathomAcpAgent({ opts, makeModel, sandbox, policy, level, autopilotRefused }, sessions).connect(
    stream,
  );
  await connection.closed.catch(() => undefined);
  // The client went away: every running turn is cancelled and waited for (its commands and MCP servers stopped).
  for (const session of sessions.values()) session.cancel();
  await Promise.all([...sessions.values()].map((s) => s.idle()));
  await sandbox?.dispose();
  if (neutral) {
    process.chdir(os.tmpdir());
    rmSync(neutral, { recursive: true, force: true });
  }
  return EXIT.done;
}
