// Records the starter suite's cassettes (test/evals/*/cassette.jsonl): each scenario's scripted
// model (its model.ts: what a competent model does for that task) is served by the scripted
// model server on 127.0.0.1 and the real agent runs against it through `fathom eval`'s own
// trial runner in --record mode, so what is kept is the real wire through the real `openai` /
// `@anthropic-ai/sdk` clients. A recording is kept only when the scenario's check passes and
// the script was played to its end. Afterwards the whole suite is replayed once.
//
//   node --import tsx test/evals/record.ts            # every scenario
//   node --import tsx test/evals/record.ts edit-file  # some
import { readdirSync, existsSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { CommandSandbox, sandboxUnavailable } from "../../src/core/executor/sandbox";
import { runTrial } from "../../src/cli/eval/runTrial";
import { loadScenario } from "../../src/cli/eval/scenario";
import { startScriptedModelServer } from "../support/scriptedModelServer";
import type { ScenarioScript } from "./scripted";

// The scenarios' own tests (node --test) are not children of a test runner here.
delete process.env.NODE_TEST_CONTEXT;

const suite = import.meta.dirname;

async function record(): Promise<number> {
  const wanted = process.argv.slice(2);
  const names = readdirSync(suite, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(suite, d.name, "model.ts")))
    .map((d) => d.name)
    .filter((n) => wanted.length === 0 || wanted.includes(n))
    .sort();
  const unknown = wanted.filter((w) => !names.includes(w));
  if (unknown.length) throw new Error(`no such scenario with a model.ts: ${unknown.join(", ")}`);

  const problem = sandboxUnavailable();
  if (problem) console.warn(`The OS sandbox is not available (${problem}); recording without it.`);
  const sandbox = problem ? undefined : new CommandSandbox({ allowedDomains: [] });
  let failed = 0;
  try {
    for (const name of names) {
      const scenario = loadScenario(path.join(suite, name));
      const script = (
        (await import(pathToFileURL(path.join(suite, name, "model.ts")).href)) as { default: ScenarioScript }
      ).default;
      const server = await startScriptedModelServer(script.turns);
      try {
        const anthropic = script.wire === "anthropic";
        const trial = await runTrial(scenario, 1, {
          mode: "record",
          live: {
            provider: anthropic ? "anthropic" : "openai-compatible",
            model: "scripted",
            baseUrl: anthropic ? server.baseUrlAnthropic : server.baseUrlOpenAI,
          },
          ...(sandbox ? { sandbox } : {}),
          retryBaseDelayMs: 1,
        });
        const leftover = server.pending();
        const ok = trial.passed && leftover === 0;
        if (!ok) failed++;
        console.log(
          `${ok ? "recorded" : "FAILED  "} ${name}: ${trial.steps} model calls via ${script.wire}, check exit ${trial.check.exitCode}` +
            (leftover ? `, ${leftover} scripted turns never played` : "") +
            (trial.error ? `\n  ${trial.error}` : "") +
            (trial.passed ? "" : `\n  check output: ${trial.check.output.trim().split("\n").slice(-5).join("\n  ")}`),
        );
      } finally {
        await server.close();
      }
    }
  } finally {
    await sandbox?.dispose();
  }
  if (failed) {
    console.log(
      `${failed} scenario(s) not recorded: their cassette.jsonl was left as it was (a failed run is in cassette.failed.jsonl).`,
    );
    return 1;
  }
  console.log(
    `\nReplaying the suite: node --import tsx src/cli/main.ts eval ${path.relative(process.cwd(), suite) || "."} --replay`,
  );
  const cli = await import("../../src/cli/main");
  return cli.main(["eval", suite, "--replay", ...(sandbox ? [] : ["--no-sandbox"])]);
}

record().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
