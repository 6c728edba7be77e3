// Review after (issue 42, item 2): a task's changes since its start per file and hunk, Keep and
// Undo per hunk, per file and for all, through the checkpoint store; the person's own later
// edits are kept, and where they touched the same lines Undo is a conflict that changes nothing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { CheckpointStore } from "../../../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../../../src/core/checkpoints/checkpointingBackend";
import { TaskChanges } from "../../../src/core/checkpoints/taskChanges";
import { undoneNote } from "../../../src/core/checkpoints/reviewNote";

function workspace() {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-chg-ws-"));
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-chg-store-"));
  const inner = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
  return { root, dir, inner, store: new CheckpointStore({ dir }) };
}

/** The task writes `files` through the checkpointing backend, as auto-approved edits land. */
async function agentWrites(
  store: CheckpointStore,
  inner: FilesystemBackend,
  taskId: string,
  files: Record<string, string>,
): Promise<void> {
  const agent = new CheckpointingBackend(inner, store, taskId, { conversationLength: 0 });
  for (const [p, text] of Object.entries(files)) {
    const now = await inner.currentText(p);
    if (!("error" in now) && now.text !== null) await inner.read(p);
    const w = await agent.write(p, text);
    assert.equal(w.error, undefined, `${p}: ${w.error}`);
  }
}

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join("");
const START = lines("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten");
const AFTER = lines("one", "TWO", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven");

describe("task changes", () => {
  it("lists each changed file with its hunks and +/− counts; a created file is marked", async () => {
    const { root, inner, store } = workspace();
    writeFileSync(path.join(root, "a.txt"), START);
    await agentWrites(store, inner, "t1", { "/a.txt": AFTER, "/new.txt": lines("hello") });
    const files = await new TaskChanges(store, "t1", inner).list();
    assert.deepEqual(
      files.map((f) => [f.path, f.added, f.removed, f.hunks.length, f.created]),
      [
        ["/a.txt", 2, 1, 2, false],
        ["/new.txt", 1, 0, 1, true],
      ],
    );
    assert.deepEqual(files[0]!.hunks[0]!.baseLines, ["two\n"]);
    assert.deepEqual(files[0]!.hunks[0]!.agentLines, ["TWO\n"]);
  });

  it("undoes one hunk exactly, leaving the other and the person's own later edit elsewhere", async () => {
    const { root, inner, store } = workspace();
    writeFileSync(path.join(root, "a.txt"), START);
    await agentWrites(store, inner, "t1", { "/a.txt": AFTER });
    // The person edits line 6 afterwards (not a line Fathom changed).
    writeFileSync(path.join(root, "a.txt"), AFTER.replace("six\n", "six (mine)\n"));
    const changes = new TaskChanges(store, "t1", inner);
    const [file] = await changes.list();
    const result = await changes.undo({ path: "/a.txt", hunks: [file!.hunks[0]!.id] });
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.done[0]!.hunks.length, 1);
    assert.equal(
      readFileSync(path.join(root, "a.txt"), "utf8"),
      lines("one", "two", "three", "four", "five", "six (mine)", "seven", "eight", "nine", "ten", "eleven"),
    );
    // What is left to review: the added line only, still placed in the file now.
    const [left] = await changes.list();
    assert.equal(left!.hunks.length, 1);
    assert.deepEqual(left!.hunks[0]!.agentLines, ["eleven\n"]);
    assert.ok("nowStart" in left!.hunks[0]!.place);
    // The undo is itself a write in the journal (a restore), so it is checkpointed.
    const journal = await store.journal("t1");
    assert.ok(journal.some((e) => e.t === "w" && e.by === "restore" && e.path === "/a.txt"));
  });

  it("a hunk whose lines the person changed after Fathom is a conflict: shown, and Undo leaves the file as it is", async () => {
    const { root, inner, store } = workspace();
    writeFileSync(path.join(root, "a.txt"), START);
    await agentWrites(store, inner, "t1", { "/a.txt": AFTER });
    const mine = AFTER.replace("TWO\n", "Two, as I want it\n");
    writeFileSync(path.join(root, "a.txt"), mine);
    const changes = new TaskChanges(store, "t1", inner);
    const [file] = await changes.list();
    const place = file!.hunks[0]!.place;
    assert.ok("conflict" in place && /you changed these lines after Fathom/.test(place.conflict));
    const result = await changes.undo({ path: "/a.txt", hunks: [file!.hunks[0]!.id] });
    assert.equal(result.done.length, 0);
    assert.equal(result.conflicts.length, 1);
    assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), mine);
    // Undo of the whole file undoes what it can and reports the rest.
    const whole = await changes.undo({ path: "/a.txt" });
    assert.equal(whole.conflicts.length, 1);
    assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), mine.replace("eleven\n", ""));
  });

  it("Keep of a hunk marks it reviewed without touching the file, and survives a new store (a reload)", async () => {
    const { root, dir, inner, store } = workspace();
    writeFileSync(path.join(root, "a.txt"), START);
    await agentWrites(store, inner, "t1", { "/a.txt": AFTER });
    const changes = new TaskChanges(store, "t1", inner);
    const [file] = await changes.list();
    await changes.keep({ path: "/a.txt", hunks: [file!.hunks[1]!.id] });
    assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), AFTER);
    const reloaded = new TaskChanges(new CheckpointStore({ dir }), "t1", inner);
    const [left] = await reloaded.list();
    assert.equal(left!.hunks.length, 1);
    assert.deepEqual(left!.hunks[0]!.agentLines, ["TWO\n"]);
    // The diff's left side now holds the kept line.
    assert.ok(left!.base.endsWith("ten\neleven\n"));
    // Undo of the rest goes back to the kept text, not to the start.
    await reloaded.undo({});
    assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), START + "eleven\n");
    assert.deepEqual(await reloaded.list(), []);
  });

  it("Keep all clears the list; a later write by Fathom shows again", async () => {
    const { root, inner, store } = workspace();
    writeFileSync(path.join(root, "a.txt"), START);
    await agentWrites(store, inner, "t1", { "/a.txt": AFTER, "/b.txt": lines("b") });
    const changes = new TaskChanges(store, "t1", inner);
    const kept = await changes.keep({});
    assert.equal(kept.done.length, 2);
    assert.deepEqual(await changes.list(), []);
    await agentWrites(store, inner, "t1", { "/a.txt": AFTER + "twelve\n" });
    const [again] = await changes.list();
    assert.equal(again!.path, "/a.txt");
    assert.deepEqual(
      again!.hunks.map((h) => h.agentLines),
      [["twelve\n"]],
    );
  });

  it("undo of a 40-file task puts every file back byte for byte as at the start (created ones deleted)", async () => {
    const { root, inner, store } = workspace();
    const start: Record<string, string> = {};
    const after: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      const name = `/src/f${i}.ts`;
      if (i % 10 === 9) {
        after[name] = `export const created${i} = ${i};\n`;
        continue;
      }
      // CRLF, a BOM, no final newline: the bytes must come back as they were.
      const text = `${i % 3 === 0 ? "\uFEFF" : ""}${Array.from({ length: 60 }, (_, k) => `line ${k} of ${i}`).join(i % 2 ? "\r\n" : "\n")}`;
      start[name] = text;
      after[name] =
        text.replace("line 3 ", "LINE 3 ").replace(`line 40 of ${i}`, `changed 40\nand more`) + "\n// end\n";
    }
    mkdirSync(path.join(root, "src"), { recursive: true });
    for (const [p, text] of Object.entries(start)) writeFileSync(path.join(root, p), text);
    await agentWrites(store, inner, "t40", after);
    const changes = new TaskChanges(store, "t40", inner);
    assert.equal((await changes.list()).length, 40);
    const result = await changes.undo({});
    assert.equal(result.done.length, 40);
    assert.deepEqual([...result.conflicts, ...result.failed], []);
    for (let i = 0; i < 40; i++) {
      const p = path.join(root, `src/f${i}.ts`);
      const name = `/src/f${i}.ts`;
      if (start[name] === undefined) assert.equal(existsSync(p), false, `${name} was created by Fathom`);
      else assert.ok(readFileSync(p).equals(Buffer.from(start[name], "utf8")), `${name} is back byte for byte`);
    }
    assert.deepEqual(await changes.list(), []);
  });

  it("tells the model what was undone: files and the lines put back", async () => {
    const { root, inner, store } = workspace();
    writeFileSync(path.join(root, "a.txt"), START);
    await agentWrites(store, inner, "t1", { "/a.txt": AFTER, "/new.txt": lines("hello") });
    const changes = new TaskChanges(store, "t1", inner);
    const [file] = await changes.list();
    const one = await changes.undo({ path: "/a.txt", hunks: [file!.hunks[0]!.id] });
    const all = await changes.undo({ path: "/new.txt" });
    const note = undoneNote([...one.done, ...all.done]);
    assert.match(note, /\/a\.txt/);
    assert.match(note, /1 of 2 changes/);
    assert.match(note, /TWO/);
    assert.match(note, /\/new\.txt.*deleted/s);
  });
});
