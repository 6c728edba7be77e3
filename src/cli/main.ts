import { runHeadless } from "../core/headless/headlessRun";
import { newTaskId } from "./cliTasks";
import { humanRenderer, jsonRenderer, redact } from "./render";
import { announceFit } from "./modelOptions";
import { parseCli, UsageError, type CliOptions } from "./runOptions";
import { RUN_USAGE as USAGE } from "./usage";
import { startMcp } from "./workspaceMcp";
import { announce } from "./teamFilesCli";
import { EXIT } from "./exitCodes";
import { subcommand } from "./subcommands";
import { cliModels } from "./runModel";
import { runTrust, terminalPeople } from "./runPeople";
import { prepareTask } from "./runPlace";
import { cliAgentOptions, cliCodeIntel } from "./runAgent";
import { taskEvents } from "./runEvents";
import { runExit } from "./runExit";

export { EXIT };

export { parseCli, VSCODE_ONLY } from "./runOptions";

/** `fathom run`'s options, or the exit code when they are wrong (said) or were a request for help. */
function readOptions(argv: readonly string[]): CliOptions | number {
  let options: CliOptions | "help";
  try {
    options = parseCli(argv, process.env, process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // A --json caller parses stdout, so the usage error is an event there too.
    if (argv.includes("--json"))
      process.stdout.write(`${JSON.stringify({ type: "error", kind: "usage", message: error.message })}\n`);
    process.stderr.write(`fathom: ${error.message}\nRun "fathom --help" for usage.\n`);
    return EXIT.usage;
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.done;
  }
  return options;
}

/** Ctrl+C (or SIGTERM) cancels the run; a second one quits at once. */
function interrupts() {
  const controller = new AbortController();
  let count = 0;
  const onInterrupt = () => {
    count++;
    if (count > 1) process.exit(EXIT.cancelled);
    process.stderr.write("\nCancelling… (Ctrl+C again to quit at once)\n");
    controller.abort();
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onInterrupt);
  return {
    signal: controller.signal,
    onInterrupt,
    stop() {
      process.off("SIGINT", onInterrupt);
      process.off("SIGTERM", onInterrupt);
    },
  };
}

export async function main(argv: readonly string[]): Promise<number> {
  const other = await subcommand(argv);
  if (other !== undefined) return other;
  const opts = readOptions(argv);
  if (typeof opts === "number") return opts;
  const interrupt = interrupts();
  const { tap, makeModel } = cliModels(opts);
  const model = makeModel(opts.model);
  const { inbox, steering, gate, questions, promptIo } = terminalPeople(opts, interrupt.onInterrupt);
  const { sandbox, policy, level } = runTrust(opts);
  const taskId = opts.task ?? newTaskId();
  const task = await prepareTask(opts, taskId, promptIo);
  if (typeof task === "number") return task;
  const { place, root, team, checkpoints, run } = task;
  const runModel = team.model ? makeModel(team.model) : model;
  const agentOptions = cliAgentOptions({
    opts,
    taskId,
    task,
    model: runModel,
    makeModel,
    sandbox,
    policy,
    level: () => level,
    gate,
    questions,
    promptIo,
  });

  const target = { out: process.stdout, err: process.stderr, secrets: opts.apiKey ? [opts.apiKey] : [] };
  const render = opts.json ? jsonRenderer(target) : humanRenderer(target);
  const events = taskEvents(opts, taskId, task, render);
  try {
    await runHeadless({
      agent: agentOptions,
      input: run.input,
      run: {
        steering: inbox,
        ...(run.state ? { state: run.state } : {}),
        ...(run.mode ? { mode: run.mode } : {}),
        ...(opts.attachments.length ? { attachments: opts.attachments } : {}),
      },
      signal: interrupt.signal,
      sandbox,
      codeIntel: cliCodeIntel(opts),
      startMcp: () =>
        startMcp(
          { cwd: root, mcpConfigs: opts.mcpConfigs, allowWorkspaceMcp: opts.allowWorkspaceMcp },
          sandbox ?? undefined,
          promptIo,
        ),
      onReady: async () => {
        announce(team, opts.json, render);
        // --act: the plan's steps are the todos from the start.
        if (opts.act && run.state) render({ type: "todos_changed", todos: run.state.todos });
        steering?.start();
        await announceFit(runModel, (line) => process.stderr.write(line));
      },
      onEvent: events.onEvent,
    });
  } catch (error) {
    process.stderr.write(`fathom: ${redact((error as Error).message, target.secrets)}\n`);
    return EXIT.failed;
  } finally {
    steering?.stop();
    if (!events.done()) await place.finish(undefined);
    interrupt.stop();
    // Over the storage cap, the oldest tasks' checkpoints go (never this one's).
    await checkpoints
      .prune(taskId)
      .catch((e: unknown) => process.stderr.write(`fathom: could not prune old checkpoints: ${String(e)}\n`));
  }
  return runExit(events.done(), tap, opts.json);
}

// Entry point (the build adds the shebang). Exits explicitly so a stray handle cannot keep it alive.
if (require.main === module) {
  main(process.argv.slice(2)).then(
    async (code) => {
      await flush(process.stdout);
      process.exit(code);
    },
    (error: unknown) => {
      process.stderr.write(`fathom: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exit(EXIT.failed);
    },
  );
}

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => (stream.writableNeedDrain ? stream.once("drain", () => resolve()) : resolve()));
}
