// The real-model suite, through the CLI: SmolLM2-135M-Instruct on llama.cpp's llama-server, five
// everyday tasks, in each tool-call mode (constrained: the default for this model; native: as
// before issue 33), k = 3 runs at temperature 0 and three seeds at temperature 0.7. Asserted: what
// must hold whatever the model emits (the run ends within its step limit and time, no crash, every
// call the server sent is run or answered, a malformed call writes nothing, history and saved task
// parse, writes and commands wait for approval unless approved) and, in constrained mode, that
// every run ends in a valid call or an answer (none stopped for repetition or length). Reported,
// not asserted: whether each task succeeded, as pass^k per task and mode, printed at the end and
// written to test-output/local-model/cli-passk.md (with every exchange, the fixtures' source).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadTask, workspaceDataDir } from "../../src/cli/cliTasks";
import type { AgentEvent } from "../../src/core/run/events";
import { cliEnv, runCli } from "./cliRun";
import { assertEndedCleanly, assertEveryCallAnswered, assertNoStrayWrites } from "./invariants";
import { installLocalModel, startLocalModel, type LocalModel } from "./localModel";
import { startRecordingProxy, type RecordingProxy } from "./recordingProxy";
import { countTextToolCalls, passKTable, saveReport, type RunRecord } from "./report";
import { finishedCalls, snapshot, TASKS, writeWorkspace, type RealTask } from "./tasks";

const K = Number(process.env.FATHOM_REAL_MODEL_K ?? 3);

/** A way of running the tasks: a tool-call mode and sampling (seed per run at 0.7). */
interface Variant {
  mode: "constrained" | "native";
  temperature: 0 | 0.7;
}
const VARIANTS: Variant[] = [
  { mode: "constrained", temperature: 0 },
  { mode: "native", temperature: 0 },
  { mode: "constrained", temperature: 0.7 },
  { mode: "native", temperature: 0.7 },
];
const variantName = (v: Variant) => `${v.mode}, temperature ${v.temperature}${v.temperature ? ` (seeds 1-${K})` : ""}`;
/** The CLI's options for a variant's run n: the constrained default is chosen by the model's size, not a flag. */
const variantArgs = (v: Variant, n: number) => [
  ...(v.mode === "native" ? ["--tools", "native", "--profile", "full"] : []),
  ...(v.temperature ? ["--temperature", String(v.temperature), "--seed", String(n)] : []),
];
/** Per run: a task's step limit times the slowest step we allow on a loaded 2-core machine. */
const RUN_TIMEOUT_MS = 150_000;
/** Most tokens in one answer: a runaway answer is cut here (finish_reason "length"). */
export const MAX_ANSWER_TOKENS = 200;

let server: LocalModel | undefined;
let proxy: RecordingProxy;
const records = new Map<string, RunRecord[]>(VARIANTS.map((v) => [variantName(v), []]));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-real-"));

before(async () => {
  const install = await installLocalModel();
  server = await startLocalModel({
    install,
    maxTokens: MAX_ANSWER_TOKENS,
    logFile: path.join(tmp, "llama-server.log"),
  });
  proxy = await startRecordingProxy(server.url);
});

