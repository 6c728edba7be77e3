import type { AgentEvent, DoneEvent } from "../core/run/events";
import { approveAll, type ApprovalGate, type ApprovalPolicy } from "../core/approval";
import { FilesystemBackend } from "../core/backends/filesystem";
import { openSandbox, runHeadless, type HeadlessAgentOptions } from "../core/headless/headlessRun";
import { DEFAULT_MODELS, createModel } from "../core/model/createModel";
import { checkpointStoreFor, loadTask, newTaskId, saveTask, workspaceDataDir, type CliTask } from "./cliTasks";
import { humanRenderer, jsonRenderer, redact } from "./render";
import { recordTo, replayFrom, type ModelTap } from "./replayOptions";
import { announceFit } from "./modelOptions";
import { TerminalApprovalGate, noOneAtTerminal } from "./terminalApprovalGate";
import { TerminalQuestionAsker } from "./terminalQuestions";
import { StdinSteering } from "./stdinSteering";
import { planNextSteps, planRun } from "./planRun";
import { parseCli, UsageError, type CliOptions } from "./runOptions";
import { SteeringInbox } from "../core/agent/steering";
import { noOneToAsk, type QuestionAsker } from "../core/question";
import { placeTask } from "./runWorktree";
import { RUN_USAGE as USAGE } from "./usage";
import { startMcp } from "./workspaceMcp";
import { announce, cliTeamRun } from "./teamFilesCli";
import { EXIT } from "./exitCodes";
import { subcommand } from "./subcommands";
import { cliHooks } from "./cliHooks";
import { memoryFolders } from "../core/memory/memoryStore";

export { EXIT };

export { parseCli, VSCODE_ONLY } from "./runOptions";

