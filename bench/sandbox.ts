// What the OS sandbox costs a short command (issue 19): `true` run 20 times through the CLI's
// child-process executor, plain and sandboxed, medians compared. The target: under 150 ms added.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ChildProcessExecutor } from "../src/core/executor/childProcessExecutor";
import { CommandSandbox, sandboxUnavailable } from "../src/core/executor/sandbox";
import { SandboxedExecutor } from "../src/core/executor/sandboxedExecutor";

const RUNS = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeRuns(run: () => Promise<unknown>): Promise<number[]> {
  await run(); // warm-up (the sandbox starts its proxies on first use)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

export async function runSandboxBench(): Promise<void> {
  console.log("\n## OS sandbox overhead (short command, median of 20)");
  const problem = sandboxUnavailable();
  if (problem) {
    console.log(`  skipped: ${problem}`);
    return;
  }
  const cwd = mkdtempSync(path.join(tmpdir(), "fathom-sandbox-bench-"));
  const plain = new ChildProcessExecutor();
  const sandbox = new CommandSandbox();
  const sandboxed = new SandboxedExecutor(new ChildProcessExecutor(), sandbox);
  try {
    const options = { cwd, timeoutMs: 30_000 };
    const plainTimes = await timeRuns(() => plain.run("true", options));
    const sandboxedTimes = await timeRuns(() => sandboxed.run("true", options));
    const figures = {
      plain_median_ms: Math.round(median(plainTimes) * 10) / 10,
      sandboxed_median_ms: Math.round(median(sandboxedTimes) * 10) / 10,
      added_median_ms: Math.round((median(sandboxedTimes) - median(plainTimes)) * 10) / 10,
      sandboxed_max_ms: Math.round(Math.max(...sandboxedTimes)),
      target_added_ms: 150,
    };
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    sandboxed.dispose();
    await sandbox.dispose();
    rmSync(cwd, { recursive: true, force: true });
  }
}
