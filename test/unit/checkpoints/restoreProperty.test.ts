// Checkpoints (issue 13), a property test: random sequences of creates and edits by the agent,
// edits and deletions by "the person" in between, and restores to random checkpoints. After
// each restore every file Fathom changed since the checkpoint holds the text it had just before
// Fathom's first change after it, or is reported as a conflict (exactly when the person changed
// it after Fathom's last write) and left as it was; no other file changes.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { CheckpointStore } from "../../../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../../../src/core/checkpoints/checkpointingBackend";

function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATHS = ["/a.txt", "/src/b.ts", "/src/deep/c.md", "/new/d.json", "/e.txt"];

/** Every file in the workspace with its text. */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(`/${path.relative(root, full).split(path.sep).join("/")}`, readFileSync(full, "utf8"));
    }
  };
  walk(root);
  return out;
}

type Event = { type: "cp"; n: number } | { type: "w"; path: string; before: string | null };

async function runSequence(
  seed: number,
  steps: number,
): Promise<{ restores: number; conflicts: number; restored: number }> {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const root = mkdtempSync(path.join(tmpdir(), "fathom-cp-ws-"));
  const store = new CheckpointStore({ dir: mkdtempSync(path.join(tmpdir(), "fathom-cp-store-")) });
  const inner = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
  const position = { conversationLength: 0 };
  const agent = new CheckpointingBackend(inner, store, "task-1", position);
  writeFileSync(path.join(root, "a.txt"), "the person's own first version\n");
  writeFileSync(path.join(root, "untracked.log"), "never touched by Fathom\n");

  const events: Event[] = [];
  const lastAfter = new Map<string, string | null>();
  let checkpoints = 0;
  const stats = { restores: 0, conflicts: 0, restored: 0 };
  const disk = (p: string) => (existsSync(path.join(root, p)) ? readFileSync(path.join(root, p), "utf8") : null);

  for (let step = 0; step < steps; step++) {
    const roll = random();
    if (roll < 0.15) {
      checkpoints = await store.checkpoint("task-1", {
        kind: "message",
        label: `message ${step}`,
        conversationLength: step,
      });
      events.push({ type: "cp", n: checkpoints });
    } else if (roll < 0.55) {
      // The agent writes or edits (after reading, as its tools make it).
      const p = pick(PATHS);
      const before = disk(p);
      if (before !== null) await inner.read(p);
      const content = random() < 0.1 ? "" : `${p} by the agent at step ${step}${random() < 0.2 ? "\r\n" : "\n"}`;
      const w =
        random() < 0.5 || before === null || before === ""
          ? await agent.write(p, content)
          : await agent.edit(p, before.slice(0, 1), `[${step}]`);
      if (w.error === undefined) {
        checkpoints++; // a checkpoint before each write
        events.push({ type: "cp", n: checkpoints }, { type: "w", path: p, before });
        lastAfter.set(p, disk(p));
      }
    } else if (roll < 0.8) {
      // The person edits, creates or deletes a file, Fathom's or not.
      const p = pick([...PATHS, "/untracked.log", "/person.txt"]);
      const full = path.join(root, p);
      if (random() < 0.25 && existsSync(full)) rmSync(full);
      else {
        mkdirSync(path.dirname(full), { recursive: true });
        writeFileSync(full, `the person's edit at step ${step}\n`);
      }
    } else if (checkpoints > 0 || random() < 0.3) {
      const to = Math.floor(random() * (checkpoints + 1));
      if (checkpoints === 0) {
        // No checkpoint yet (no message, no write): there is nothing to restore to, and it says so.
        await assert.rejects(store.plan("task-1", to, inner), /has no checkpoints/);
        continue;
      }
      const before = snapshot(root);
      const plan = await store.plan("task-1", to, inner);
      const result = await store.restore(plan, inner);
      const after = snapshot(root);
      stats.restores++;
      stats.conflicts += result.conflicts.length;
      stats.restored += result.restored.length;
      const start = to === 0 ? 0 : events.findIndex((e) => e.type === "cp" && e.n === to);
      const firstBefore = new Map<string, string | null>();
      for (const e of events.slice(start))
        if (e.type === "w" && !firstBefore.has(e.path)) firstBefore.set(e.path, e.before);
      const conflicted = new Set(result.conflicts.map((c) => c.path));
      for (const [p, target] of firstBefore) {
        const was = before.get(p) ?? null;
        const now = after.get(p) ?? null;
        const ctx = `seed ${seed}, step ${step}, restore to ${to}, ${p}`;
        if (result.restored.includes(p)) assert.equal(now, target, `${ctx}: restored to the wrong text`);
        else assert.equal(now, was, `${ctx}: changed without being restored`);
        if (was === target) continue;
        assert.equal(
          conflicted.has(p),
          was !== lastAfter.get(p),
          `${ctx}: conflict ${conflicted.has(p)}, but the person ${was !== lastAfter.get(p) ? "changed" : "did not change"} it`,
        );
      }
      for (const p of new Set([...before.keys(), ...after.keys()])) {
        if (!firstBefore.has(p))
          assert.equal(
            after.get(p),
            before.get(p),
            `seed ${seed}, step ${step}: ${p} was not Fathom's to restore, yet it changed`,
          );
      }
      assert.equal(after.get("/untracked.log") !== undefined || before.get("/untracked.log") === undefined, true);
      for (const p of result.restored) {
        events.push({ type: "w", path: p, before: before.get(p) ?? null });
        lastAfter.set(p, after.get(p) ?? null);
      }
    }
  }
  rmSync(root, { recursive: true, force: true });
  return stats;
}

describe("checkpoint restores, property test", () => {
  it("120 random sequences of agent writes, person edits and restores", { timeout: 240_000 }, async () => {
    const total = { restores: 0, conflicts: 0, restored: 0 };
    for (let seed = 1; seed <= 120; seed++) {
      const s = await runSequence(seed, 40);
      total.restores += s.restores;
      total.conflicts += s.conflicts;
      total.restored += s.restored;
    }
    // The sequences really exercise both outcomes.
    console.log(JSON.stringify(total));
    assert.ok(total.restores > 200 && total.restored > 200 && total.conflicts > 30, JSON.stringify(total));
  });
});
