// pass^k of the real-model suite: printed at its end and written to test-output/local-model/.
import * as fs from "node:fs";
import * as path from "node:path";
import type { RecordedExchange } from "./recordingProxy";
import { passHatK, type TaskId } from "./tasks";

export interface RunRecord {
  /** The tool-call mode and sampling of the run ("constrained, temperature 0"). */
  variant?: string;
  /** The task's id (tasks.ts), or the exercise's slug (exercises.real.test.ts). */
  task: TaskId | string;
  run: number;
  succeeded: boolean;
  reason: string;
  steps: number;
  ms: number;
  toolCalls: string[];
  /** Tool calls the model wrote in its text instead of sending them as calls. */
  textToolCalls: number;
}

export const outputDir = path.join(import.meta.dirname, "..", "..", "test-output", "local-model");

const TEXT_CALL = /<tool_call>|```(?:json)?\s*\{\s*"(?:name|tool)"\s*:/;

export function countTextToolCalls(exchanges: RecordedExchange[]): number {
  return exchanges.filter((x) => TEXT_CALL.test(x.content)).length;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
}

export function passKTable(records: RunRecord[], k: number, title: string): string {
  const tasks = [...new Set(records.map((r) => r.task))];
  const rows = tasks.map((task) => {
    const runs = records.filter((r) => r.task === task);
    const ok = runs.filter((r) => r.succeeded).length;
    const ends = [...new Set(runs.map((r) => r.reason))].join(", ");
    const calls = [...new Set(runs.flatMap((r) => r.toolCalls))].join(", ") || "none";
    return `| ${task} | ${ok}/${runs.length} | ${passHatK(runs.map((r) => r.succeeded)).toFixed(0)} | ${ends} | ${median(runs.map((r) => r.steps))} | ${(median(runs.map((r) => r.ms)) / 1000).toFixed(1)} s | ${calls} | ${runs.reduce((n, r) => n + r.textToolCalls, 0)} |`;
  });
  const overall = tasks.filter(
    (t) => passHatK(records.filter((r) => r.task === t).map((r) => r.succeeded)) === 1,
  ).length;
  return [
    title,
    "",
    `| task | runs that succeeded | pass^${k} | how the runs ended | steps (median) | time (median) | tools called | answers with a tool call in the text |`,
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `pass^${k} over the ${tasks.length} tasks: ${overall}/${tasks.length}`,
  ].join("\n");
}

export function saveReport(name: string, table: string, records: RunRecord[], exchanges: RecordedExchange[]): void {
  fs.mkdirSync(outputDir, { recursive: true });
  fs.writeFileSync(path.join(outputDir, `${name}-passk.md`), `${table}\n`);
  fs.writeFileSync(path.join(outputDir, `${name}-runs.json`), JSON.stringify(records, null, 2));
  fs.writeFileSync(path.join(outputDir, `${name}-recordings.json`), JSON.stringify(exchanges, null, 2));
}
