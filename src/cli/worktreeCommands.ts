import { statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { TaskWorktrees } from "../core/worktrees/taskWorktrees";
import type { TaskWorktree } from "../core/worktrees/worktreeRecords";
import { parseCommandArgs } from "./commandArgs";

export const WORKTREES_USAGE = `Usage: fathom worktrees [--cwd DIR] [--json]
       fathom apply TASK_ID [--cwd DIR] [--json]
       fathom discard TASK_ID [--cwd DIR] [--json]
"fathom run --worktree" runs a task in its own git worktree, on a new branch fathom/<name> from
HEAD, kept in $XDG_DATA_HOME/fathom-worktrees (outside the repository): your working tree,
index and branch are not touched. "worktrees" lists the repository's task worktrees (task,
branch, state, files changed, folder), from VS Code too. "apply" brings a task's changes into
your working tree as uncommitted changes; it refuses, changing nothing, when a file it would
touch has changes of yours (and says which). "discard" removes the worktree and its branch.
Exit codes: 0 done, 1 failed, 2 usage error (or no such task), 3 apply refused (your changes).`;

export class WorktreeUsageError extends Error {}

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

export const WORKTREE_EXIT = { done: 0, failed: 1, usage: 2, refused: 3 } as const;

function parse(argv: readonly string[], positionals: number) {
  const r = parseCommandArgs(argv, { cwd: { type: "string" }, json: { type: "boolean" } }, WorktreeUsageError);
  if (r.positionals.length !== positionals)
    throw new WorktreeUsageError(
      positionals ? "Missing the task id (fathom worktrees lists them)." : `Unexpected "${r.positionals[0]}".`,
    );
  return r;
}

function folder(cwd: string, dir: string | undefined): string {
  const resolved = path.resolve(cwd, dir ?? ".");
  if (!statSync(resolved, { throwIfNoEntry: false })?.isDirectory())
    throw new WorktreeUsageError(`--cwd ${resolved} is not a directory.`);
  return resolved;
}

/** What `fathom worktrees --json` prints of one worktree. */
export function worktreeJson(w: TaskWorktree, filesChanged: number | null): Record<string, unknown> {
  return {
    taskId: w.taskId,
    title: w.title,
    branch: w.branch,
    path: w.path,
    root: w.root,
    state: w.state,
    base: w.base,
    createdAt: w.createdAt,
    filesChanged,
    exists: w.exists,
  };
}

/** `fathom worktrees`, `fathom apply TASK_ID`, `fathom discard TASK_ID`. */
export async function worktreeCommand(
  command: "worktrees" | "apply" | "discard",
  argv: readonly string[],
  cwd: string,
  io: Io,
): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.out.write(`${WORKTREES_USAGE}\n`);
    return WORKTREE_EXIT.done;
  }
  const { values, positionals } = parse(argv, command === "worktrees" ? 0 : 1);
  const wts = new TaskWorktrees({ repoDir: folder(cwd, values.cwd), surface: "cli" });
  const support = await wts.support();
  if (!support.ok) throw new WorktreeUsageError(support.reason);
  const json = values.json === true;
  const print = (line: unknown) => io.out.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
  if (command === "worktrees") {
    const list = await wts.list();
    const rows = await Promise.all(
      list.map(async (w) => ({
        w,
        files: w.exists ? ((await wts.changes(w.taskId).catch(() => null))?.length ?? null) : null,
      })),
    );
    if (json) print({ worktrees: rows.map(({ w, files }) => worktreeJson(w, files)) });
    else if (rows.length === 0) print('No task worktrees in this repository. Start one: fathom run --worktree "..."');
    else
      for (const { w, files } of rows)
        print(
          `${w.taskId}  ${w.branch}  ${w.state}  ${files === null ? "?" : files} file${files === 1 ? "" : "s"} changed  ${w.exists ? w.path : `${w.path} (folder gone)`}\n    ${w.title}`,
        );
    return WORKTREE_EXIT.done;
  }
  const taskId = positionals[0]!;
  if (!(await wts.get(taskId)))
    throw new WorktreeUsageError(
      `No Fathom worktree for task ${taskId} in this repository ("fathom worktrees" lists them).`,
    );
  if (command === "apply") {
    const result = await wts.apply(taskId);
    if (json) print({ type: "apply", taskId, ...result });
    else (result.ok ? io.out : io.err).write(`${result.ok ? "" : "fathom: "}${result.message}\n`);
    return result.ok
      ? WORKTREE_EXIT.done
      : !result.ok && result.conflicts.length > 0
        ? WORKTREE_EXIT.refused
        : WORKTREE_EXIT.failed;
  }
  const w = (await wts.get(taskId))!;
  await wts.discard(taskId);
  if (json) print({ type: "discard", taskId, branch: w.branch, path: w.path });
  else print(`Discarded task ${taskId}: removed ${w.path} and branch ${w.branch}.`);
  return WORKTREE_EXIT.done;
}

/**
 * `--worktree [NAME]` of `fathom run`: NAME, when given, follows the flag and the prompt comes
 * after it (`--worktree=NAME` works too). Returns argv without it, and what it said.
 */
export function takeWorktreeFlag(
  argv: readonly string[],
  options: ParseArgsConfig["options"],
): { argv: string[]; worktree?: { name?: string } } {
  const args = [...argv];
  const at = args.findIndex((a) => a === "--worktree" || a.startsWith("--worktree="));
  if (at < 0) return { argv: args };
  const flag = args[at]!;
  if (flag.startsWith("--worktree=")) {
    args.splice(at, 1);
    const name = flag.slice("--worktree=".length).trim();
    return { argv: args, worktree: name ? { name } : {} };
  }
  // A name only when a prompt still follows it as another positional argument.
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  const flagToken = tokens.findIndex((t) => t.index === at);
  const next = tokens[flagToken + 1];
  const positionalsAfter = tokens.slice(flagToken + 1).filter((t) => t.kind === "positional").length;
  if (next?.kind === "positional" && positionalsAfter > 1 && args[at + 1] === next.value) {
    args.splice(at, 2);
    return { argv: args, worktree: { name: next.value } };
  }
  args.splice(at, 1);
  return { argv: args, worktree: {} };
}
