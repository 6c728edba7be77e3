// Issue 39: real programming tasks (Exercism's Python practice exercises, bench/tasks/exercism-python)
// solved by coding agents on the same local model, the same llama-server process, one harness
// and one trial at a time, under the same time limit.
//
//   npm run bench -- tasks [--model qwen2.5-coder-1.5b] [--harness fathom,aider,mini,qwen-code,cline,opencode,kilo]
//                          [--exercises leap,bob]
//                          [--limit N] [--trials K] [--timeout 300] [--threads N] [--fathom-args "--tools native"]
//                          [--aider-context read|editable|benchmark] [--mini-mode toolcall|textbased] [--out DIR]
//                          [--base-url URL --model-id ID]
//
// The bench starts llama-server itself (`npm run local-model`'s) with --threads N threads (default:
// every core, os.availableParallelism()): here the harness mostly waits on the model, and on the
// project's 2-core machine two threads generated 13.8 tokens/s against 7.4 with one.
// (startLocalModel's own default leaves a core to Fathom and VS Code.) With --base-url the
// running server is used as it is and --threads does nothing.
//
// For each harness, exercise and trial: the exercise (stub, test file, .docs/instructions.md) is
// copied into a fresh temp workspace, the harness is run on PROMPT under the time limit (its
// process group is killed then), the pristine test file is put back (and a conftest.py or pytest
// config the harness added is removed), and `python -m pytest -q` in that folder judges it. The
// exercises, the prompt, the workspace, Fathom's command line and the judge are bench/exercism.ts,
// which `npm test` uses too (three exercises, test/local-model/exercises.real.test.ts).
// Every model call goes through a recording proxy (test/local-model/recordingProxy.ts): model
// calls and tokens are counted the same way for every harness, and what the model said is kept.
//
// Reported per harness: pass@1 and pass^k (k = --trials; `fathom eval`'s estimators), the median
// time of a solved trial, model calls and tokens per trial, the load average. Everything (each
// trial's workspace, the harness's output, the model's answers) is kept under --out (default
// test-output/tasks-<time>/) for reading why a trial failed.
//
// Harnesses:
//   fathom  node dist/cli.js run --provider openai-compatible --base-url URL --model ID --yes --json
//           (the mode Fathom picks for the model; run `npm run build` first), with a fresh
//           XDG_CONFIG_HOME/XDG_DATA_HOME per trial (a new user: no memories, no user rules).
//   aider   aider-chat (pinned; bench/tasks/install-aider.sh puts it in a venv in the cache) driven
//           as its own benchmark drives it: --edit-format whole, --test-cmd "python -m pytest -q"
//           with --auto-test, --no-git, --yes-always, the model as openai/<id> with
//           OPENAI_API_BASE at the server; the stub is the file it edits, the instructions and
//           the test file are given read-only (--read), as its benchmark puts the instructions
//           in the prompt. (With --no-git Aider does not pick up files named in the message.)
//           --aider-context editable gives all three as files to edit instead (what naming them
//           in a git repository does: Aider adds the files a message names); --aider-context
//           benchmark asks as Aider's own benchmark does: the instructions' text is the message
//           (with a line naming the stub), the stub the only file, the tests only through the
//           failures --auto-test sends back.
//   mini    mini-swe-agent (pinned, with every dependency's hash: bench/tasks/install-mini-swe-agent.sh
//           puts it in a venv in the cache) through its own CLI, unattended as its docs describe:
//           `mini --yolo --exit-immediately --cost-limit 0 --model openai/<id> --task PROMPT`, its
//           default config (mini.yaml: bash as a tool call) plus, as its local-model guide says,
//           model.model_kwargs.api_base=<proxy URL> and model.cost_tracking=ignore_errors (the local
//           model has no price); MSWEA_CONFIGURED=true skips its first-run questions, its global
//           config folder is per trial, its trajectory is kept (mini.traj.json). It acts only
//           through bash in the workspace; it ends when the model runs
//           `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`, or after 3 answers in a row with no
//           command (RepeatedFormatError). --mini-mode textbased uses its config for models
//           without tool calls instead (mini_textbased.yaml, --model-class litellm_textbased:
//           the command in a ```mswea_bash_command block of the text). Commands it runs start in
//           their own session (its LocalEnvironment), so one still running when the time limit
//           kills mini's group is not killed with it (each has mini's 30 s command timeout only
//           while mini lives).
//   qwen-code, cline, opencode, kilo
//           VS Code peers through their own CLIs (Qwen Code, Cline, OpenCode, Kilo Code), headless
//           with every edit and command approved, pinned by committed lockfiles
//           (bench/tasks/install-peer-cli.sh NAME); how each is driven is in its driver under
//           bench/taskHarnesses/. Not in the default --harness list: name them.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AgentEvent } from "../src/core/run/events";
import { passAtK, passPowK } from "../src/cli/eval/results";
import { trialMetrics } from "../src/cli/eval/trialMetrics";
import { installLocalModel, localModelSpec, startLocalModel, type LocalModel } from "../test/local-model/localModel";
import { startRecordingProxy, type RecordedExchange, type RecordingProxy } from "../test/local-model/recordingProxy";
import {
  checkPytest,
  EXERCISES_DIR,
  fathomRun,
  judge,
  loadExercises,
  prepareWorkspace,
  taskPrompt,
  type Exercise,
} from "./exercism";
import {
  PEER_CLIS,
  installPeerCli,
  isPeerCli,
  peerCommand,
  peerOutcome,
  type PeerCli,
  type PeerCommand,
} from "./taskHarnesses/peerCli";

