import { evalCommand } from "./eval/evalCommand";
import { commitMessageMain } from "./commitMessageCommand";
import { reviewMain } from "./reviewCommand";
import { EXIT } from "./exitCodes";
import { MEMORIES_USAGE, MemoriesUsageError, memoriesCommand } from "./memoriesCommand";
import { MODELS_USAGE, ModelsUsageError, modelsCommand } from "./modelsCommand";
import { CommandUsageError, TASKS_USAGE, restoreCommand, tasksCommand } from "./restoreCommands";
import { WORKTREES_USAGE, WorktreeUsageError, worktreeCommand } from "./worktreeCommands";

/** Runs `command`, turning its usage errors into exit 2 with the command's usage, others into exit 1. */
async function guarded(
  command: () => Promise<number>,
  usageError: new (...args: never[]) => Error,
  usage: string,
): Promise<number> {
  try {
    return await command();
  } catch (error) {
    const isUsage = error instanceof usageError;
    process.stderr.write(`fathom: ${(error as Error).message}\n${isUsage ? `${usage}\n` : ""}`);
    return isUsage ? EXIT.usage : EXIT.failed;
  }
}

/** Every command but `run`: its exit code, or undefined when `argv` is a `run`. */
export async function subcommand(argv: readonly string[]): Promise<number | undefined> {
  const [name, ...rest] = argv;
  const io = { out: process.stdout, err: process.stderr, input: process.stdin };
  switch (name) {
    case "eval":
      return evalCommand(rest, { cwd: process.cwd(), env: process.env, out: process.stdout, err: process.stderr });
    case "commit-message":
      return commitMessageMain(rest);
    case "review":
      return reviewMain(rest);
    case "models":
      return guarded(() => modelsCommand(rest, process.env, io), ModelsUsageError, MODELS_USAGE);
    case "worktrees":
    case "apply":
    case "discard":
      return guarded(() => worktreeCommand(name, rest, process.cwd(), io), WorktreeUsageError, WORKTREES_USAGE);
    case "tasks":
    case "restore":
      return guarded(
        () => (name === "tasks" ? tasksCommand : restoreCommand)(rest, process.cwd(), io),
        CommandUsageError,
        TASKS_USAGE,
      );
    case "acp":
      // Loaded on use: the ACP SDK is only for this command.
      return (await import("./acp/acpCommand")).acpCommand(rest);
    case "memories":
      return guarded(() => memoriesCommand(rest, process.cwd(), io), MemoriesUsageError, MEMORIES_USAGE);
    default:
      return undefined;
  }
}
