// Keeps the real model's replies from the last real-model suite run (test-output/local-model/cli-*.json)
// as the fixtures of the scripted regression tests (test/unit/agent/recordedSmallModel.test.ts):
// for each tool-call mode, the first temperature-0 run of each task, every reply as the server
// streamed it, and how the run ended. `node --import tsx test/local-model/saveFixtures.ts`
import * as fs from "node:fs";
import * as path from "node:path";
import type { RecordedExchange } from "./recordingProxy";
import { outputDir, type RunRecord } from "./report";
import { TASKS } from "./tasks";

const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "local-model", "smollm2-modes-recordings.json");
const MODES = ["constrained", "native"] as const;

const exchanges = JSON.parse(
  fs.readFileSync(path.join(outputDir, "cli-recordings.json"), "utf8"),
) as RecordedExchange[];
const runs = JSON.parse(fs.readFileSync(path.join(outputDir, "cli-runs.json"), "utf8")) as RunRecord[];
const fixtures = MODES.flatMap((mode) =>
  TASKS.map((task) => {
    const outcome = runs.find((r) => r.variant === `${mode}, temperature 0` && r.task === task.id && r.run === 1);
    const replies = exchanges.filter((x) => x.label === `${mode} t0 ${task.id}#1`);
    if (!outcome || replies.length === 0)
      throw new Error(
        `no recorded run 1 of ${task.id} in ${mode} mode at temperature 0: run the real-model suite first`,
      );
    return {
      mode,
      task: task.id,
      replies: replies.map((x) => ({
        content: x.content,
        toolCalls: x.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
        finishReason: x.finishReason ?? "stop",
      })),
      outcome: { reason: outcome.reason, succeeded: outcome.succeeded, toolCalls: outcome.toolCalls },
    };
  }),
);
const model =
  "smollm2-135m-instruct (SmolLM2-135M-Instruct Q4_1) on llama.cpp llama-server 0c1e570, --jinja with test/local-model/smollm2-tools.jinja, temperature 0, seed 42, max 200 tokens (constrained turns ask for up to 2,400)";
fs.writeFileSync(
  FIXTURE,
  `${JSON.stringify({ model, recorded: new Date().toISOString().slice(0, 10), runs: fixtures }, null, 1)}\n`,
);
console.log(`wrote ${fixtures.length} runs to ${path.relative(process.cwd(), FIXTURE)}`);