const root = path.resolve(import.meta.dirname, "..");
const HARNESSES = ["fathom", "aider", "mini", ...PEER_CLIS] as const;
/** Run when --harness is not given; the peers' CLIs only when named. */
const DEFAULT_HARNESSES = ["fathom", "aider", "mini"] as const;
/**
 * How Aider gets the task: `read` (the fixed prompt; instructions and tests as read-only files),
 * `editable` (all three as files to edit), `benchmark` (as Aider's own benchmark: the
 * instructions' text is the message, the stub the one file to edit, the tests only as the
 * failures --auto-test sends back).
 */
type AiderContext = "read" | "editable" | "benchmark";
type Harness = (typeof HARNESSES)[number];
interface Options {
  model: string;
  harnesses: Harness[];
  exercises: Exercise[];
  trials: number;
  timeoutS: number;
  fathomArgs: string[];
  /** How Aider is given the instructions and the test file. */
  aiderContext: AiderContext;
  /** mini-swe-agent's way of acting: bash as a tool call (its default) or a bash block in the text. */
  miniMode: MiniMode;
  out: string;
  /** The server's threads (-t) when the bench starts it. */
  threads: number;
  /** An already running server (its /v1 URL and model id) instead of starting one. */
  baseUrl?: string;
  modelId?: string;
}

export class UsageError extends Error {}

const MINI_MODES = ["toolcall", "textbased"] as const;
type MiniMode = (typeof MINI_MODES)[number];

