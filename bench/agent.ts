// Agent core figures (issue 4): loop overhead per step, memory growth over a long run, and the
// size of the system prompt plus every built-in tool schema. `node --import tsx bench/agent.ts`
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { z } from "zod";
import { countTokens } from "gpt-tokenizer";
import { createAgent, runToEnd } from "../src/core/agent/createAgent";
import type { TaskMode } from "../src/core/run/runState";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../src/core/executor/childProcessExecutor";
import type { ChatModel, ModelRequest, ModelStreamEvent } from "../src/core/model/types";
import { defineTool, type Tool } from "../src/core/tools/tool";

const STEPS = 1000;
export const PROMPT_TOKEN_BUDGET = 2000;

/** Answers instantly: a tool call per step with fresh arguments, then a final answer. */
class InstantModel implements ChatModel {
  readonly provider = "scripted" as const;
  readonly model = "instant";
  readonly contextWindow = 100_000_000;
  calls = 0;
  lastRequest: ModelRequest | undefined;
  constructor(private readonly steps: number) {}
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.lastRequest = request;
    const n = this.calls++;
    const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };
    if (n >= this.steps - 1) {
      yield { type: "text_delta", text: "done" };
      yield { type: "done", message: { role: "assistant", content: "done" }, usage, stopReason: "end_turn" };
      return;
    }
    const args = `{"n":${n}}`;
    yield { type: "tool_call_start", index: 0, id: `c${n}`, name: "noop" };
    yield { type: "tool_call_delta", index: 0, argumentsDelta: args };
    yield {
      type: "done",
      message: { role: "assistant", content: "", toolCalls: [{ id: `c${n}`, name: "noop", arguments: args }] },
      usage,
      stopReason: "tool_use",
    };
  }
}

function gc(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

export async function loopRun(
  steps: number,
  dir: string,
): Promise<{ ms: number; toolMs: number; events: number; stateBytes: number }> {
  let toolMs = 0;
  const noop = defineTool({
    name: "noop",
    description: "Does nothing.",
    schema: z.object({ n: z.number() }),
    kind: "read",
    async run({ n }) {
      const t = performance.now();
      const result = { content: `ok ${n}` };
      toolMs += performance.now() - t;
      return result;
    },
  }) as unknown as Tool;
  const agent = createAgent({
    model: new InstantModel(steps),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    tools: [noop],
    maxSteps: steps + 1,
  });
  let events = 0;
  const started = performance.now();
  const done = await runToEnd(agent, "bench", { onEvent: () => events++ });
  const ms = performance.now() - started;
  if (done.reason !== "completed" || done.state.steps !== steps)
    throw new Error(`bench run ended with ${done.reason} after ${done.state.steps} steps`);
  return { ms, toolMs, events, stateBytes: JSON.stringify(done.state).length };
}

/** System prompt as sent (all middleware sections) plus all built-in tool schemas, in tokens. */
export async function measurePrompt(
  dir: string,
  mode: TaskMode = "act",
): Promise<{ tokens: number; systemTokens: number; toolTokens: number; tools: string[] }> {
  const model = new InstantModel(1);
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
  });
  await runToEnd(agent, "x", { mode });
  const request = model.lastRequest!;
  const systemTokens = countTokens(request.system);
  const toolTokens = countTokens(JSON.stringify(request.tools));
  return { tokens: systemTokens + toolTokens, systemTokens, toolTokens, tools: request.tools.map((t) => t.name) };
}

export async function runAgentBench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-bench-agent-"));
  try {
    console.log("\n## Agent core (issue 4)");
    await loopRun(200, dir); // warm up
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const run = await loopRun(STEPS, dir);
    const heapAfterRun = process.memoryUsage().heapUsed;
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    // Two more runs: the best and the median of three say more than one on a busy machine.
    const perStep = [run, await loopRun(STEPS, dir), await loopRun(STEPS, dir)]
      .map((r) => (r.ms - r.toolMs) / STEPS)
      .sort((a, b) => a - b);
    console.log(
      `  loop overhead: ${perStep[0]!.toFixed(3)} ms/step best, ${perStep[1]!.toFixed(3)} median of 3 runs of ${STEPS} steps (target ≤ 1 ms; tool time excluded; ${run.events} events per run)`,
    );
    console.log(
      `  memory: heap +${((heapAfterRun - heapBefore) / 1024 / 1024).toFixed(1)} MB during the run, +${((heapAfter - heapBefore) / 1024 / 1024).toFixed(2)} MB retained after GC (the run's saved state is ${(run.stateBytes / 1024).toFixed(0)} KB of JSON)`,
    );
    const prompt = await measurePrompt(dir);
    console.log(
      `  prompt size: ${prompt.tokens} tokens (system ${prompt.systemTokens} + tool schemas ${prompt.toolTokens}; o200k tokenizer; budget ${PROMPT_TOKEN_BUDGET}) for ${prompt.tools.join(", ")}`,
    );
    const plan = await measurePrompt(dir, "plan");
    console.log(
      `  plan mode's first request: ${plan.tokens} tokens (system ${plan.systemTokens} + tool schemas ${plan.toolTokens}) for ${plan.tools.join(", ")}; act's: ${prompt.tokens}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (/bench[\\/]agent\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  runAgentBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
