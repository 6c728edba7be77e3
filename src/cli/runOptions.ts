import { existsSync, statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { MAX_ATTACHMENTS, parseFileRange, type Attachment } from "../core/attachments";
import type { Cassette } from "../core/replay/cassette";
import type { Provider } from "../core/model/createModel";
import type { ModelOverride } from "../core/model/modelOverrides";
import { REPLAY_BASE_URL, loadReplay } from "./replayOptions";
import { MODEL_OPTIONS, modelOverrideOf } from "./modelOptions";
import { PROVIDERS } from "./commandArgs";
import { takeWorktreeFlag } from "./worktreeCommands";
import { APPROVAL_LEVELS, isApprovalLevel, type ApprovalLevel } from "../core/trust/approvalLevels";

/** `fathom run`'s flags, read and checked (every mistake a UsageError saying what to write). */

export const VSCODE_ONLY =
  "VS Code's language models (provider vscode) can only be used inside VS Code. Here use --provider openai, anthropic or openai-compatible.";

export class UsageError extends Error {}

export interface CliOptions {
  cwd: string;
  provider: Provider;
  model: string;
  baseUrl: string;
  apiKey: string;
  /** --tools, --profile, --context-window, --temperature, --seed (./modelOptions.ts). */
  override?: ModelOverride;
  maxSteps?: number;
  spendCapUsd?: number;
  /** --approvals: the permission level (default ask), as fathom.approvals in VS Code. */
  approvals: ApprovalLevel;
  yes: boolean;
  json: boolean;
  sandbox: boolean;
  allowDomains: string[];
  mcpConfigs: string[];
  allowWorkspaceMcp: boolean;
  allowWorkspaceHooks: boolean;
  allowMemoryWrites: boolean;
  /** Code intelligence tools from a language server the run starts (off with --no-code-intel). */
  codeIntel: boolean;
  /** A saved task to continue. */
  task?: string;
  /** --agent NAME: run as this custom agent. */
  agent?: string;
  prompt: string;
  /** --worktree [NAME]: run in a new git worktree of its own. */
  worktree?: { name?: string };
  /** --file PATH[:START-END], repeatable: files and ranges attached to the prompt. */
  attachments: Attachment[];
  /** --plan: read-only tools, ending with a plan to start later. */
  plan: boolean;
  /** --act (with --task): start the task's plan. */
  act: boolean;
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
  approvals: { type: "string" },
  yes: { type: "boolean", short: "y" },
  "no-sandbox": { type: "boolean" },
  "allow-domain": { type: "string", multiple: true },
  "mcp-config": { type: "string", multiple: true },
  "allow-workspace-mcp": { type: "boolean" },
  "allow-workspace-hooks": { type: "boolean" },
  "allow-memory-writes": { type: "boolean" },
  "no-code-intel": { type: "boolean" },
  task: { type: "string" },
  agent: { type: "string" },
  record: { type: "string" },
  replay: { type: "string" },
  json: { type: "boolean" },
  plan: { type: "boolean" },
  act: { type: "boolean" },
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
  if (command !== "run")
    throw new UsageError(
      command
        ? `Unknown command "${command}". The commands are run, tasks, restore, worktrees, apply, discard, eval, models, memories, commit-message and acp.`
        : "Missing command.",
    );
  if (values.record !== undefined && values.replay !== undefined)
    throw new UsageError("Use --record or --replay, not both.");
  if (worktree && values.task !== undefined)
    throw new UsageError(
      "--task continues a task where it ran (in its worktree, if it had one): leave out --worktree.",
    );
  let replay: Cassette | undefined;
  if (values.replay !== undefined) {
    const loaded = loadReplay(path.resolve(cwd, values.replay));
    if ("error" in loaded) throw new UsageError(loaded.error);
    replay = loaded.cassette;
    for (const [flag, given, recorded] of [
      ["--provider", values.provider, replay.header.provider],
      ["--model", values.model, replay.header.model],
    ] as const) {
      if (given !== undefined && given !== recorded)
        throw new UsageError(
          `${flag} ${given}: the recording was made with ${recorded}, and a replay answers as that model. Leave ${flag} out.`,
        );
    }
  }
  const prompt = rest.join(" ").trim() || replay?.header.prompt || "";
  if (values.plan && values.act) throw new UsageError("Use --plan (make a plan) or --act (start one), not both.");
  if (values.act && values.task === undefined)
    throw new UsageError("--act starts a saved task's plan: add --task ID (fathom tasks lists them).");
  if (!prompt && !values.act) throw new UsageError('Missing the prompt: fathom run "what to do".');

  const dir = path.resolve(cwd, values.cwd ?? ".");
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`--cwd ${dir} is not a directory.`);

  const providerArg =
    replay?.header.provider ??
    values.provider ??
    (!env.OPENAI_API_KEY && env.ANTHROPIC_API_KEY ? "anthropic" : "openai");
  if (providerArg === "vscode") throw new UsageError(VSCODE_ONLY);
  if (!PROVIDERS.includes(providerArg as Provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDERS.join(", ")} (got "${providerArg}").`);
  }
  const provider = providerArg as Provider;
  // A replay sends nothing anywhere, so it takes no key.
  const apiKey = replay ? "" : ((provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY) ?? "");
  if (!apiKey && provider !== "openai-compatible" && !replay) {
    const name = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    throw new UsageError(
      `Set ${name} to your ${provider} API key (or use --provider openai-compatible --base-url URL for a local server).`,
    );
  }
  const options: CliOptions = {
    cwd: dir,
    provider,
    model: replay?.header.model ?? values.model ?? "",
    baseUrl: replay ? REPLAY_BASE_URL[provider] : (values["base-url"] ?? ""),
    apiKey,
    approvals: "ask",
    yes: values.yes === true,
    json: values.json === true,
    plan: values.plan === true,
    act: values.act === true,
    sandbox: values["no-sandbox"] !== true,
    allowDomains: values["allow-domain"] ?? [],
    mcpConfigs: (values["mcp-config"] ?? []).map((f) => path.resolve(cwd, f)),
    allowWorkspaceMcp: values["allow-workspace-mcp"] === true,
    allowWorkspaceHooks: values["allow-workspace-hooks"] === true,
    allowMemoryWrites: values["allow-memory-writes"] === true,
    codeIntel: values["no-code-intel"] !== true,
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
  if (options.attachments.length > MAX_ATTACHMENTS)
    throw new UsageError(
      `--file is given ${options.attachments.length} times; a prompt takes at most ${MAX_ATTACHMENTS}.`,
    );
  if (values["max-steps"] !== undefined) {
    const n = Number(values["max-steps"]);
    if (!Number.isInteger(n) || n < 1 || n > 10_000)
      throw new UsageError(`--max-steps must be a whole number from 1 to 10000 (got "${values["max-steps"]}").`);
    options.maxSteps = n;
  }
  const modelOptions = modelOverrideOf(values);
  if ("error" in modelOptions) throw new UsageError(modelOptions.error);
  if (modelOptions.override) options.override = modelOptions.override;
  if (values["spend-cap"] !== undefined) {
    const n = Number(values["spend-cap"]);
    if (!Number.isFinite(n) || n <= 0)
      throw new UsageError(`--spend-cap must be a positive number of US dollars (got "${values["spend-cap"]}").`);
    options.spendCapUsd = n;
  }
  if (values.approvals !== undefined) {
    if (!isApprovalLevel(values.approvals))
      throw new UsageError(`--approvals must be one of ${APPROVAL_LEVELS.join(", ")} (got "${values.approvals}").`);
    options.approvals = values.approvals;
  }
  for (const file of options.mcpConfigs) {
    if (!existsSync(file)) throw new UsageError(`--mcp-config ${file} does not exist.`);
  }
  for (const domain of options.allowDomains) {
    if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(domain))
      throw new UsageError(
        `--allow-domain "${domain}" is not a domain; for example registry.npmjs.org or *.github.com`,
      );
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