export function parseTaskArgs(args: string[]): Options {
  const value = (i: number, flag: string) => {
    const v = args[i + 1];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  const all = loadExercises();
  let model = "qwen2.5-coder-1.5b";
  let harnesses: Harness[] = [...DEFAULT_HARNESSES];
  let exercises = all;
  let limit = Infinity;
  let trials = 1;
  let timeoutS = 300;
  let threads = os.availableParallelism();
  let fathomArgs: string[] = [];
  let aiderContext: AiderContext = "read";
  let miniMode: MiniMode = "toolcall";
  let out = path.join(root, "test-output", `tasks-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  let baseUrl: string | undefined;
  let modelId: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const int = (flag: string) => {
      const n = Number(value(i, flag));
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1`);
      i++;
      return n;
    };
    switch (a) {
      case "--model":
        model = value(i++, a);
        localModelSpec(model);
        break;
      case "--harness": {
        const names = value(i++, a).split(",").filter(Boolean);
        const unknown = names.filter((n) => !(HARNESSES as readonly string[]).includes(n));
        if (unknown.length) throw new UsageError(`unknown harness ${unknown.join(", ")}: use ${HARNESSES.join(", ")}`);
        harnesses = names as Harness[];
        break;
      }
      case "--exercises": {
        const slugs = value(i++, a).split(",").filter(Boolean);
        const unknown = slugs.filter((s) => !all.some((e) => e.slug === s));
        if (unknown.length)
          throw new UsageError(
            `unknown exercise ${unknown.join(", ")}: see bench/tasks/exercism-python/exercises.json`,
          );
        exercises = slugs.map((s) => all.find((e) => e.slug === s)!);
        break;
      }
      case "--limit":
        limit = int(a);
        break;
      case "--trials":
        trials = int(a);
        break;
      case "--timeout":
        timeoutS = int(a);
        break;
      case "--threads":
        threads = int(a);
        break;
      case "--fathom-args":
        fathomArgs = value(i++, a).split(/\s+/).filter(Boolean);
        break;
      case "--aider-context": {
        const v = value(i++, a);
        if (v !== "read" && v !== "editable" && v !== "benchmark")
          throw new UsageError("--aider-context is read, editable or benchmark");
        aiderContext = v;
        break;
      }
      case "--mini-mode": {
        const v = value(i++, a);
        if (!(MINI_MODES as readonly string[]).includes(v))
          throw new UsageError("--mini-mode is toolcall or textbased");
        miniMode = v as MiniMode;
        break;
      }
      case "--out":
        out = path.resolve(value(i++, a));
        break;
      case "--base-url":
        baseUrl = value(i++, a);
        break;
      case "--model-id":
        modelId = value(i++, a);
        break;
      default:
        throw new UsageError(`unknown option ${a}`);
    }
  }
  if (baseUrl && !modelId) throw new UsageError("--base-url needs --model-id (the id the server answers to)");
  return {
    model,
    harnesses,
    exercises: exercises.slice(0, limit),
    trials,
    timeoutS,
    fathomArgs,
    aiderContext,
    miniMode,
    out,
    threads,
    ...(baseUrl ? { baseUrl } : {}),
    ...(modelId ? { modelId } : {}),
  };
}

interface TrialResult {
  harness: Harness;
  exercise: string;
  trial: number;
  passed: boolean;
  /** The harness's own time (s), until it exited or was stopped. */
  seconds: number;
  timedOut: boolean;
  exitCode: number | null;
  /** Model calls and tokens, counted at the proxy. */
  calls: number;
  tokensIn: number;
  tokensOut: number;
  /** 1-minute load average when the trial started and when it ended. */
  load: [number, number];
  /** Whether the harness changed the stub / the test file / added pytest config. */
  stubChanged: boolean;
  testChanged: boolean;
  pytestConfigAdded: string[];
  /** The judge's last lines. */
  judge: string;
  /** Fathom: how its run ended, steps, tool calls by name (attempts/failures), the answer. */
  fathom?: {
    reason?: string;
    steps?: number;
    tools: Record<string, { attempts: number; failures: number }>;
    answer: string;
  };
  /** mini-swe-agent: how its run ended (its trajectory's exit status) and its model calls. */
  mini?: { exitStatus: string; apiCalls?: number };
  /** A peer's CLI: how its run ended, from its own JSON output. */
  peer?: { outcome: string };
  folder: string;
}

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function tokensOf(x: RecordedExchange): { tin: number; tout: number } {
  const t = x.timings ?? {};
  return {
    tin: x.usage?.prompt_tokens ?? (t.prompt_n ?? 0) + (t.cache_n ?? 0),
    tout: x.usage?.completion_tokens ?? t.predicted_n ?? 0,
  };
}

