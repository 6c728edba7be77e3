// The Changes list in the chat session (issue 42, item 2): auto-approved writes collect in the
// list with +/− counts, Undo of one hunk writes back exactly that hunk, the model is told at its
// next turn what was undone, the list comes back after a reload, and Keep all clears it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { makeKit, until } from "./sessionKit";

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join("");

describe("Changes list in the chat session", () => {
  it("lists auto-approved writes; Undo of a hunk, the model's note, a reload, Keep all", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "fathom-changes-host-"));
    writeFileSync(path.join(root, "a.txt"), lines("one", "two", "three", "four", "five", "six", "seven"));
    const kit = makeKit(
      [
        { toolCalls: [{ id: "r1", name: "read_file", arguments: { file_path: "/a.txt" } }] },
        {
          toolCalls: [
            {
              id: "w1",
              name: "write_file",
              arguments: { file_path: "/a.txt", content: lines("ONE", "two", "three", "four", "five", "six", "SEVEN") },
            },
            { id: "w2", name: "write_file", arguments: { file_path: "/b.txt", content: lines("bee") } },
          ],
        },
        { text: "Done." },
        { text: "Understood." },
      ],
      { root, checkpoints: true, settings: { "autoApprove.edit": true } },
    );
    await kit.session.send("Change the files");
    await kit.session.whenIdle();
    await until(() => (kit.session.state.changes?.files.length ?? 0) === 2);
    assert.deepEqual(
      kit.session.state.changes!.files.map((f) => [f.path, f.added, f.removed, f.hunks, f.created]),
      [
        ["/a.txt", 2, 2, 2, false],
        ["/b.txt", 1, 0, 1, true],
      ],
    );
    const changes = kit.session.changes!;
    const [first] = changes.lensesOf("/a.txt");
    assert.equal(first!.line, 0);
    await changes.undo({ path: "/a.txt", hunks: [first!.id] });
    assert.equal(
      readFileSync(path.join(root, "a.txt"), "utf8"),
      lines("one", "two", "three", "four", "five", "six", "SEVEN"),
    );
    assert.equal(kit.session.state.changes!.files[0]!.hunks, 1);

    // The next turn's request carries what was undone.
    await kit.session.send("Thanks");
    await kit.session.whenIdle();
    const last = kit.model.requests.at(-1)!.messages;
    const note = last.find((m) => m.role === "user" && String(m.content).includes("<changes-undone>"));
    assert.ok(note, "the model is told what was undone");
    assert.match(String(note.content), /\/a\.txt: 1 of 2 changes undone/);
    assert.match(String(note.content), /-ONE\n\+one/);

    // A reload: the list comes back from the checkpoint journal.
    const again = kit.reopen();
    await again.session.whenReady();
    await until(() => (again.session.state.changes?.files.length ?? 0) === 2);
    await again.session.changes!.keep();
    assert.equal(again.session.state.changes, null);
    assert.equal(readFileSync(path.join(root, "b.txt"), "utf8"), lines("bee"));
  });

  it("an edit the person approved on its card is reviewed: it is not listed", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "fathom-changes-card-"));
    writeFileSync(path.join(root, "a.txt"), lines("one", "two"));
    const kit = makeKit(
      [
        { toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/card.txt", content: lines("c") } }] },
        { text: "Done." },
      ],
      { root, checkpoints: true },
    );
    await kit.session.send("Write card.txt");
    await until(() => kit.gate.waiting.size > 0, 10_000);
    kit.session.approve(kit.session.state.items.flatMap((i) => (i.kind === "tool" ? [i.id] : []))[0]!);
    await kit.session.whenIdle();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(kit.session.state.changes, null, "reviewed on its card");
    assert.equal(readFileSync(path.join(root, "card.txt"), "utf8"), lines("c"));
  });
});
