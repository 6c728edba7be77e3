import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createAgent } from "../core/agent/createAgent";
import type { AgentEvent } from "../core/agent/events";
import { MAX_ATTACHMENTS, parseFileRange, type Attachment } from "../core/attachments";
import type { Cassette } from "../core/replay/cassette";
import { approveAll, rejectAll, type ApprovalGate, type ApprovalPolicy } from "../core/approval";
import { SandboxedExecutor } from "../core/executor/sandboxedExecutor";
import { FilesystemBackend } from "../core/backends/filesystem";
import { ChildProcessExecutor } from "../core/executor/childProcessExecutor";
import { DEFAULT_MODELS, createModel, type Provider } from "../core/model/createModel";
import type { ModelOverride } from "../core/model/modelOverrides";
import { checkpointStoreFor, loadTask, newTaskId, saveTask, workspaceDataDir, type CliTask } from "./cliTasks";
import { humanRenderer, jsonRenderer, redact } from "./render";
import { REPLAY_BASE_URL, loadReplay, recordTo, replayFrom, type ModelTap } from "./replayOptions";
import { MODEL_OPTIONS, announceFit, modelOverrideOf } from "./modelOptions";
import { TerminalApprovalGate } from "./terminalApprovalGate";
import { takeWorktreeFlag } from "./worktreeCommands";
import { placeTask } from "./runWorktree";
import { RUN_USAGE as USAGE } from "./usage";
import { startMcp } from "./workspaceMcp";
import { NO_TTY_MEMORY, NO_TTY_OUTSIDE_SANDBOX, NO_TTY_REASON, cliSandbox, flush } from "./runSupport";
import { announce, cliTeamRun } from "./teamFilesCli";
import { EXIT } from "./exitCodes";
import { subcommand } from "./subcommands";
import { cliHooks } from "./cliHooks";
import { memoryFolders } from "../core/memory/memoryStore";

export { EXIT };

const PROVIDERS: readonly Provider[] = ["openai", "anthropic", "openai-compatible"];
export const VSCODE_ONLY = "VS Code's language models (provider vscode) can only be used inside VS Code. Here use --provider openai, anthropic or openai-compatible.";

class UsageError extends Error {}

interface CliOptions {
  cwd: string;
  provider: Provider;
  model: string;
  baseUrl: string;
  apiKey: string;
  /** --tools, --profile, --context-window, --temperature, --seed (./modelOptions.ts). */
  override?: ModelOverride;
  maxSteps?: number;
  spendCapUsd?: number;
  yes: boolean;
  json: boolean;
  sandbox: boolean;
  allowDomains: string[];
  mcpConfigs: string[];
  allowWorkspaceMcp: boolean;
  allowWorkspaceHooks: boolean;
  allowMemoryWrites: boolean;
  /** A saved task to continue. */
  task?: string;
  /** --agent NAME: run as this custom agent. */
  agent?: string;
  prompt: string;
  /** --worktree [NAME]: run in a new git worktree of its own. */
  worktree?: { name?: string };
  /** --file PATH[:START-END], repeatable: files and ranges attached to the prompt. */
  attachments: Attachment[];
  /** --record FILE */
  record?: string;
  /** --replay FILE, read. */
  replay?: Cassette;
}