export async function main(argv: readonly string[]): Promise<number> {
  const other = await subcommand(argv);
  if (other !== undefined) return other;
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
  const opts = options;
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.cancelled);
    process.stderr.write("\nCancelling… (Ctrl+C again to quit at once)\n");
    controller.abort();
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onInterrupt);

  const retryBase = opts.replay ? 1 : Number(process.env.FATHOM_RETRY_BASE_DELAY_MS);
  const tap: ModelTap | undefined = opts.replay
    ? replayFrom(opts.replay, opts.cwd)
    : opts.record
      ? recordTo(opts.record, {
          provider: opts.provider,
          model: opts.model.trim() || DEFAULT_MODELS[opts.provider],
          prompt: opts.prompt,
          workspaceRoot: opts.cwd,
          secrets: opts.apiKey ? [opts.apiKey] : [],
          options: { yes: opts.yes, sandbox: opts.sandbox },
        })
      : undefined;
  const makeModel = (id: string) =>
    createModel({
      provider: opts.provider,
      model: id,
      ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
      ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
      ...(opts.override ? { override: opts.override } : {}),
      ...(Number.isFinite(retryBase) && retryBase >= 0 ? { retryBaseDelayMs: retryBase } : {}),
      ...(tap ? { fetch: tap.fetch } : {}),
      surface: "cli",
    });
  const model = makeModel(opts.model);
  const interactive = process.stdin.isTTY === true && !opts.json;
  // At a terminal, a line typed while the task works goes to the model at its next step.
  const inbox = new SteeringInbox();
  const steering = interactive ? new StdinSteering(process.stdin, process.stderr, inbox) : undefined;
  const terminal = { input: process.stdin, output: process.stderr, onInterrupt };
  const approvals = new TerminalApprovalGate(terminal);
  const asker: ApprovalGate = interactive
    ? { request: (r, signal) => steering!.whileAsking(() => approvals.request(r, signal)) }
    : noOneAtTerminal;
  // --yes is for unattended runs: questions are not asked then either.
  const terminalQuestions = new TerminalQuestionAsker(terminal);
  const questions: QuestionAsker =
    interactive && !opts.yes
      ? { ask: (q, signal) => steering!.whileAsking(() => terminalQuestions.ask(q, signal)) }
      : noOneToAsk;
  // --yes approves what the policy asks about, but never what must reach the person.
  const gate: ApprovalGate = opts.yes
    ? { request: (r, signal) => (r.mustAsk ? asker.request(r, signal) : approveAll.request(r, signal)) }
    : asker;
  // The sandbox, or null (said once) when it cannot run here.
  const sandbox = opts.sandbox
    ? openSandbox(opts.allowDomains, (problem) =>
        process.stderr.write(
          `fathom: ${problem} Until then every command is asked (or pass --no-sandbox to run commands with your full rights).\n`,
        ),
      )
    : undefined;
  // Without the sandbox they asked for, commands are never run unasked.
  const executeAuto = opts.yes && (sandbox !== null || !opts.sandbox);
  const policy: ApprovalPolicy = opts.yes
    ? { read: "auto", edit: "auto", execute: executeAuto ? "auto" : "ask", other: "auto" }
    : {};
  const taskId = opts.task ?? newTaskId();
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
    ...(interactive ? { terminal: { input: process.stdin, output: process.stderr, onInterrupt } } : {}),
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
  const promptIo = interactive ? { input: process.stdin, output: process.stderr, onInterrupt } : undefined;
  const runModel = team.model ? makeModel(team.model) : model;
  const agentOptions = async (): Promise<HeadlessAgentOptions> => {
    // The repository's hook files are read where the person works; hooks run in the task's folder.
    const hooks = await cliHooks(
      { repoRoot: opts.cwd, allowWorkspaceHooks: opts.allowWorkspaceHooks, sandbox },
      promptIo,
      process.stderr,
    );
    return {
      checkpoints: { store: checkpoints, taskId, onError: (m) => process.stderr.write(`fathom: ${m}\n`) },
      model: runModel,
      workspaceRoot: root,
      backend,
      teamFiles: team.catalog,
      modelFor: makeModel,
      ...(team.agent ? { agent: team.agent } : {}),
      ...(team.narrowTools ? { narrowTools: team.narrowTools } : {}),
      memory: { folders: memoryFolders(opts.cwd), allowWrites: opts.allowMemoryWrites },
      ...(hooks.length ? { hooks: { hooks, cwd: root, sessionId: taskId, ...(sandbox ? { sandbox } : {}) } } : {}),
      approvalPolicy: policy,
      // Without the sandbox they asked for, every command reaches the person, --yes or not.
      ...(sandbox === null
        ? {
            commands: {
              alwaysAsk:
                "The OS sandbox cannot run here, so this command would run with your full rights (files, keys, network).",
            },
          }
        : {}),
      approvalGate: gate,
      questions,
      webFetch: { allowDomains: opts.allowDomains },
      ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
      ...(opts.spendCapUsd ? { spendCapUsd: opts.spendCapUsd } : {}),
    };
  };

  const target = { out: process.stdout, err: process.stderr, secrets: opts.apiKey ? [opts.apiKey] : [] };
  const render = opts.json ? jsonRenderer(target) : humanRenderer(target);
  let done: DoneEvent | undefined;
  const rules: string[] = [];
  let plan: Extract<AgentEvent, { type: "plan_proposed" }> | undefined;
  const onEvent = async (event: AgentEvent) => {
    if (event.type === "rules_loaded") rules.push(...event.files.filter((f) => !rules.includes(f)));
    if (event.type === "plan_proposed") {
      plan = event;
      // --json: the plan as an event of its own, with the task to start it from.
      if (opts.json) render({ type: "plan", taskId, text: event.text, capped: event.capped } as unknown as AgentEvent);
      return;
    }
    if (event.type !== "done") return render(event);
    done = event;
    const now = Date.now();
    saveTask(dataDir, {
      version: 1,
      id: taskId,
      title: saved?.title ?? opts.prompt,
      createdAt: saved?.createdAt ?? now,
      updatedAt: now,
      reason: event.reason,
      state: event.state,
    });
    await place.finish(event.reason);
    // --json callers find the task id (and its worktree) in the done event.
    render({
      ...event,
      taskId,
      rules,
      ...(worktree ? { worktree: worktree.path, branch: worktree.branch } : {}),
    } as AgentEvent);
    if (!opts.json && plan) process.stderr.write(planNextSteps(taskId, plan.capped));
    else if (!opts.json)
      process.stderr.write(
        `Task ${taskId} saved. Undo its changes: fathom restore ${taskId}; continue it: fathom run --task ${taskId} "..."\n`,
      );
    if (worktree && !opts.json)
      process.stderr.write(
        `Its changes are in ${worktree.path} (branch ${worktree.branch}). Review: fathom worktrees; take them: fathom apply ${taskId}; drop them: fathom discard ${taskId}\n`,
      );
  };
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
      signal: controller.signal,
      sandbox,
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
      onEvent,
    });
  } catch (error) {
    process.stderr.write(`fathom: ${redact((error as Error).message, target.secrets)}\n`);
    return EXIT.failed;
  } finally {
    steering?.stop();
    if (!done) await place.finish(undefined);
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    // Over the storage cap, the oldest tasks' checkpoints go (never this one's).
    await checkpoints
      .prune(taskId)
      .catch((e: unknown) => process.stderr.write(`fathom: could not prune old checkpoints: ${String(e)}\n`));
  }
  if (tap) {
    for (const line of await tap.finish()) process.stderr.write(`fathom: ${line}\n`);
    const diverged = tap.divergence();
    if (diverged) {
      if (opts.json)
        process.stdout.write(
          `${JSON.stringify({ type: "replay_diverged", request: diverged.request, what: diverged.what, report: diverged.report })}\n`,
        );
      return EXIT.failed;
    }
  }
  if (!done) return EXIT.failed;
  if (done.reason === "completed") return EXIT.done;
  if (done.reason === "cancelled") return EXIT.cancelled;
  return EXIT.failed;
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