after(async () => {
  const tables = [...records]
    .filter(([, runs]) => runs.length > 0)
    .map(([name, runs]) =>
      passKTable(runs, K, `Real model (${server?.modelId ?? "?"} on llama.cpp), through the CLI, ${name}, k = ${K}:`),
    );
  const table = tables.join("\n\n");
  console.log(`\n${table}\n`);
  if (proxy) saveReport("cli", table, [...records.values()].flat(), proxy.exchanges);
  await proxy?.close();
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function runTask(task: RealTask, label: string, opts: { yes: boolean; extra?: string[] }) {
  // One workspace path for every run: the system prompt names it, so the server's prompt cache
  // serves the whole system prompt from the second run on, as for a person's second task.
  const workspace = path.join(tmp, "workspace");
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.mkdirSync(workspace);
  const dataHome = fs.mkdtempSync(path.join(tmp, "data-"));
  writeWorkspace(workspace, task.files);
  const before = snapshot(workspace);
  proxy.label(label);
  const from = proxy.exchanges.length;
  const args = [
    "run",
    "--json",
    "--provider",
    "openai-compatible",
    "--base-url",
    proxy.url,
    "--model",
    server!.modelId,
    "--max-steps",
    String(task.maxSteps),
    "--cwd",
    workspace,
  ];
  if (opts.yes) args.push("--yes");
  args.push(...(opts.extra ?? []));
  const run = await runCli([...args, task.prompt], { env: cliEnv(dataHome), timeoutMs: RUN_TIMEOUT_MS });
  const exchanges = proxy.exchanges.slice(from);
  return { workspace, dataHome, before, run, exchanges };
}

for (const variant of VARIANTS)
  for (const task of TASKS) {
    for (let n = 1; n <= K; n++) {
      test(
        `real model, CLI, ${variantName(variant)}: ${task.id} (run ${n} of ${K}) ends cleanly, every call answered, nothing written by a malformed call`,
        { timeout: RUN_TIMEOUT_MS + 30_000 },
        async () => {
          const { workspace, dataHome, before, run, exchanges } = await runTask(
            task,
            `${variant.mode} t${variant.temperature} ${task.id}#${n}`,
            { yes: task.writes, extra: variantArgs(variant, n) },
          );
          const done = run.events.find((e): e is Extract<AgentEvent, { type: "done" }> => e.type === "done");
          records.get(variantName(variant))!.push({
            variant: variantName(variant),
            task: task.id,
            run: n,
            succeeded: !!done && task.succeeded({ workspace, done, events: run.events }),
            reason: run.timedOut ? "timed out" : (done?.reason ?? `exit ${run.code}`),
            steps: done?.state.steps ?? 0,
            ms: run.ms,
            toolCalls: finishedCalls(run.events).map((c) => c.toolName),
            textToolCalls: countTextToolCalls(exchanges),
          });
          assert.equal(run.timedOut, false, `the run ended within ${RUN_TIMEOUT_MS / 1000} s`);
          assert.deepEqual(run.badLines, [], "every stdout line is a JSON event");
          assert.ok(
            run.code === 0 || run.code === 1,
            `exit code 0 or 1 (got ${run.code}, signal ${run.signal}); stderr: ${run.stderr}`,
          );
          assertEndedCleanly(done, run.events, task.maxSteps, run.stderr);
          assert.equal(run.code, done.reason === "completed" ? 0 : 1, "the exit code matches how the task ended");
          assert.ok(
            exchanges.length >= 1 && exchanges.length <= task.maxSteps,
            `model calls within the step limit (${exchanges.length})`,
          );
          assertEveryCallAnswered(exchanges, done, run.events);
          assertNoStrayWrites(before, snapshot(workspace), run.events);
          if (variant.mode === "constrained") {
            // Held to the schema, a run ends in an answer (or its step limit, each step a valid call): never cut for a loop or the token limit.
            assert.ok(
              ["completed", "max_steps"].includes(done.reason),
              `ended in an answer or a valid call (${done.reason}: ${done.message ?? ""})`,
            );
            for (const x of exchanges)
              assert.notEqual(
                x.finishReason,
                "length",
                `a reply was cut by the token limit: ${x.content.slice(0, 120)}`,
              );
          }
          // The saved task (what `fathom run --task` continues) parses.
          const taskId = (done as unknown as { taskId?: string }).taskId;
          assert.ok(taskId, "the done event names the saved task");
          const saved = loadTask(workspaceDataDir(workspace, { XDG_DATA_HOME: dataHome }), taskId);
          assert.equal(
            saved.state.messages.length,
            done.state.messages.length,
            "the saved task holds the whole conversation",
          );
        },
      );
    }
  }

test(
  "real model, CLI: without --yes and no terminal, writes and commands are refused, nothing is written",
  { timeout: RUN_TIMEOUT_MS + 30_000 },
  async () => {
    const task: RealTask = {
      ...TASKS.find((t) => t.id === "create")!,
      prompt: "Create the file /hello.txt containing Hello, world! and then run the command `cat hello.txt`.",
      maxSteps: 4,
    };
    const { workspace, before, run, exchanges } = await runTask(task, "approval", { yes: false });
    const done = run.events.find((e): e is Extract<AgentEvent, { type: "done" }> => e.type === "done");
    assertEndedCleanly(done, run.events, task.maxSteps, run.stderr);
    assertEveryCallAnswered(exchanges, done, run.events);
    assert.deepEqual(snapshot(workspace), before, "nothing was written");
    for (const call of finishedCalls(run.events).filter((c) =>
      ["write_file", "edit_file", "execute"].includes(c.toolName),
    )) {
      // Either refused for want of approval, or refused earlier for its arguments: never run.
      assert.equal(call.isError, true, `${call.toolName} was not run: ${call.content}`);
    }
    const asked = run.events.filter((e) => e.type === "approval_requested").length;
    const refused = run.events.filter((e) => e.type === "approval_decided" && e.decision === "reject").length;
    assert.equal(refused, asked, "every write or command asked about was refused (no one to approve)");
  },
);
