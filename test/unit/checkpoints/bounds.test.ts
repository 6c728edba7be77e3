// Checkpoints' bounds (issue 13, item 5): a file over the size kept is not kept and the
// checkpoint says so; storage is capped, the oldest tasks pruned first (never the running one,
// never a blob another task still needs); deleting a task frees its blobs; a prune running while
// a write is being recorded spares that write's blobs.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { BlobStore } from "../../../src/core/checkpoints/blobStore";
import { CheckpointStore } from "../../../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../../../src/core/checkpoints/checkpointingBackend";

function workspace() {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-cpb-ws-"));
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-cpb-store-"));
  return { root, dir, inner: new FilesystemBackend({ rootDir: root, ripgrepPath: null }) };
}

/** A task that writes `files` (path → text) through the checkpointing backend. */
async function task(
  store: CheckpointStore,
  inner: FilesystemBackend,
  taskId: string,
  files: Record<string, string>,
): Promise<void> {
  await store.checkpoint(taskId, { kind: "message", label: taskId, conversationLength: 0 });
  const agent = new CheckpointingBackend(inner, store, taskId, { conversationLength: 0 });
  for (const [p, text] of Object.entries(files)) {
    const now = await inner.currentText(p);
    if (!("error" in now) && now.text !== null) await inner.read(p);
    const w = await agent.write(p, text);
    assert.equal(w.error, undefined, `${taskId} ${p}: ${w.error}`);
  }
}

/** Makes task journals old in the given order (oldest first), as if written days apart. */
function age(dir: string, oldestFirst: string[]): void {
  const now = Date.now() / 1000;
  oldestFirst.forEach((id, i) => {
    const t = now - 86_400 * (oldestFirst.length - i);
    utimesSync(path.join(dir, "journals", `${id}.jsonl`), t, t);
  });
}

const blobHash = (text: string) => BlobStore.hashOf(Buffer.from(text, "utf8"));
const blobExists = (dir: string, text: string) =>
  existsSync(path.join(dir, "blobs", blobHash(text).slice(0, 2), blobHash(text).slice(2)));