const RUN_OPTIONS = {
  cwd: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  ...MODEL_OPTIONS,
  "max-steps": { type: "string" },
  "spend-cap": { type: "string" },
  yes: { type: "boolean", short: "y" },
  "no-sandbox": { type: "boolean" },
  "allow-domain": { type: "string", multiple: true },
  "mcp-config": { type: "string", multiple: true },
  "allow-workspace-mcp": { type: "boolean" },
  "allow-workspace-hooks": { type: "boolean" },
  "allow-memory-writes": { type: "boolean" },
  task: { type: "string" },
  agent: { type: "string" },
  record: { type: "string" },
  replay: { type: "string" },
  json: { type: "boolean" },
  file: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): CliOptions | "help" {
  const { argv: args, worktree } = takeWorktreeFlag(argv, RUN_OPTIONS);
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: RUN_OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === "help") return "help";
  const [command, ...rest] = positionals;
  if (command !== "run") throw new UsageError(command ? `Unknown command "${command}". The commands are run, tasks, restore, worktrees, apply, discard, eval, models, memories and commit-message.` : "Missing command.");
  if (values.record !== undefined && values.replay !== undefined) throw new UsageError("Use --record or --replay, not both.");
  if (worktree && values.task !== undefined) throw new UsageError("--task continues a task where it ran (in its worktree, if it had one): leave out --worktree.");
  let replay: Cassette | undefined;
  if (values.replay !== undefined) {
    const loaded = loadReplay(path.resolve(cwd, values.replay));
    if ("error" in loaded) throw new UsageError(loaded.error);
    replay = loaded.cassette;
    for (const [flag, given, recorded] of [["--provider", values.provider, replay.header.provider], ["--model", values.model, replay.header.model]] as const) {
      if (given !== undefined && given !== recorded) throw new UsageError(`${flag} ${given}: the recording was made with ${recorded}, and a replay answers as that model. Leave ${flag} out.`);
    }
  }
  const prompt = rest.join(" ").trim() || replay?.header.prompt || "";
  if (!prompt) throw new UsageError('Missing the prompt: fathom run "what to do".');

  const dir = path.resolve(cwd, values.cwd ?? ".");
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`--cwd ${dir} is not a directory.`);

  const providerArg = replay?.header.provider ?? values.provider ?? (!env.OPENAI_API_KEY && env.ANTHROPIC_API_KEY ? "anthropic" : "openai");
  if (providerArg === "vscode") throw new UsageError(VSCODE_ONLY);
  if (!PROVIDERS.includes(providerArg as Provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDERS.join(", ")} (got "${providerArg}").`);
  }
  const provider = providerArg as Provider;
  // A replay sends nothing anywhere, so it takes no key.
  const apiKey = replay ? "" : ((provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY) ?? "");
  if (!apiKey && provider !== "openai-compatible" && !replay) {
    const name = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    throw new UsageError(`Set ${name} to your ${provider} API key (or use --provider openai-compatible --base-url URL for a local server).`);
  }
  const options: CliOptions = {
    cwd: dir,
    provider,
    model: replay?.header.model ?? values.model ?? "",
    baseUrl: replay ? REPLAY_BASE_URL[provider] : (values["base-url"] ?? ""),
    apiKey,
    yes: values.yes === true,
    json: values.json === true,
    sandbox: values["no-sandbox"] !== true,
    allowDomains: values["allow-domain"] ?? [],
    mcpConfigs: (values["mcp-config"] ?? []).map((f) => path.resolve(cwd, f)),
    allowWorkspaceMcp: values["allow-workspace-mcp"] === true,
    allowWorkspaceHooks: values["allow-workspace-hooks"] === true,
    allowMemoryWrites: values["allow-memory-writes"] === true,
    ...(values.task !== undefined ? { task: values.task } : {}),
    ...(values.agent !== undefined ? { agent: values.agent } : {}),
    ...(worktree ? { worktree } : {}),
    ...(values.record !== undefined ? { record: path.resolve(cwd, values.record) } : {}),
    ...(replay ? { replay } : {}),
    attachments: (values.file ?? []).map((spec) => {
      const parsed = parseFileRange(spec);
      if ("error" in parsed) throw new UsageError(parsed.error);
      return parsed;
    }),
    prompt,
  };
  if (options.attachments.length > MAX_ATTACHMENTS) throw new UsageError(`--file is given ${options.attachments.length} times; a prompt takes at most ${MAX_ATTACHMENTS}.`);
  if (values["max-steps"] !== undefined) {
    const n = Number(values["max-steps"]);
    if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new UsageError(`--max-steps must be a whole number from 1 to 10000 (got "${values["max-steps"]}").`);
    options.maxSteps = n;
  }
  const modelOptions = modelOverrideOf(values);
  if ("error" in modelOptions) throw new UsageError(modelOptions.error);
  if (modelOptions.override) options.override = modelOptions.override;
  if (values["spend-cap"] !== undefined) {
    const n = Number(values["spend-cap"]);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--spend-cap must be a positive number of US dollars (got "${values["spend-cap"]}").`);
    options.spendCapUsd = n;
  }
  for (const file of options.mcpConfigs) {
    if (!existsSync(file)) throw new UsageError(`--mcp-config ${file} does not exist.`);
  }
  for (const domain of options.allowDomains) {
    if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(domain)) throw new UsageError(`--allow-domain "${domain}" is not a domain; for example registry.npmjs.org or *.github.com`);
  }
  if (options.baseUrl) {
    try {
      new URL(options.baseUrl);
    } catch {
      throw new UsageError(`--base-url "${options.baseUrl}" is not a URL; for example http://localhost:11434/v1`);
    }
  }
  return options;
}

