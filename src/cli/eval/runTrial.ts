/**
 * One trial of one scenario: a fresh copy of its workspace, the agent run on its prompt with
 * a simulated person (approves everything but the scenario's `reject` rules), then the
 * scenario's check run in the workspace. The model is live, recorded (--record: the cassette
 * is kept when the check passes) or replayed from the scenario's cassette.
 */
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { minimatch } from "minimatch";
import type { AgentEvent, DoneReason } from "../../core/run/events";
import type { ApprovalGate, ApprovalRequest } from "../../core/approval";
import { FilesystemBackend } from "../../core/backends/filesystem";
import type { CommandSandbox } from "../../core/executor/sandbox";
import { commandExecutor, runHeadless } from "../../core/headless/headlessRun";
import { DEFAULT_MODELS, createModel, type Provider } from "../../core/model/createModel";
import { CassetteError, readCassette } from "../../core/replay/cassette";
import { CassettePlayer } from "../../core/replay/cassettePlayer";
import { CassetteRecorder } from "../../core/replay/cassetteRecorder";
import { REPLAY_BASE_URL } from "../replayOptions";
import { CASSETTE_FILE, type RejectRule, type Scenario } from "./scenario";
import { trialMetrics, type EditPrecision, type ToolStats } from "./trialMetrics";

export const DEFAULT_EVAL_MAX_STEPS = 50;
export const DEFAULT_EVAL_TIMEOUT_S = 600;
const CHECK_TIMEOUT_MS = 120_000;

export interface LiveModel {
  provider: Provider;
  model: string;
  baseUrl?: string;
  apiKey?: string;
}

export interface TrialOptions {
  /** "replay" plays the scenario's cassette; "record" runs live and writes it. */
  mode: "live" | "record" | "replay";
  live?: LiveModel;
  /** Commands (the agent's and the check) run in it; undefined runs them unsandboxed (--no-sandbox). */
  sandbox?: CommandSandbox;
  /** Keep the trial's folder (workspace, events, answer) instead of deleting it. */
  keep?: boolean;
  retryBaseDelayMs?: number;
  /** --record: whether to keep a passing trial's session (default yes). */
  acceptRecording?: () => boolean;
  /** Stops the trial (Ctrl+C). */
  signal?: AbortSignal;
}

export interface TrialRecord {
  name: string;
  trial: number;
  passed: boolean;
  steps: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  durationMs: number;
  toolCalls: Record<string, ToolStats>;
  editFailures: number;
  edits: EditPrecision;
  provider: string;
  model: string;
  /** How the agent's run ended ("timeout": the scenario's timeoutSeconds passed). */
  reason: DoneReason | "timeout" | "not_run";
  check: { exitCode: number | null; output: string };
  /** Why the run failed, in words (a model error, a missing cassette). */
  error?: string;
  /** A replay that left its recording: the readable report. */
  divergence?: string;
  /** Where the trial's files are (with --keep). */
  folder?: string;
}

const NO_PERSON_OUTSIDE_SANDBOX =
  "This is an unattended eval: nobody can approve running a command outside the OS sandbox, so it was not run. Do it inside the sandbox, or report what you need.";

/** The simulated person: approves every call except those a `reject` rule names. */
export function scenarioGate(rules: readonly RejectRule[], workspaceRoot: string): ApprovalGate {
  return {
    async request(request: ApprovalRequest) {
      if (request.mustAsk) return { type: "reject", reason: NO_PERSON_OUTSIDE_SANDBOX };
      const rule = rules.find((r) => matches(r, request, workspaceRoot));
      return rule ? { type: "reject", reason: rule.reason } : { type: "approve" };
    },
  };
}

function matches(rule: RejectRule, request: ApprovalRequest, workspaceRoot: string): boolean {
  if (rule.tool !== request.toolName) return false;
  if (rule.path !== undefined) {
    const given = typeof request.args.file_path === "string" ? request.args.file_path : request.proposal?.path;
    if (!given) return false;
    const rel = given.startsWith(workspaceRoot) ? given.slice(workspaceRoot.length) : given;
    if (!minimatch(path.posix.normalize(`/${rel.replace(/^\/+/, "")}`), rule.path, { dot: true })) return false;
  }
  if (rule.command !== undefined && !String(request.args.command ?? "").includes(rule.command)) return false;
  return true;
}