/** Runs `cmd` in its own process group; kills the group when `timeoutS` passes. */
function runLimited(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutS: number; stdout: string; stderr: string },
): Promise<{ code: number | null; seconds: number; timedOut: boolean }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    let timedOut = false;
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill("SIGTERM");
      setTimeout(() => kill("SIGKILL"), 5_000).unref();
    }, opts.timeoutS * 1000);
    const onExit = () => kill("SIGKILL");
    process.once("exit", onExit);
    child.on("error", (e) => err.push(Buffer.from(String(e))));
    child.on("close", (code) => {
      clearTimeout(timer);
      process.removeListener("exit", onExit);
      // Whatever the harness left running in its group (a test run, a language server) goes too.
      kill("SIGKILL");
      writeFileSync(opts.stdout, Buffer.concat(out));
      writeFileSync(opts.stderr, Buffer.concat(err));
      resolve({ code, seconds: (Date.now() - started) / 1000, timedOut });
    });
  });
}

function installAider(): string {
  const out = execFileSync("bash", [path.join(EXERCISES_DIR, "..", "install-aider.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const bin = /^AIDER=(.+)$/m.exec(out)?.[1];
  if (!bin) throw new Error("bench/tasks/install-aider.sh did not say where Aider is.");
  return bin;
}

function installMini(): string {
  const out = execFileSync("bash", [path.join(EXERCISES_DIR, "..", "install-mini-swe-agent.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const bin = /^MINI=(.+)$/m.exec(out)?.[1];
  if (!bin) throw new Error("bench/tasks/install-mini-swe-agent.sh did not say where mini is.");
  return bin;
}

/** Aider's benchmark's way of asking (in our words): the instructions' text, then the file to change. */
function benchmarkMessage(e: Exercise, workspace: string): string {
  const instructions = readFileSync(path.join(workspace, ".docs", "instructions.md"), "utf8").trim();
  return `${instructions}\n\nChange ${e.stub} to do what these instructions say. Keep the names of its functions and classes (the tests call them) and use only the standard library.`;
}

function harnessCommand(
  h: Harness,
  e: Exercise,
  ctx: {
    url: string;
    modelId: string;
    aider?: string;
    mini?: string;
    folder: string;
    fathomArgs: string[];
    aiderContext: AiderContext;
    miniMode: MiniMode;
    workspace: string;
    peers: Partial<Record<PeerCli, string>>;
  },
): PeerCommand {
  const prompt = taskPrompt(e);
  if (isPeerCli(h)) {
    const bin = ctx.peers[h];
    if (!bin) throw new Error(`${h} is not installed`);
    return peerCommand(h, {
      bin,
      url: ctx.url,
      modelId: ctx.modelId,
      prompt,
      workspace: ctx.workspace,
      folder: ctx.folder,
    });
  }
  if (h === "fathom") {
    const run = fathomRun(e, {
      url: ctx.url,
      modelId: ctx.modelId,
      workspace: ctx.workspace,
      home: path.join(ctx.folder, "user"),
      extraArgs: ctx.fathomArgs,
    });
    return { cmd: process.execPath, args: [path.join(root, "dist", "cli.js"), ...run.args], env: run.env };
  }
  if (h === "mini") {
    // mini-swe-agent's own CLI, unattended: -y runs every command without asking, --exit-immediately
    // ends when the agent submits instead of asking for a new task, -l 0 turns the cost limit off
    // (the local model has no price, so cost tracking ignores the missing one); the model through
    // litellm as openai/<id> with api_base at the server (its local-model guide), on its default
    // config (mini.yaml) or, with --mini-mode textbased, its config for models without tool calls. Its global config dir (a .env it reads) is per trial; the trajectory is kept.
    return {
      cmd: ctx.mini!,
      args: [
        "--yolo",
        "--exit-immediately",
        "--model",
        `openai/${ctx.modelId}`,
        "--cost-limit",
        "0",
        ...(ctx.miniMode === "textbased"
          ? ["--model-class", "litellm_textbased", "--config", "mini_textbased.yaml"]
          : ["--config", "mini.yaml"]),
        "--config",
        `model.model_kwargs.api_base=${ctx.url}`,
        "--config",
        "model.cost_tracking=ignore_errors",
        "--output",
        path.join(ctx.folder, "mini.traj.json"),
        "--task",
        prompt,
      ],
      env: {
        ...process.env,
        OPENAI_API_KEY: "local",
        // Skips its first-run setup questions; its .env lives in the trial's folder.
        MSWEA_CONFIGURED: "true",
        MSWEA_GLOBAL_CONFIG_DIR: path.join(ctx.folder, "mini-config"),
        // litellm would fetch its model price list from the network at start.
        LITELLM_LOCAL_MODEL_COST_MAP: "True",
        HOME: path.join(ctx.folder, "home"),
      },
    };
  }
  return {
    cmd: ctx.aider!,
    args: [
      "--model",
      `openai/${ctx.modelId}`,
      "--edit-format",
      "whole",
      "--test-cmd",
      "python -m pytest -q",
      "--auto-test",
      "--no-git",
      "--yes-always",
      "--no-show-model-warnings",
      "--no-check-update",
      "--analytics-disable",
      "--no-pretty",
      "--no-fancy-input",
      "--no-detect-urls",
      "--map-tokens",
      "0",
      "--chat-history-file",
      path.join(ctx.folder, "aider.chat.history.md"),
      "--input-history-file",
      path.join(ctx.folder, "aider.input.history"),
      "--llm-history-file",
      path.join(ctx.folder, "aider.llm.history"),
      ...(ctx.aiderContext === "read" ? ["--read", ".docs/instructions.md", "--read", e.test] : []),
      "--message",
      ctx.aiderContext === "benchmark" ? benchmarkMessage(e, ctx.workspace) : prompt,
      e.stub,
      ...(ctx.aiderContext === "editable" ? [".docs/instructions.md", e.test] : []),
    ],
    env: {
      ...process.env,
      OPENAI_API_BASE: ctx.url,
      OPENAI_API_KEY: "local",
      // litellm would fetch its model price list from the network at start.
      LITELLM_LOCAL_MODEL_COST_MAP: "True",
      HOME: path.join(ctx.folder, "home"),
    },
  };
}

function readEvents(file: string): AgentEvent[] {
  if (!existsSync(file)) return [];
  const events: AgentEvent[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      events.push(JSON.parse(line) as AgentEvent);
    } catch {
      /* not an event */
    }
  }
  return events;
}

async function runTrial(
  h: Harness,
  e: Exercise,
  trial: number,
  o: Options,
  ctx: {
    url: string;
    modelId: string;
    aider?: string;
    mini?: string;
    peers: Partial<Record<PeerCli, string>>;
    proxy: RecordingProxy;
    python: string;
  },
): Promise<TrialResult> {
  const folder = path.join(o.out, h, `${e.slug}-${trial}`);
  const workspace = mkdtempSync(path.join(os.tmpdir(), `fathom-task-${e.slug}-`));
  mkdirSync(folder, { recursive: true });
  prepareWorkspace(e, workspace);
  const stubBefore = readFileSync(path.join(workspace, e.stub), "utf8");
  const command = harnessCommand(h, e, {
    ...ctx,
    folder,
    fathomArgs: o.fathomArgs,
    aiderContext: o.aiderContext,
    miniMode: o.miniMode,
    workspace,
  });
  writeFileSync(
    path.join(folder, "command.json"),
    JSON.stringify({ setup: command.setup, cmd: command.cmd, args: command.args, cwd: workspace }, null, 1),
  );
  const label = `${h}/${e.slug}/${trial}`;
  ctx.proxy.label(label);
  const from = ctx.proxy.exchanges.length;
  // Set-up before the clock starts (Cline's `cline auth`): no model call; its output is kept.
  for (const step of command.setup ?? []) {
    const out = execFileSync(step.cmd, step.args, {
      cwd: workspace,
      env: command.env,
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    writeFileSync(path.join(folder, "setup.txt"), out, { flag: "a" });
  }
  const loadStart = os.loadavg()[0]!;
  const run = await runLimited(command.cmd, command.args, {
    cwd: workspace,
    env: command.env,
    timeoutS: o.timeoutS,
    stdout: path.join(folder, "stdout.txt"),
    stderr: path.join(folder, "stderr.txt"),
  });
  const loadEnd = os.loadavg()[0]!;
  ctx.proxy.label("");
  const exchanges = ctx.proxy.exchanges.slice(from);
  writeFileSync(path.join(folder, "exchanges.jsonl"), exchanges.map((x) => JSON.stringify(x)).join("\n") + "\n");
  const stubAfter = existsSync(path.join(workspace, e.stub)) ? readFileSync(path.join(workspace, e.stub), "utf8") : "";
  const verdict = judge(e, workspace, ctx.python);
  writeFileSync(path.join(folder, "judge.txt"), verdict.output);
  // The workspace as the harness left it (pristine test file back), for reading later.
  cpSync(workspace, path.join(folder, "workspace"), {
    recursive: true,
    filter: (src) => !/__pycache__|\.pytest_cache/.test(src),
  });
  rmSync(workspace, { recursive: true, force: true });
  let tokensIn = 0;
  let tokensOut = 0;
  for (const x of exchanges) {
    const t = tokensOf(x);
    tokensIn += t.tin;
    tokensOut += t.tout;
  }
  const result: TrialResult = {
    harness: h,
    exercise: e.slug,
    trial,
    passed: verdict.passed,
    seconds: run.seconds,
    timedOut: run.timedOut,
    exitCode: run.code,
    calls: exchanges.length,
    tokensIn,
    tokensOut,
    load: [loadStart, loadEnd],
    stubChanged: stubAfter !== stubBefore,
    testChanged: verdict.testChanged,
    pytestConfigAdded: verdict.configAdded,
    judge: verdict.output.trim().split("\n").slice(-1)[0] ?? "",
    folder: path.relative(root, folder),
  };
  if (h === "fathom") {
    const events = readEvents(path.join(folder, "stdout.txt"));
    const done = events.findLast((ev) => ev.type === "done") as Extract<AgentEvent, { type: "done" }> | undefined;
    result.fathom = {
      ...(done ? { reason: done.reason, steps: done.state.steps } : {}),
      tools: trialMetrics(events, workspace).toolCalls,
      answer: (done?.finalText ?? "").slice(0, 400),
    };
  }
  if (h === "mini") {
    try {
      const traj = JSON.parse(readFileSync(path.join(folder, "mini.traj.json"), "utf8")) as {
        info?: { exit_status?: string; model_stats?: { api_calls?: number } };
      };
      result.mini = {
        exitStatus: traj.info?.exit_status || "no exit status",
        ...(traj.info?.model_stats?.api_calls !== undefined ? { apiCalls: traj.info.model_stats.api_calls } : {}),
      };
    } catch {
      result.mini = { exitStatus: "no trajectory" };
    }
  }
  if (isPeerCli(h)) result.peer = { outcome: peerOutcome(h, readFileSync(path.join(folder, "stdout.txt"), "utf8")) };
  writeFileSync(path.join(folder, "result.json"), JSON.stringify(result, null, 1));
  return result;
}

interface HarnessSummary {
  harness: Harness;
  exercises: number;
  trials: number;
  solved: number;
  passAt1: number;
  passPowK: number;
  medianSolvedS: number;
  meanS: number;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  load: number;
  timeouts: number;
}

export function summarizeHarness(h: Harness, results: TrialResult[], k: number): HarnessSummary {
  const mine = results.filter((r) => r.harness === h);
  const byExercise = new Map<string, TrialResult[]>();
  for (const r of mine) byExercise.set(r.exercise, [...(byExercise.get(r.exercise) ?? []), r]);
  const per = [...byExercise.values()].map((rs) => ({ n: rs.length, c: rs.filter((r) => r.passed).length }));
  return {
    harness: h,
    exercises: byExercise.size,
    trials: mine.length,
    solved: per.filter((p) => p.c > 0).length,
    passAt1: mean(per.map((p) => passAtK(p.n, p.c, 1))),
    passPowK: mean(per.map((p) => (p.n >= k ? passPowK(p.n, p.c, k) : 0))),
    medianSolvedS: median(mine.filter((r) => r.passed).map((r) => r.seconds)),
    meanS: mean(mine.map((r) => r.seconds)),
    calls: mean(mine.map((r) => r.calls)),
    tokensIn: mean(mine.map((r) => r.tokensIn)),
    tokensOut: mean(mine.map((r) => r.tokensOut)),
    load: mean(mine.flatMap((r) => r.load)),
    timeouts: mine.filter((r) => r.timedOut).length,
  };
}

const pct = (x: number) => `${Math.round(100 * x)} %`;
const k1 = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)}k` : x.toFixed(0));

export function summaryTable(summaries: HarnessSummary[], k: number): string {
  const head = `| harness | exercises | solved | pass@1 | pass^${k} | median s (solved) | mean s | timeouts | model calls / trial | tokens in / trial | tokens out / trial | load (1 min) |`;
  const rows = summaries.map(
    (s) =>
      `| ${s.harness} | ${s.exercises} | ${s.solved} | ${pct(s.passAt1)} | ${pct(s.passPowK)} | ${Number.isNaN(s.medianSolvedS) ? "-" : s.medianSolvedS.toFixed(0)} | ${s.meanS.toFixed(0)} | ${s.timeouts} | ${s.calls.toFixed(1)} | ${k1(s.tokensIn)} | ${k1(s.tokensOut)} | ${s.load.toFixed(1)} |`,
  );
  return [head, head.replace(/[^|]+/g, (c) => "-".repeat(Math.max(3, c.length))), ...rows].join("\n");
}

function trialLine(r: TrialResult): string {
  const what = r.fathom
    ? `${r.fathom.reason ?? "no done event"}, ${r.fathom.steps ?? "?"} steps, tools ${
        Object.entries(r.fathom.tools)
          .map(([n, s]) => `${n}×${s.attempts}${s.failures ? `(${s.failures} failed)` : ""}`)
          .join(" ") || "none"
      }`
    : r.mini
      ? `exit ${r.exitCode}, ${r.mini.exitStatus}${r.mini.apiCalls !== undefined ? `, ${r.mini.apiCalls} steps` : ""}`
      : `exit ${r.exitCode}${r.peer ? `, ${r.peer.outcome}` : ""}`;
  return `  ${r.passed ? "PASS" : "fail"} ${r.harness.padEnd(9)} ${r.exercise.padEnd(20)} #${r.trial} ${r.seconds.toFixed(0).padStart(4)} s${r.timedOut ? " (time limit)" : ""}, ${r.calls} calls, ${k1(r.tokensIn)}/${k1(r.tokensOut)} tokens; ${what}; stub ${r.stubChanged ? "changed" : "UNCHANGED"}${r.testChanged ? ", TEST FILE CHANGED (restored)" : ""}${r.pytestConfigAdded.length ? `, removed ${r.pytestConfigAdded.join(" ")}` : ""}; pytest: ${r.judge}`;
}

function gitCommit(): string {
  try {
    return (
      execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim() +
      (execFileSync("git", ["-C", root, "status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim()
        ? "+changes"
        : "")
    );
  } catch {
    return "unknown";
  }
}

export async function runTasksBench(args: string[]): Promise<void> {
  let o: Options;
  try {
    o = parseTaskArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(
      `bench tasks: ${error.message}\nusage: npm run bench -- tasks [--model qwen2.5-coder-1.5b|qwen2.5-coder-0.5b|smollm2-135m] [--harness fathom,aider,mini,qwen-code,cline,opencode,kilo] [--exercises a,b] [--limit N] [--trials K] [--timeout S] [--threads N] [--fathom-args "…"] [--aider-context read|editable|benchmark] [--mini-mode toolcall|textbased] [--out DIR] [--base-url URL --model-id ID]`,
    );
    process.exitCode = 2;
    return;
  }
  console.log(
    `\n## Tasks: ${o.exercises.length} Exercism Python exercises × ${o.harnesses.join(", ")} × ${o.trials} trial(s), ${o.timeoutS} s each, ${o.baseUrl ? "the server at --base-url (its own threads)" : `llama-server with ${o.threads} thread(s)`}`,
  );
  if (o.harnesses.includes("fathom") && !existsSync(path.join(root, "dist", "cli.js")))
    throw new Error("dist/cli.js is missing: run `npm run build` first (the bench runs the built CLI).");
  const python = "python3";
  checkPytest(python);
  const aider = o.harnesses.includes("aider") ? installAider() : undefined;
  const mini = o.harnesses.includes("mini") ? installMini() : undefined;
  const peers: Partial<Record<PeerCli, string>> = {};
  for (const h of o.harnesses) if (isPeerCli(h)) peers[h] = installPeerCli(h, path.join(EXERCISES_DIR, ".."));
  mkdirSync(o.out, { recursive: true });

  let server: LocalModel | undefined;
  let url = o.baseUrl;
  let modelId = o.modelId;
  if (!url) {
    const install = await installLocalModel({ model: o.model });
    server = await startLocalModel({ install, threads: o.threads, logFile: path.join(o.out, "llama-server.log") });
    url = server.url;
    modelId = server.modelId;
  }
  const proxy = await startRecordingProxy(url);
  const started = new Date();
  const results: TrialResult[] = [];
  const resultsFile = path.join(o.out, "results.json");
  const meta = {
    date: started.toISOString(),
    commit: gitCommit(),
    model: modelId,
    server: url,
    timeoutS: o.timeoutS,
    trials: o.trials,
    cores: os.availableParallelism(),
    /** The server's threads; null: a server already running (--base-url), its own. */
    threads: o.baseUrl ? null : o.threads,
    nice: os.getPriority(),
    prompt: taskPrompt({ slug: "SLUG", difficulty: 0, stub: "STUB.py", test: "STUB_test.py" }),
    fathomArgs: o.fathomArgs,
    aiderContext: o.aiderContext,
    miniMode: o.miniMode,
  };
  console.log(
    `  model ${modelId} at ${url} (through a recording proxy); ${os.availableParallelism()} cores, nice ${meta.nice}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; commit ${meta.commit}; kept in ${path.relative(root, o.out)}`,
  );
  try {
    // One harness at a time over every exercise (the server's prompt cache then holds one harness's prompt).
    for (const h of o.harnesses) {
      for (const e of o.exercises) {
        for (let t = 1; t <= o.trials; t++) {
          const r = await runTrial(h, e, t, o, {
            url: proxy.url,
            modelId: modelId!,
            ...(aider ? { aider } : {}),
            ...(mini ? { mini } : {}),
            peers,
            proxy,
            python,
          });
          results.push(r);
          console.log(trialLine(r));
          writeFileSync(resultsFile, JSON.stringify({ ...meta, results }, null, 1));
        }
      }
    }
  } finally {
    await proxy.close();
    await server?.stop();
  }
  const summaries = o.harnesses.map((h) => summarizeHarness(h, results, o.trials));
  const table = summaryTable(summaries, o.trials);
  writeFileSync(
    resultsFile,
    JSON.stringify({ ...meta, finished: new Date().toISOString(), summaries, results }, null, 1),
  );
  console.log(
    `\n${modelId}, ${o.exercises.length} exercises (${o.exercises.map((e) => e.slug).join(", ")}), ${o.trials} trial(s) each, ${o.timeoutS} s limit, ${started.toISOString().slice(0, 16)}Z, commit ${meta.commit}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} at the end\n`,
  );
  console.log(table);
  console.log(
    `\npass@1: the chance one trial solves an exercise (mean over exercises); pass^${o.trials}: all ${o.trials} trials solve it. Times are the harness's wall clock; calls and tokens are counted at the proxy (prompt tokens include those the server had cached). Results: ${path.relative(root, resultsFile)}`,
  );
}
