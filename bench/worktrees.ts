// Tasks at once and task worktrees (issue 20), without VS Code: on a repository of 10,000
// files, making a task's worktree, listing what it changed, applying it; `fathom run
// --worktree` from start to the first model request beside a plain run; and the agent loop's
// overhead with 3 tasks running at once on this machine's cores. The same figures in the real
// extension host: `npm run bench -- vscode-parallel`.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { TaskWorktrees } from "../src/core/worktrees/taskWorktrees";
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { loopRun } from "./agent";
import { LoadSampler, percentile } from "./latencyStats";

const root = path.resolve(import.meta.dirname, "..");
export const REPO_FILES = 10_000;

/** A committed repository of `files` small source files in folders of 100. */
export function makeRepo(files: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-bench-repo-"));
  for (let i = 0; i < files; i++) {
    const folder = path.join(dir, "src", `m${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, `f${i}.ts`),
      `export const value${i} = ${i};\nexport function get${i}(): number {\n  return value${i};\n}\n`,
    );
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "files");
  return dir;
}

const ms = (x: number) => `${Math.round(x)} ms`;
const p50 = (xs: number[]) => percentile(xs, 50);

/** From spawning `fathom run` to its first model request at the scripted server. */
async function cliToFirstRequest(repo: string, data: string, worktree: boolean): Promise<number> {
  const server = await startScriptedModelServer([{ text: "Done." }]);
  try {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        path.join(root, "dist", "cli.js"),
        "run",
        "--yes",
        "--json",
        "--no-sandbox",
        "--provider",
        "openai-compatible",
        "--base-url",
        server.baseUrlOpenAI,
        "--cwd",
        repo,
        ...(worktree ? ["--worktree"] : []),
        "say done",
      ],
      {
        env: { ...process.env, XDG_DATA_HOME: data, HOME: data },
        stdio: "ignore",
      },
    );
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0 || !server.requests[0]?.receivedAt) throw new Error(`fathom run exited ${code}`);
    return server.requests[0].receivedAt - started;
  } finally {
    await server.close();
  }
}

export async function runWorktreeBench(): Promise<void> {
  console.log(`\n## Task worktrees and tasks at once (issue 20; ${cpus().length} cores)`);
  const load = new LoadSampler();
  const repo = makeRepo(REPO_FILES);
  const data = mkdtempSync(path.join(tmpdir(), "fathom-bench-wt-data-"));
  try {
    const wts = new TaskWorktrees({ repoDir: repo, worktreesDir: path.join(data, "worktrees") });
    const create: number[] = [];
    const changes: number[] = [];
    const apply: number[] = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      const wt = await wts.create(`bench${i}`, `bench task ${i}`);
      create.push(performance.now() - t);
      writeFileSync(
        path.join(wt.root, "src", "m7", `f7${String(i).padStart(2, "0")}.ts`),
        `export const changed = ${i};\n`,
      );
      t = performance.now();
      const files = await wts.changes(wt.taskId);
      changes.push(performance.now() - t);
      if (files.length !== 1) throw new Error(`expected 1 changed file, got ${files.length}`);
      await wts.setStatus(wt.taskId, "done");
      t = performance.now();
      const applied = await wts.apply(wt.taskId);
      apply.push(performance.now() - t);
      if (!applied.ok) throw new Error(applied.message);
      execFileSync("git", ["checkout", "--", "."], { cwd: repo });
      await wts.discard(wt.taskId);
    }
    console.log(
      `  ${REPO_FILES.toLocaleString()}-file repository: make a task's worktree (git worktree add, record) p50 ${ms(p50(create))} (of 5: ${create.map((x) => Math.round(x)).join(", ")})`,
    );
    console.log(
      `  list what a task changed (one file of ${REPO_FILES.toLocaleString()}) p50 ${ms(p50(changes))}; Apply p50 ${ms(p50(apply))}`,
    );

    execFileSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { cwd: root, stdio: "ignore" });
    const plain: number[] = [];
    const inWorktree: number[] = [];
    for (let i = 0; i < 3; i++) {
      plain.push(await cliToFirstRequest(repo, data, false));
      inWorktree.push(await cliToFirstRequest(repo, data, true));
    }
    console.log(
      `  fathom run → first model request, ${REPO_FILES.toLocaleString()} files: in the folder p50 ${ms(p50(plain))}, in a new worktree p50 ${ms(p50(inWorktree))} (+${ms(p50(inWorktree) - p50(plain))}; 3 runs each, process start included)`,
    );

    // The agent loop: one task alone, then three at once (tool time excluded).
    const STEPS = 1000;
    const dir = mkdtempSync(path.join(tmpdir(), "fathom-bench-loop-"));
    await loopRun(200, dir);
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await loopRun(STEPS, dir);
      alone.push((r.ms - r.toolMs) / STEPS);
    }
    const wall: number[] = [];
    const each: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const runs = await Promise.all([loopRun(STEPS, dir), loopRun(STEPS, dir), loopRun(STEPS, dir)]);
      wall.push((performance.now() - t - runs.reduce((s, r) => s + r.toolMs, 0)) / (3 * STEPS));
      each.push(...runs.map((r) => r.ms / STEPS));
    }
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `  loop overhead: one task ${p50(alone).toFixed(3)} ms/step; three at once ${p50(wall).toFixed(3)} ms per step of work (each task ${p50(each).toFixed(3)} ms/step while sharing), median of 3 runs of ${STEPS} steps each`,
    );
    const machine = load.stop();
    console.log(
      `  machine: 1-minute load average while it ran ${machine.mean.toFixed(2)} (max ${machine.max.toFixed(2)})`,
    );
  } finally {
    load.stop();
    rmSync(repo, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

if (/bench[\\/]worktrees\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  runWorktreeBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
