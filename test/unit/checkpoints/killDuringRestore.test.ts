// Checkpoints (issue 13): kill -9 during a restore of 100 files leaves no half-written file:
// each one holds its earlier text or the agent's, whole, and a restore run again finishes the job.
import { it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { CheckpointStore } from "../../../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../../../src/core/checkpoints/checkpointingBackend";

const CHILD = path.resolve(__dirname, "../../support/restoreChild.ts");
const old = (i: number) => `earlier ${i}\n`.repeat(8_000);
const agents = (i: number) => `the agent's ${i}\n`.repeat(9_000);

async function setUp() {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-kill-ws-"));
  const storeDir = mkdtempSync(path.join(tmpdir(), "fathom-kill-store-"));
  mkdirSync(path.join(root, "src"));
  const inner = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
  const agent = new CheckpointingBackend(inner, new CheckpointStore({ dir: storeDir }), "t", { conversationLength: 0 });
  for (let i = 0; i < 100; i++) {
    const p = `/src/f${i}.txt`;
    if (i % 2 === 0) {
      writeFileSync(path.join(root, p), old(i));
      await inner.read(p);
    }
    assert.equal((await agent.write(p, agents(i))).error, undefined);
  }
  return { root, storeDir };
}

function restoreInChild(root: string, storeDir: string, killAfterMs: number | null): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, root, storeDir, "t"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) => {
    child.stdout.on("data", (d: Buffer) => {
      if (killAfterMs !== null && d.toString().includes("restoring"))
        setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    });
    child.on("close", () => resolve());
  });
}

it(
  "kill -9 during a restore leaves every file whole; a second restore completes it",
  { timeout: 180_000 },
  async () => {
    let partlyDone = 0;
    for (const killAfterMs of [0, 5, 15, 30, 60, 120]) {
      const { root, storeDir } = await setUp();
      await restoreInChild(root, storeDir, killAfterMs);
      let restored = 0;
      for (let i = 0; i < 100; i++) {
        const file = path.join(root, `src/f${i}.txt`);
        const text = existsSync(file) ? readFileSync(file, "utf8") : null;
        const earlier = i % 2 === 0 ? old(i) : null;
        assert.ok(
          text === earlier || text === agents(i),
          `f${i}.txt is neither its earlier text nor the agent's (${text?.length} chars) after kill -9 at ${killAfterMs} ms`,
        );
        if (text === earlier) restored++;
      }
      if (restored > 0 && restored < 100) partlyDone++;
      await restoreInChild(root, storeDir, null);
      for (let i = 0; i < 100; i++) {
        const file = path.join(root, `src/f${i}.txt`);
        assert.equal(
          existsSync(file) ? readFileSync(file, "utf8") : null,
          i % 2 === 0 ? old(i) : null,
          `f${i}.txt after the second restore`,
        );
      }
    }
    assert.ok(partlyDone > 0, "some kill landed in the middle of a restore");
  },
);