export async function main(argv: readonly string[]): Promise<number> {
  const other = await subcommand(argv);
  if (other !== undefined) return other;
  let options: CliOptions | "help";
  try {
    options = parseCli(argv, process.env, process.cwd());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // A --json caller parses stdout, so the usage error is an event there too.
    if (argv.includes("--json")) process.stdout.write(`${JSON.stringify({ type: "error", kind: "usage", message: error.message })}\n`);
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
      ? recordTo(opts.record, { provider: opts.provider, model: opts.model.trim() || DEFAULT_MODELS[opts.provider], prompt: opts.prompt, workspaceRoot: opts.cwd, secrets: opts.apiKey ? [opts.apiKey] : [], options: { yes: opts.yes, sandbox: opts.sandbox } })
      : undefined;
  const makeModel = (id: string) => createModel({
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
  const asker: ApprovalGate = interactive
    ? new TerminalApprovalGate({ input: process.stdin, output: process.stderr, onInterrupt })
    : { request: (r, signal) => (r.memory ? rejectAll(NO_TTY_MEMORY) : r.mustAsk ? rejectAll(NO_TTY_OUTSIDE_SANDBOX) : rejectAll(NO_TTY_REASON)).request(r, signal) };
  // --yes approves what the policy asks about, but never what must reach the person.
  const gate: ApprovalGate = opts.yes ? { request: (r, signal) => (r.mustAsk ? asker.request(r, signal) : approveAll.request(r, signal)) } : asker;
  const sandbox = opts.sandbox ? cliSandbox(opts) : undefined;
  // Without the sandbox they asked for, commands are never run unasked.
  const executeAuto = opts.yes && (sandbox !== null || !opts.sandbox);
  const policy: ApprovalPolicy = opts.yes ? { read: "auto", edit: "auto", execute: executeAuto ? "auto" : "ask", other: "auto" } : {};
  const executor = sandbox ? new SandboxedExecutor(new ChildProcessExecutor(), sandbox) : new ChildProcessExecutor();
  const taskId = opts.task ?? newTaskId();
  const place = await placeTask(opts.cwd, taskId, { ...(opts.worktree ? { worktree: opts.worktree } : {}), prompt: opts.prompt, continuing: opts.task !== undefined });
  if ("error" in place) {
    if (opts.json) process.stdout.write(`${JSON.stringify({ type: "error", kind: place.usage ? "usage" : "worktree", message: place.error })}\n`);
    process.stderr.write(`fathom: ${place.error}\n`);
    return place.usage ? EXIT.usage : EXIT.failed;
  }
  // In a worktree, the task's data (conversation, checkpoints) belongs to the worktree's folder.
  const root = place.root;
  const worktree = place.worktree;
  if (worktree && !opts.json) process.stderr.write(`Working in ${worktree.root} on branch ${worktree.branch} (your working tree is not touched).\n`);
  const dataDir = workspaceDataDir(root);
  let saved: CliTask | undefined;
  try {
    saved = opts.task ? loadTask(dataDir, opts.task) : undefined;
  } catch (error) {
    process.stderr.write(`fathom: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const backend = new FilesystemBackend({ rootDir: root });
  const team = await cliTeamRun({ root, backend, prompt: opts.prompt, provider: opts.provider, attachments: opts.attachments, ...(opts.agent !== undefined ? { agent: opts.agent } : {}), ...(interactive ? { terminal: { input: process.stdin, output: process.stderr, onInterrupt } } : {}) });
  if ("error" in team) {
    if (opts.json) process.stdout.write(`${JSON.stringify({ type: "error", kind: "usage", message: team.error })}\n`);
    process.stderr.write(`fathom: ${team.error}\n`);
    await place.finish(undefined);
    return EXIT.usage;
  }
  const checkpoints = checkpointStoreFor(dataDir);
  await checkpoints.checkpoint(taskId, { kind: "message", label: opts.prompt, conversationLength: saved?.state.messages.length ?? 0 });
  // The sandbox library write-protects shell and git files it finds in the process's working
  // directory by putting empty stand-ins there (.bashrc, .gitconfig, .vscode …) while commands
  // run: run from an empty folder of our own, so none appear in the workspace (which Fathom
  // protects by itself). Everything below uses absolute paths.
  const neutralCwd = sandbox ? mkdtempSync(path.join(os.tmpdir(), "fathom-cwd-")) : undefined;
  if (neutralCwd) process.chdir(neutralCwd);
  const promptIo = interactive ? { input: process.stdin, output: process.stderr, onInterrupt } : undefined;
  const mcp = await startMcp({ cwd: root, mcpConfigs: opts.mcpConfigs, allowWorkspaceMcp: opts.allowWorkspaceMcp }, sandbox ?? undefined, promptIo);
  // The repository's hook files are read where the person works; hooks run in the task's folder.
  const hooks = await cliHooks({ repoRoot: opts.cwd, allowWorkspaceHooks: opts.allowWorkspaceHooks, sandbox }, promptIo, process.stderr);
  const runModel = team.model ? makeModel(team.model) : model;
  const agent = createAgent({
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
    executor,
    ...(mcp ? { tools: mcp.tools().tools, readMcpResource: (server: string, uri: string, signal?: AbortSignal) => mcp.readResource(server, uri, signal) } : {}),
    approvalPolicy: policy,
    // Without the sandbox they asked for, every command reaches the person, --yes or not.
    ...(sandbox === null ? { commands: { alwaysAsk: "The OS sandbox cannot run here, so this command would run with your full rights (files, keys, network)." } } : {}),
    ...(gate ? { approvalGate: gate } : {}),
    ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
    ...(opts.spendCapUsd ? { spendCapUsd: opts.spendCapUsd } : {}),
  });

  const target = { out: process.stdout, err: process.stderr, secrets: opts.apiKey ? [opts.apiKey] : [] };
  const render = opts.json ? jsonRenderer(target) : humanRenderer(target);
  let done: Extract<AgentEvent, { type: "done" }> | undefined;
  announce(team, opts.json, render);
  const rules: string[] = [];
  try {
    await announceFit(runModel, (line) => process.stderr.write(line));
    for await (const event of agent.run(team.prompt, { signal: controller.signal, ...(saved ? { state: saved.state } : {}), ...(opts.attachments.length ? { attachments: opts.attachments } : {}) })) {
      if (event.type === "rules_loaded") rules.push(...event.files.filter((f) => !rules.includes(f)));
      if (event.type === "done") {
        done = event;
        const now = Date.now();
        saveTask(dataDir, { version: 1, id: taskId, title: saved?.title ?? opts.prompt, createdAt: saved?.createdAt ?? now, updatedAt: now, reason: event.reason, state: event.state });
        await place.finish(event.reason);
        // --json callers find the task id (and its worktree) in the done event.
        render({ ...event, taskId, rules, ...(worktree ? { worktree: worktree.path, branch: worktree.branch } : {}) } as AgentEvent);
        if (!opts.json) process.stderr.write(`Task ${taskId} saved. Undo its changes: fathom restore ${taskId}; continue it: fathom run --task ${taskId} "..."\n`);
        if (worktree && !opts.json) process.stderr.write(`Its changes are in ${worktree.path} (branch ${worktree.branch}). Review: fathom worktrees; take them: fathom apply ${taskId}; drop them: fathom discard ${taskId}\n`);
      } else render(event);
    }
  } catch (error) {
    process.stderr.write(`fathom: ${redact((error as Error).message, target.secrets)}\n`);
    return EXIT.failed;
  } finally {
    if (!done) await place.finish(undefined);
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    await mcp?.stop();
    // Over the storage cap, the oldest tasks' checkpoints go (never this one's).
    await checkpoints.prune(taskId).catch((e: unknown) => process.stderr.write(`fathom: could not prune old checkpoints: ${String(e)}\n`));
    if (sandbox) {
      (executor as SandboxedExecutor).dispose();
      await sandbox.dispose();
    }
    if (neutralCwd) rmSync(neutralCwd, { recursive: true, force: true });
  }
  if (tap) {
    for (const line of await tap.finish()) process.stderr.write(`fathom: ${line}\n`);
    const diverged = tap.divergence();
    if (diverged) {
      if (opts.json) process.stdout.write(`${JSON.stringify({ type: "replay_diverged", request: diverged.request, what: diverged.what, report: diverged.report })}\n`);
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