export async function runTrial(scenario: Scenario, trial: number, options: TrialOptions): Promise<TrialRecord> {
  const folder = mkdtempSync(path.join(os.tmpdir(), `fathom-eval-${scenario.name}-${trial}-`));
  // folder/workspace is the agent's; folder/run keeps what the trial leaves (events, answer, recording).
  const workspaceRoot = path.join(folder, "workspace");
  const runDir = path.join(folder, "run");
  cpSync(scenario.workspaceDir, workspaceRoot, { recursive: true });
  mkdirSync(runDir);
  const record: TrialRecord = {
    name: scenario.name,
    trial,
    passed: false,
    steps: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    durationMs: 0,
    toolCalls: {},
    editFailures: 0,
    edits: trialMetrics([], workspaceRoot).edits,
    provider: options.live?.provider ?? "",
    model: options.live?.model ?? "",
    reason: "not_run",
    check: { exitCode: null, output: "" },
  };
  try {
    const model = modelFor(scenario, options, workspaceRoot, runDir);
    if ("error" in model) {
      record.error = model.error;
      return record;
    }
    record.provider = model.provider;
    record.model = model.chatModel.model;
    const controller = new AbortController();
    const timeoutMs = (scenario.timeoutSeconds ?? DEFAULT_EVAL_TIMEOUT_S) * 1000;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const stop = () => controller.abort();
    options.signal?.addEventListener("abort", stop, { once: true });
    const events: AgentEvent[] = [];
    const started = Date.now();
    try {
      await runHeadless({
        agent: {
          model: model.chatModel,
          workspaceRoot,
          backend: new FilesystemBackend({ rootDir: workspaceRoot }),
          // The simulated person is asked about every edit and command, and approves unless a rule says no.
          approvalPolicy: { read: "auto", edit: "ask", execute: "ask", other: "auto" },
          approvalGate: scenarioGate(scenario.reject ?? [], workspaceRoot),
          maxSteps: scenario.maxSteps ?? DEFAULT_EVAL_MAX_STEPS,
        },
        input: scenario.prompt,
        signal: controller.signal,
        // The eval's sandbox serves every trial; trials may run side by side, so none changes the process's directory.
        sandbox: options.sandbox,
        keepSandbox: true,
        neutralWorkingDirectory: false,
        onEvent: (event) => void events.push(event),
      });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", stop);
      record.durationMs = Date.now() - started;
    }
    writeFileSync(path.join(runDir, "events.jsonl"), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const done = events.at(-1);
    if (done?.type === "done") {
      const usage = done.state.usage;
      Object.assign(record, {
        steps: done.state.steps,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        cacheReadTokens: usage.cacheReadTokens,
        cacheWriteTokens: usage.cacheWriteTokens,
        costUsd: done.state.costUsd,
        reason: done.reason === "cancelled" && !options.signal?.aborted ? "timeout" : done.reason,
      });
      if (done.reason !== "completed" && done.message) record.error = done.message;
    }
    writeFileSync(path.join(runDir, "answer.md"), done?.type === "done" ? done.finalText : "");
    Object.assign(record, trialMetrics(events, workspaceRoot));
    const divergence = await model.finish();
    if (divergence) record.divergence = divergence;

    // The check: in the workspace, with the final answer, the run's events and the scenario's
    // own folder (checkers kept there are out of the agent's reach) at hand.
    const env = {
      FATHOM_EVAL_ANSWER: path.join(runDir, "answer.md"),
      FATHOM_EVAL_EVENTS: path.join(runDir, "events.jsonl"),
      FATHOM_EVAL_SCENARIO: scenario.dir,
    };
    const check = await commandExecutor(options.sandbox, env).run(scenario.check, {
      cwd: workspaceRoot,
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    record.check = { exitCode: check.exitCode, output: check.output.slice(-2000) };
    record.passed = check.exitCode === 0 && !record.divergence;
    if (options.mode === "record") model.keep(record.passed && (options.acceptRecording?.() ?? true));
    return record;
  } catch (error) {
    record.error = `The trial failed: ${(error as Error).message}`;
    return record;
  } finally {
    if (options.keep) record.folder = folder;
    else rmSync(folder, { recursive: true, force: true });
  }
}

interface TrialModel {
  chatModel: ReturnType<typeof createModel>;
  provider: Provider;
  /** After the run: a replay's divergence report, if any. */
  finish(): Promise<string | undefined>;
  /** --record: keep the cassette as the scenario's (passed) or beside it as cassette.failed.jsonl. */
  keep(passed: boolean): void;
}

function modelFor(
  scenario: Scenario,
  options: TrialOptions,
  workspaceRoot: string,
  runDir: string,
): TrialModel | { error: string } {
  const retry = { retryBaseDelayMs: options.retryBaseDelayMs ?? 1000 };
  if (options.mode === "replay") {
    if (!scenario.cassetteFile)
      return {
        error: `${scenario.name} has no ${CASSETTE_FILE} to replay: record one with fathom eval ${scenario.dir} --record --provider … --model ….`,
      };
    let player: CassettePlayer;
    try {
      player = new CassettePlayer(readCassette(scenario.cassetteFile), { workspaceRoot });
    } catch (error) {
      if (error instanceof CassetteError) return { error: error.message };
      throw error;
    }
    const { provider, model } = player.cassette.header;
    return {
      chatModel: createModel({
        provider,
        model,
        baseUrl: REPLAY_BASE_URL[provider],
        fetch: player.fetch,
        retryBaseDelayMs: 1,
        surface: "cli",
      }),
      provider,
      finish: async () => player.verdict()?.report,
      keep: () => undefined,
    };
  }
  const live = options.live;
  if (!live) return { error: "No model to run: give --provider and --model, or --replay." };
  const recorder =
    options.mode === "record"
      ? new CassetteRecorder({
          file: path.join(runDir, CASSETTE_FILE),
          header: {
            provider: live.provider,
            model: live.model.trim() || DEFAULT_MODELS[live.provider],
            prompt: scenario.prompt,
            note: `fathom eval --record of scenario ${scenario.name}`,
          },
          workspaceRoot,
          secrets: live.apiKey ? [live.apiKey] : [],
        })
      : undefined;
  const chatModel = createModel({
    provider: live.provider,
    model: live.model,
    ...(live.baseUrl ? { baseUrl: live.baseUrl } : {}),
    ...(live.apiKey ? { apiKey: live.apiKey } : {}),
    ...(recorder ? { fetch: recorder.fetch } : {}),
    ...retry,
    surface: "cli",
  });
  return {
    chatModel,
    provider: live.provider,
    finish: async () => {
      await recorder?.flush();
      return undefined;
    },
    keep(passed) {
      if (!recorder) return;
      const target = path.join(scenario.dir, passed ? CASSETTE_FILE : "cassette.failed.jsonl");
      mkdirSync(scenario.dir, { recursive: true });
      rmSync(target, { force: true });
      try {
        renameSync(path.join(runDir, CASSETTE_FILE), target);
      } catch {
        cpSync(path.join(runDir, CASSETTE_FILE), target);
      }
    },
  };
}
