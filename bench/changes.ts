// Review after (issue 42, item 2): Undo of a 40-file task (goal ≤ 1 s, every file byte for byte
// as at the task's start) in the core, and the Changes list of 500 files painting in the webview
// (goal ≤ 300 ms from the host's message to the painted frame, headless Chromium, production
// bundle). Runs alone with `node --import tsx bench/changes.ts`.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import { CheckpointStore } from "../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../src/core/checkpoints/checkpointingBackend";
import { TaskChanges } from "../src/core/checkpoints/taskChanges";
import type { ChangesView } from "../src/protocol";
import { baseState, manyItems } from "../test/webview/fixtures";
import { startHarness } from "../test/webview/harness";
import { buildProductionWebview } from "./webview";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const RUNS = 5;

/** One run: a task edits 36 files (3 places each) and creates 4, then Undo of all. */
async function undoFortyFiles(): Promise<{ listMs: number; undoMs: number; identical: boolean }> {
  const root = mkdtempSync(path.join(os.tmpdir(), "fathom-bench-changes-"));
  const store = new CheckpointStore({ dir: mkdtempSync(path.join(os.tmpdir(), "fathom-bench-changes-store-")) });
  const inner = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
  mkdirSync(path.join(root, "src"));
  const start = new Map<string, string>();
  const agent = new CheckpointingBackend(inner, store, "t40", { conversationLength: 0 });
  for (let i = 0; i < 40; i++) {
    const p = `/src/m${i}.ts`;
    if (i % 10 === 9) {
      await agent.write(p, `export const made${i} = true;\n`);
      continue;
    }
    const text = Array.from({ length: 400 }, (_, k) => `export const v${k} = ${i * k}; // line ${k}`).join("\n") + "\n";
    writeFileSync(path.join(root, p), text);
    start.set(p, text);
    await inner.read(p);
    await agent.write(
      p,
      text
        .replace("line 10\n", "line 10 (changed)\n")
        .replace("v200 =", "w200 =")
        .replace("line 399\n", "line 399\nexport {};\n"),
    );
  }
  const changes = new TaskChanges(store, "t40", inner);
  let t = performance.now();
  const listed = await changes.list();
  const listMs = performance.now() - t;
  if (listed.length !== 40) throw new Error(`listed ${listed.length} files, not 40`);
  t = performance.now();
  const outcome = await changes.undo({});
  const undoMs = performance.now() - t;
  let identical = outcome.done.length === 40;
  for (let i = 0; i < 40; i++) {
    const file = path.join(root, `src/m${i}.ts`);
    const before = start.get(`/src/m${i}.ts`);
    identical &&= before === undefined ? !existsSync(file) : readFileSync(file).equals(Buffer.from(before, "utf8"));
  }
  rmSync(root, { recursive: true, force: true });
  return { listMs, undoMs, identical };
}

function changesOf(files: number): ChangesView {
  return {
    files: Array.from({ length: files }, (_, i) => ({
      path: `/packages/pkg${i % 25}/src/module${i}.ts`,
      created: i % 7 === 0,
      added: (i * 7) % 90,
      removed: (i * 3) % 40,
      hunks: 1 + (i % 5),
      conflicts: i % 50 === 0 ? ["you changed these lines after Fathom: undo them by hand, or Keep them"] : [],
    })),
  };
}

const WAIT_ROWS = (n: number) => `new Promise((resolve) => {
  const check = () => {
    if (document.querySelectorAll(".changes-list li").length >= ${n}) requestAnimationFrame(() => setTimeout(resolve, 0));
    else requestAnimationFrame(check);
  };
  check();
})`;

async function paintFiveHundred(): Promise<number[]> {
  const outdir = mkdtempSync(path.join(os.tmpdir(), "fathom-changes-bench-"));
  const times: number[] = [];
  try {
    await buildProductionWebview(outdir);
    const harness = await startHarness(outdir);
    try {
      const state = baseState({ status: "completed", items: manyItems(200) });
      const changes = changesOf(500);
      for (let run = 0; run < RUNS; run++) {
        const view = await harness.open();
        await view.send({ type: "state", state });
        await view.page.waitForSelector("[data-index]");
        const ms = (await view.page.evaluate(
          `(() => { const t = performance.now(); window.postMessage(${JSON.stringify({ type: "changes", changes })}, "*"); return ${WAIT_ROWS(500)}.then(() => performance.now() - t); })()`,
        )) as number;
        times.push(ms);
        await view.page.context().close();
      }
      if (harness.pageErrors.length) console.log(`  page errors: ${harness.pageErrors.join("; ")}`);
    } finally {
      await harness.stop();
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  return times;
}

export async function runChangesBench(): Promise<void> {
  console.log("\n## Review after: Undo of a 40-file task, the Changes list of 500 files (issue 42)");
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await undoFortyFiles());
  const undo = median(runs.map((r) => r.undoMs));
  console.log(
    `  list of 40 files (36 edited in 3 places, 4 created): ${median(runs.map((r) => r.listMs)).toFixed(0)} ms median of ${RUNS}`,
  );
  console.log(
    `  Undo of all 40: ${undo.toFixed(0)} ms median of ${RUNS} (goal ≤ 1000 ms)${undo > 1000 ? "  OVER GOAL" : ""}; byte-identical to the start: ${runs.every((r) => r.identical) ? "yes" : "NO"}`,
  );
  const paint = median(await paintFiveHundred());
  console.log(
    `  Changes list of 500 files, message → painted: ${paint.toFixed(0)} ms median of ${RUNS} (goal ≤ 300 ms)${paint > 300 ? "  OVER GOAL" : ""}`,
  );
}

if (/bench[\\/]changes\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  runChangesBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
