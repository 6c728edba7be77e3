import { statSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { FilesystemBackend } from "../core/backends/filesystem";
import { sizeText, type RestorePlan } from "../core/checkpoints/checkpointStore";
import { checkpointStoreFor, listTasks, loadTask, removeTask, saveTask, workspaceDataDir } from "./cliTasks";

export class CommandUsageError extends Error {}

export const TASKS_USAGE = `Usage: fathom tasks [--cwd DIR] [--json]
       fathom tasks --delete TASK_ID [--cwd DIR]
Lists the workspace's tasks, newest first, with their checkpoints (0 is before the task) and the
storage they use (at most FATHOM_CHECKPOINTS_MAX_MB, default 300; past it the oldest tasks'
checkpoints are deleted first). --delete forgets a task and frees its checkpoints; your files
are not touched.

Usage: fathom restore TASK_ID [--to N] [--files|--conversation|--both] [--cwd DIR] [--yes]
Takes a task back to checkpoint N (default 0, before the task): its files (only those Fathom
changed; one changed since by you or anything else is left as it is and listed), its
conversation (fathom run --task TASK_ID continues from there), or both (the default). Without
--yes it shows what will change and asks; with no terminal to ask on, it refuses.`;

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
}

function workspace(cwd: string, dir: string | undefined): string {
  const resolved = path.resolve(cwd, dir ?? ".");
  if (!statSync(resolved, { throwIfNoEntry: false })?.isDirectory())
    throw new CommandUsageError(`--cwd ${resolved} is not a directory.`);
  return resolved;
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");
const mb = sizeText;

export async function tasksCommand(argv: readonly string[], cwd: string, io: Io): Promise<number> {
  const { values } = parse(argv, { cwd: { type: "string" }, json: { type: "boolean" }, delete: { type: "string" } }, 0);
  const dataDir = workspaceDataDir(workspace(cwd, values.cwd as string | undefined));
  const store = checkpointStoreFor(dataDir);
  if (typeof values.delete === "string") return deleteTask(values.delete, dataDir, store, io);
  const tasks = [];
  for (const task of listTasks(dataDir)) tasks.push({ task, checkpoints: await store.checkpoints(task.id) });
  const storageBytes = await store.usage();
  if (values.json) {
    const json = tasks.map(({ task, checkpoints }) => ({
      id: task.id,
      title: task.title,
      createdAt: task.createdAt,
      updatedAt: task.updatedAt,
      reason: task.reason,
      checkpoints: checkpoints.map((c) => ({
        n: c.n,
        kind: c.kind,
        label: c.label,
        at: c.at,
        filesChangedAfter: c.files,
        notKept: c.notKept,
      })),
    }));
    io.out.write(`${JSON.stringify({ tasks: json, storageBytes, storageLimitBytes: store.maxStorageBytes })}\n`);
    return 0;
  }
  if (tasks.length === 0) io.out.write("No tasks yet in this workspace.\n");
  for (const { task, checkpoints } of tasks) {
    io.out.write(`${task.id}  ${when(task.updatedAt)}  ${task.reason}  ${JSON.stringify(task.title)}\n`);
    if (checkpoints.length === 0) {
      io.out.write("      no checkpoints (pruned to stay under the storage cap): its files cannot be restored\n");
      continue;
    }
    io.out.write(`   0  before the task\n`);
    for (const c of checkpoints) {
      io.out.write(
        `  ${String(c.n).padStart(2)}  ${c.kind === "message" ? `your message ${JSON.stringify(c.label.slice(0, 60))}` : `before: ${c.label}`}\n`,
      );
      // A write's own file is already said in its label.
      const notKept = c.notKept.filter((p) => !c.label.startsWith(`Changed ${p} (`));
      if (notKept.length)
        io.out.write(
          `      not kept (over the size checkpoints keep), cannot be restored to here: ${notKept.join(", ")}\n`,
        );
    }
  }
  io.out.write(`Storage used: ${mb(storageBytes)} of ${mb(store.maxStorageBytes)}\n`);
  return 0;
}

export async function restoreCommand(argv: readonly string[], cwd: string, io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      cwd: { type: "string" },
      to: { type: "string" },
      files: { type: "boolean" },
      conversation: { type: "boolean" },
      both: { type: "boolean" },
      yes: { type: "boolean", short: "y" },
    },
    1,
  );
  const id = positionals[0]!;
  const to = values.to === undefined ? 0 : Number(values.to);
  if (!Number.isInteger(to) || to < 0)
    throw new CommandUsageError(
      `--to must be a checkpoint number, 0 or more (got "${String(values.to)}"); "fathom tasks" lists them.`,
    );
  const picked = (["files", "conversation", "both"] as const).filter((k) => values[k]);
  if (picked.length > 1) throw new CommandUsageError("Pass one of --files, --conversation and --both.");
  const what = picked[0] ?? "both";
  const root = workspace(cwd, values.cwd as string | undefined);
  const dataDir = workspaceDataDir(root);
  const task = loadTask(dataDir, id);
  const store = checkpointStoreFor(dataDir);
  const backend = new FilesystemBackend({ rootDir: root });
  let plan: RestorePlan;
  try {
    plan = await store.plan(id, to, backend);
  } catch (error) {
    throw new CommandUsageError(`${(error as Error).message} "fathom tasks" lists the checkpoints.`);
  }
  const files = what !== "conversation";
  const conversation = what !== "files";
  io.err.write(`Restore task ${id} to checkpoint ${to}${to === 0 ? " (before the task)" : ""}:\n`);
  if (files) {
    if (plan.files.length === 0) io.err.write("  no file to change\n");
    for (const f of plan.files) {
      const verb = f.notKept
        ? "cannot restore"
        : f.conflict
          ? "conflict, left as it is"
          : f.action === "delete"
            ? "delete (Fathom created it)"
            : f.current === null
              ? "recreate"
              : "restore";
      io.err.write(`  ${f.path}: ${verb}${f.notKept ? ` (${f.notKept})` : f.conflict ? ` (${f.conflict})` : ""}\n`);
    }
    for (const c of plan.commands) io.err.write(`  not restored, a command's changes: ${c}\n`);
  }
  if (conversation)
    io.err.write(`  conversation: back to ${plan.conversationLength} of ${task.state.messages.length} messages\n`);
  if (!values.yes) {
    if (io.input.isTTY !== true) {
      io.err.write(
        "fathom: nothing was changed: no one is at a terminal to confirm. Pass --yes to restore without asking.\n",
      );
      return 1;
    }
    const rl = createInterface({ input: io.input, output: io.err, terminal: true });
    const answer = (await rl.question("Restore? [y/N] ")).trim().toLowerCase();
    rl.close();
    if (answer !== "y" && answer !== "yes") {
      io.err.write("Nothing was changed.\n");
      return 0;
    }
  }
  let failed = 0;
  if (files) {
    const result = await store.restore(plan, backend);
    for (const p of result.restored) io.out.write(`restored ${p}\n`);
    for (const c of result.conflicts) io.out.write(`left as it is ${c.path}: ${c.reason}\n`);
    for (const f of result.failed) io.out.write(`not restored ${f.path}: ${f.reason}\n`);
    for (const c of result.commands) io.out.write(`not restored (a command's changes): ${c}\n`);
    failed = result.failed.length;
  }
  if (conversation) {
    saveTask(dataDir, {
      ...task,
      updatedAt: Date.now(),
      state: { ...task.state, messages: task.state.messages.slice(0, plan.conversationLength) },
    });
    io.out.write(
      `conversation back to ${plan.conversationLength} messages; continue with: fathom run --task ${id} "..."\n`,
    );
  }
  return failed > 0 ? 1 : 0;
}

async function deleteTask(
  id: string,
  dataDir: string,
  store: ReturnType<typeof checkpointStoreFor>,
  io: Io,
): Promise<number> {
  const before = await store.usage();
  const hadCheckpoints = await store.hasTask(id);
  const hadTask = removeTask(dataDir, id);
  if (!hadTask && !hadCheckpoints)
    throw new CommandUsageError(`No task ${id} in this workspace; "fathom tasks" lists them.`);
  await store.deleteTask(id);
  io.out.write(
    `Deleted task ${id} and its checkpoints (${mb(Math.max(0, before - (await store.usage())))} freed). Your files were not touched.\n`,
  );
  return 0;
}

function parse(
  argv: readonly string[],
  options: NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>,
  positionals: number,
) {
  try {
    const r = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
    if (r.positionals.length !== positionals)
      throw new Error(
        positionals
          ? "Missing the task id: fathom restore TASK_ID (see fathom tasks)."
          : `Unexpected "${r.positionals[0]}".`,
      );
    return r as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  } catch (error) {
    throw new CommandUsageError((error as Error).message);
  }
}
