// Checkpoints (issue 13): what a checkpoint adds to each write in a 100,000-file workspace
// (files under 1 MB; the goal is under 20 ms, whatever the workspace's size), and how long a
// restore of 100 files takes (goal: under 1 s).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import { CheckpointStore } from "../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../src/core/checkpoints/checkpointingBackend";

const FILES = 100_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

export async function runCheckpointBench(): Promise<void> {
  console.log(`\n## Checkpoints: ${FILES.toLocaleString("en")}-file workspace`);
  const root = mkdtempSync(path.join(tmpdir(), "fathom-bench-cp-"));
  const storeDir = mkdtempSync(path.join(tmpdir(), "fathom-bench-cp-store-"));
  const made = Date.now();
  for (let d = 0; d < FILES / 100; d++) {
    const dir = path.join(root, `pkg${d}`);
    mkdirSync(dir);
    for (let f = 0; f < 100; f++) writeFileSync(path.join(dir, `f${f}.ts`), `export const v${f} = ${d};\n`);
  }
  console.log(`  (made in ${((Date.now() - made) / 1000).toFixed(1)} s)`);
  const inner = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
  const store = new CheckpointStore({ dir: storeDir });
  const agent = new CheckpointingBackend(inner, store, "bench", { conversationLength: 0 });
  const results: Record<string, number | string> = { workspace_files: FILES };
  for (const [label, size] of [["1 KB", 1024], ["100 KB", 100 * 1024], ["900 KB", 900 * 1024]] as const) {
    const plain: number[] = [];
    const checkpointed: number[] = [];
    for (let i = 0; i < 30; i++) {
      const body = (n: number) => `${"x".repeat(size - 20)}${String(n).padStart(19)}\n`;
      const a = `/pkg${i}/f1.ts`;
      const b = `/pkg${i}/f2.ts`;
      await inner.read(a);
      await inner.read(b);
      let t = performance.now();
      await inner.write(a, body(i));
      plain.push(performance.now() - t);
      t = performance.now();
      await agent.write(b, body(i));
      checkpointed.push(performance.now() - t);
    }
    results[`write_${label.replace(" ", "")}_plain_median_ms`] = +median(plain).toFixed(2);
    results[`write_${label.replace(" ", "")}_checkpointed_median_ms`] = +median(checkpointed).toFixed(2);
    results[`checkpoint_added_${label.replace(" ", "")}_median_ms`] = +(median(checkpointed) - median(plain)).toFixed(2);
    results[`write_${label.replace(" ", "")}_checkpointed_p95_ms`] = +p95(checkpointed).toFixed(2);
  }
  // 100 files changed by one task, restored at once.
  const task = "bench-restore";
  const writer = new CheckpointingBackend(inner, store, task, { conversationLength: 0 });
  await store.checkpoint(task, { kind: "message", label: "restore bench", conversationLength: 0 });
  for (let i = 0; i < 100; i++) {
    const p = `/pkg${500 + i}/f3.ts`;
    await inner.read(p);
    await writer.write(p, `export const changed = ${i};\n`.repeat(200));
  }
  const t = performance.now();
  const plan = await store.plan(task, 1, inner);
  const done = await store.restore(plan, inner);
  results.restore_100_files_ms = Math.round(performance.now() - t);
  results.restored = done.restored.length;
  results.storage_bytes = await store.usage();
  results.goal = "checkpoint added < 20 ms per write under 1 MB; restore of 100 files < 1000 ms";
  console.log(JSON.stringify(results, null, 2));
  rmSync(root, { recursive: true, force: true });
  rmSync(storeDir, { recursive: true, force: true });
}
