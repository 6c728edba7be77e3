import { FilesystemBackend } from "../core/backends/filesystem";
import { checkpointStoreFor, loadTask, workspaceDataDir, type CliTask } from "./cliTasks";
import { EXIT } from "./exitCodes";
import { planRun } from "./planRun";
import type { CliOptions } from "./runOptions";
import { placeTask } from "./runWorktree";
import { cliTeamRun } from "./teamFilesCli";

type TerminalIo = { input: NodeJS.ReadStream; output: NodeJS.WriteStream; onInterrupt: () => void };

/**
 * Where and what the task runs: its folder (or its worktree, said once), the task continued
 * (--task), the team files' agent and prompt, a first checkpoint, and the plan/act input.
 * On a problem it is said (as an event too with --json) and the exit code returned.
 */
export async function prepareTask(opts: CliOptions, taskId: string, promptIo: TerminalIo | undefined) {
  const place = await placeTask(opts.cwd, taskId, {
    ...(opts.worktree ? { worktree: opts.worktree } : {}),
    prompt: opts.prompt,
    continuing: opts.task !== undefined,
  });
  if ("error" in place) {
    if (opts.json)
      process.stdout.write(
        `${JSON.stringify({ type: "error", kind: place.usage ? "usage" : "worktree", message: place.error })}\n`,
      );
    process.stderr.write(`fathom: ${place.error}\n`);
    return place.usage ? EXIT.usage : EXIT.failed;
  }
  // In a worktree, the task's data (conversation, checkpoints) belongs to the worktree's folder.
  const root = place.root;
  const worktree = place.worktree;
  if (worktree && !opts.json)
    process.stderr.write(
      `Working in ${worktree.root} on branch ${worktree.branch} (your working tree is not touched).\n`,
    );
  const dataDir = workspaceDataDir(root);
  let saved: CliTask | undefined;
  try {
    saved = opts.task ? loadTask(dataDir, opts.task) : undefined;
  } catch (error) {
    process.stderr.write(`fathom: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const backend = new FilesystemBackend({ rootDir: root });
  const team = await cliTeamRun({
    root,
    backend,
    prompt: opts.prompt,
    provider: opts.provider,
    attachments: opts.attachments,
    ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
    ...(promptIo ? { terminal: { ...promptIo } } : {}),
  });
  if ("error" in team) {
    if (opts.json) process.stdout.write(`${JSON.stringify({ type: "error", kind: "usage", message: team.error })}\n`);
    process.stderr.write(`fathom: ${team.error}\n`);
    await place.finish(undefined);
    return EXIT.usage;
  }
  const checkpoints = checkpointStoreFor(dataDir);
  await checkpoints.checkpoint(taskId, {
    kind: "message",
    label: opts.act ? `Start the plan${opts.prompt ? `: ${opts.prompt}` : ""}` : opts.prompt,
    conversationLength: saved?.state.messages.length ?? 0,
  });
  const run = planRun({
    plan: opts.plan,
    act: opts.act,
    prompt: team.prompt,
    ...(saved ? { saved: saved.state } : {}),
  });
  if ("error" in run) {
    process.stderr.write(`fathom: ${run.error}\n`);
    await place.finish(undefined);
    return EXIT.usage;
  }
  return { place, root, worktree, dataDir, saved, backend, team, checkpoints, run };
}

export type PreparedTask = Exclude<Awaited<ReturnType<typeof prepareTask>>, number>;
