/**
 * `fathom commit-message [--cwd DIR] [--all]`: a commit message for the staged changes, printed
 * on stdout (so `git commit -F -` or `-m "$(…)"` can take it), written by the same model flags
 * as `fathom run` and the same request as VS Code's Generate Commit Message button.
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import { readRepositoryChanges } from "../core/commitMessage/repositoryChanges";
import { writeCommitMessage } from "../core/commitMessage/writeCommitMessage";
import {
  commandModel,
  HELP_OPTION,
  MODEL_OPTIONS,
  parseCommandArgs,
  runAsProcess,
  SERVER_OPTIONS,
  type CommandIo,
} from "./commandArgs";

export const COMMIT_MESSAGE_USAGE = `Usage: fathom commit-message [--cwd DIR] [--all] [--provider NAME] [--model ID] [--base-url URL]
                             [--context-window N]

Writes a commit message for the staged changes of the repository holding DIR (default: the
current directory) and prints it. The model gets the staged diff (a large one cut per file to
fit; lockfiles, generated, binary and secret files by name only) and the repository's 10 latest
commit subjects as the style to follow. No tools, nothing written.
  git commit -e -m "$(fathom commit-message)"

Options:
  --cwd DIR             a folder of the repository (default: the current directory)
  --all                 when nothing is staged, describe every uncommitted change instead
                        (tracked files and files git does not track yet)
  --provider, --model, --base-url, --context-window   as for fathom run
Keys come from OPENAI_API_KEY or ANTHROPIC_API_KEY.
Exit codes: 0 printed, 1 nothing to describe (or it failed; the reason is on stderr), 2 usage
error, 130 cancelled.`;

export class CommitMessageUsageError extends Error {}

export async function commitMessageCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      cwd: { type: "string" },
      all: { type: "boolean" },
      ...SERVER_OPTIONS,
      ...MODEL_OPTIONS,
      ...HELP_OPTION,
    },
    CommitMessageUsageError,
    false,
  );
  if (values.help) {
    io.out.write(`${COMMIT_MESSAGE_USAGE}\n`);
    return 0;
  }
  const dir = path.resolve(io.cwd, values.cwd ?? ".");
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new CommitMessageUsageError(`--cwd ${dir} is not a directory.`);
  const { model, apiKey } = commandModel(
    values,
    io.env,
    CommitMessageUsageError,
    "VS Code's language models (provider vscode) can only be used inside VS Code: there, use Source Control's Generate Commit Message button. Here use --provider openai, anthropic or openai-compatible.",
  );

  const changes = await readRepositoryChanges(dir, { all: values.all === true });
  if ("error" in changes) {
    io.err.write(`fathom: ${changes.error}\n`);
    return 1;
  }
  if (changes.files.length === 0) {
    io.err.write(
      values.all
        ? `fathom: There are no uncommitted changes in ${changes.root} to describe.\n`
        : `fathom: Nothing is staged in ${changes.root}, so there is nothing to describe. Stage what the commit should hold (git add PATH), or pass --all to describe every uncommitted change.\n`,
    );
    return 1;
  }
  const result = await writeCommitMessage({
    model,
    files: changes.files,
    scope: changes.scope,
    subjects: changes.subjects,
    ...(io.signal ? { signal: io.signal } : {}),
  });
  if (!result.ok) {
    io.err.write(`fathom: ${apiKey ? result.message.split(apiKey).join("[key]") : result.message}\n`);
    return result.reason === "cancelled" ? 130 : 1;
  }
  if (result.summarized)
    io.err.write(
      "fathom: the diff was too large to send whole, so each file was cut to fit; check that the message covers what matters.\n",
    );
  io.out.write(`${result.message}\n`);
  return 0;
}

/** `fathom commit-message` as the process runs it: Ctrl+C cancels, a usage error exits 2. */
export function commitMessageMain(argv: readonly string[]): Promise<number> {
  return runAsProcess((io) => commitMessageCommand(argv, io), {
    error: CommitMessageUsageError,
    text: COMMIT_MESSAGE_USAGE,
  });
}