describe("checkpoint bounds", () => {
  it("a file over the size limit is not kept: the checkpoint, the plan and the restore say so, and the file is left alone", async () => {
    const { root, dir, inner } = workspace();
    const store = new CheckpointStore({ dir, maxBlobBytes: 4096 });
    const big = "a line the person wrote\n".repeat(400); // 9,600 bytes
    writeFileSync(path.join(root, "big.log"), big);
    writeFileSync(path.join(root, "small.txt"), "small\n");
    await task(store, inner, "t1", { "/big.log": "short now\n", "/small.txt": "changed\n" });

    // No blob over the limit was written.
    for (const size of (await store.blobs.list()).values()) assert.ok(size <= 4096, `a ${size}-byte blob was kept`);
    assert.ok(!blobExists(dir, big));
    const [first, write] = await store.checkpoints("t1");
    assert.deepEqual(first!.notKept, ["/big.log"]);
    assert.deepEqual(first!.files.sort(), ["/big.log", "/small.txt"]);
    assert.match(
      write!.label,
      /^Changed \/big\.log \(its earlier text, 10 KB, was over the size checkpoints keep: it cannot be restored\)$/,
    );

    const plan = await store.plan("t1", 1, inner);
    const bigPlan = plan.files.find((f) => f.path === "/big.log")!;
    assert.match(bigPlan.notKept!, /over the size kept by checkpoints/);
    const result = await store.restore(plan, inner);
    assert.deepEqual(result.restored, ["/small.txt"]);
    assert.deepEqual(
      result.failed.map((f) => f.path),
      ["/big.log"],
    );
    assert.equal(readFileSync(path.join(root, "big.log"), "utf8"), "short now\n", "left as it is");
    assert.equal(readFileSync(path.join(root, "small.txt"), "utf8"), "small\n");
  });

  it("over the cap, the oldest tasks go first, never the running one, and blobs still used stay", async () => {
    const { root, dir, inner } = workspace();
    let capBytes = 1 << 30;
    const store = new CheckpointStore({ dir, maxStorageBytes: () => capBytes });
    const shared = "shared by every task\n".repeat(2_000); // 42 KB, kept once
    writeFileSync(path.join(root, "shared.txt"), shared);
    const big = (id: string) => `${id}'s own text\n`.repeat(5_000); // ~65 KB each
    await task(store, inner, "oldest", { "/oldest.txt": big("oldest"), "/shared.txt": "oldest's shared\n" });
    writeFileSync(path.join(root, "shared.txt"), shared);
    await task(store, inner, "middle", { "/middle.txt": big("middle"), "/shared.txt": "middle's shared\n" });
    writeFileSync(path.join(root, "shared.txt"), shared);
    await task(store, inner, "newest", { "/newest.txt": big("newest"), "/shared.txt": "newest's shared\n" });
    await task(store, inner, "running", { "/running.txt": "small\n" });
    age(dir, ["running", "oldest", "middle", "newest"]); // the running task is the oldest of all on disk

    const before = await store.usage();
    assert.ok(before > 3 * 65_000 + 42_000, `${before}`);
    assert.deepEqual(await store.prune("running"), [], "under the cap nothing goes");
    // The setting is read at each prune: lowered, it takes effect at once.
    capBytes = before - 100_000;
    assert.equal(store.maxStorageBytes, capBytes);
    assert.deepEqual(await store.prune("running"), ["oldest", "middle"]);
    assert.ok((await store.usage()) <= capBytes);
    assert.deepEqual((await store.tasks()).map((t) => t.taskId).sort(), ["newest", "running"]);
    assert.ok(!blobExists(dir, big("oldest")) && !blobExists(dir, big("middle")), "the pruned tasks' blobs are freed");
    assert.ok(blobExists(dir, shared), "a blob the newest task still needs stays");
    assert.ok(blobExists(dir, big("newest")));
    // What is left still restores.
    const result = await store.restore(await store.plan("newest", 0, inner), inner);
    assert.deepEqual(result.restored.sort(), ["/newest.txt", "/shared.txt"]);
    assert.equal(readFileSync(path.join(root, "shared.txt"), "utf8"), shared);
  });

  it("deleting a task frees the blobs only it used, and the storage figure drops", async () => {
    const { root, dir, inner } = workspace();
    const store = new CheckpointStore({ dir });
    writeFileSync(path.join(root, "a.txt"), "the person's a\n");
    await task(store, inner, "one", { "/a.txt": "one's a\n", "/one.txt": "only one's\n".repeat(1_000) });
    writeFileSync(path.join(root, "a.txt"), "the person's a\n");
    await task(store, inner, "two", { "/a.txt": "two's a\n" });
    const used = await store.usage();
    await store.deleteTask("one");
    assert.ok(!blobExists(dir, "only one's\n".repeat(1_000)));
    assert.ok(!blobExists(dir, "one's a\n"));
    assert.ok(blobExists(dir, "the person's a\n"), "task two still needs it");
    assert.ok(blobExists(dir, "two's a\n"));
    assert.ok((await store.usage()) < used - 10_000);
    assert.deepEqual(
      (await store.tasks()).map((t) => t.taskId),
      ["two"],
    );
    assert.equal(await store.hasTask("one"), false);
    await assert.rejects(store.plan("one", 0, inner), /has no checkpoints: they were deleted/);
  });

  it("a prune while a write is being recorded spares that write's blobs", async () => {
    const { dir } = workspace();
    const store = new CheckpointStore({ dir });
    await store.checkpoint("gone", { kind: "message", label: "x", conversationLength: 0 });
    const kept = await store.keep("kept but not yet in a journal\n");
    await store.deleteTask("gone"); // collects garbage
    assert.ok(blobExists(dir, "kept but not yet in a journal\n"));
    await store.recordWrite("live", "/x.txt", kept, null);
    await store.deleteTask("live");
    assert.ok(!blobExists(dir, "kept but not yet in a journal\n"), "freed once its task is deleted");
  });
});
