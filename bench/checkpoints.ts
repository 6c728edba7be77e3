// Checkpoints (issue 13): what a checkpoint adds to each write in a 100,000-file workspace and in
// a 1,000-file one (files under 1 MB; the goal is under 20 ms, whatever the workspace's size),
// what the checkpoint at a message costs before the model request (a long journal, read cold),
// how long a restore of 100 files takes (goal: under 1 s), and deleting a task among many blobs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import { CheckpointStore } from "../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../src/core/checkpoints/checkpointingBackend";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const round = (ms: number) => +ms.toFixed(2);

function makeWorkspace(files: number): string {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-bench-cp-"));
  for (let d = 0; d < files / 100; d++) {
    const dir = path.join(root, `pkg${d}`);
    mkdirSync(dir);
    for (let f = 0; f < 100; f++) writeFileSync(path.join(dir, `f${f}.ts`), `export const v${f} = ${d};\n`);
  }
  return root;
}

/** 30 writes of each size through the backend alone and through the checkpointing backend. */
async function writeFigures(
  label: string,
  inner: FilesystemBackend,
  store: CheckpointStore,
  results: Record<string, number | string>,
): Promise<void> {
  const agent = new CheckpointingBackend(inner, store, `bench-${label}`, { conversationLength: 0 });
  for (const [size, bytes] of [
    ["1KB", 1024],
    ["100KB", 100 * 1024],
    ["900KB", 900 * 1024],
  ] as const) {
    const plain: number[] = [];
    const checkpointed: number[] = [];
    for (let i = 0; i < 30; i++) {
      const body = (n: number) => `${"x".repeat(bytes - 20)}${String(n).padStart(19)}\n`;
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
    results[`${label}_write_${size}_plain_median_ms`] = round(median(plain));
    results[`${label}_write_${size}_checkpointed_median_ms`] = round(median(checkpointed));
    results[`${label}_checkpoint_added_${size}_median_ms`] = round(median(checkpointed) - median(plain));
    results[`${label}_write_${size}_checkpointed_p95_ms`] = round(p95(checkpointed));
  }
}

export async function runCheckpointBench(): Promise<void> {
  const results: Record<string, number | string> = {};
  const storeDir = mkdtempSync(path.join(tmpdir(), "fathom-bench-cp-store-"));
  const store = new CheckpointStore({ dir: storeDir });

  console.log("\n## Checkpoints: 1,000-file and 100,000-file workspaces");
  const small = makeWorkspace(1_000);
  await writeFigures("ws1k", new FilesystemBackend({ rootDir: small, ripgrepPath: null }), store, results);
  const made = Date.now();
  const root = makeWorkspace(100_000);
  console.log(`  (100,000 files made in ${((Date.now() - made) / 1000).toFixed(1)} s)`);
  const inner = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
  await writeFigures("ws100k", inner, store, results);

  // The checkpoint at a message, taken before the model request: a task with a 2,000-entry
  // journal, by a fresh store (as after a reload: the journal is read once) and then warm.
  const long = "bench-long";
  for (let i = 0; i < 1_000; i++) {
    await store.checkpoint(long, { kind: "write", label: `Changed /pkg${i % 100}/f9.ts`, conversationLength: i });
    await store.recordWrite(long, `/pkg${i % 100}/f9.ts`, null, null);
  }
  const fresh = new CheckpointStore({ dir: storeDir });
  let t = performance.now();
  await fresh.checkpoint(long, { kind: "message", label: "next message", conversationLength: 1_000 });
  results.message_checkpoint_cold_2000_entries_ms = round(performance.now() - t);
  const warm: number[] = [];
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    await fresh.checkpoint(long, { kind: "message", label: "next message", conversationLength: 1_000 + i });
    warm.push(performance.now() - t);
  }
  results.message_checkpoint_warm_median_ms = round(median(warm));

  // 100 files changed by one task, restored at once.
  const task = "bench-restore";
  const writer = new CheckpointingBackend(inner, store, task, { conversationLength: 0 });
  await store.checkpoint(task, { kind: "message", label: "restore bench", conversationLength: 0 });
  for (let i = 0; i < 100; i++) {
    const p = `/pkg${500 + i}/f3.ts`;
    await inner.read(p);
    await writer.write(p, `export const changed = ${i};\n`.repeat(200));
  }
  t = performance.now();
  const plan = await store.plan(task, 1, inner);
  const done = await store.restore(plan, inner);
  results.restore_100_files_ms = Math.round(performance.now() - t);
  results.restored = done.restored.length;

  // Deleting a task (its blobs freed; every other journal read to spare what they still use).
  const blobs = (await store.blobs.list()).size;
  t = performance.now();
  await store.deleteTask("bench-ws100k");
  results[`delete_task_among_${blobs}_blobs_ms`] = Math.round(performance.now() - t);
  results.storage_bytes = await store.usage();
  results.goal =
    "checkpoint added < 20 ms per write under 1 MB, whatever the workspace's size; restore of 100 files < 1000 ms";
  console.log(JSON.stringify(results, null, 2));
  for (const dir of [small, root, storeDir]) rmSync(dir, { recursive: true, force: true });
}
