// Restore in the chat session (issue 13, item 3), with real checkpoints under the session's
// storage: Restore on an applied edit (top-level and a subagent's), the panel's per-file diffs,
// what the transcript says afterwards (restored, left as they are, commands), the conversation
// the model continues from, Edit and resend, a multi-root workspace, and deleting a task from the
// history (its checkpoints freed, the storage figure updated).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import type { RestorePreview, ToolItem, TranscriptItem } from "../../../src/protocol";
import type { Middleware } from "../../../src/core";
import { makeKit, until, type Kit } from "./sessionKit";

const EDITS = { "autoApprove.edit": true };
const toolItems = (items: readonly TranscriptItem[]): ToolItem[] =>
  items.flatMap((i) => (i.kind === "tool" ? [i, ...toolItems(i.children ?? [])] : []));
const notices = (kit: Kit) => kit.session.state.items.flatMap((i) => (i.kind === "notice" ? [i.text] : []));
const lastPreview = (kit: Kit): RestorePreview | null => {
  const m = kit.messages.filter((x) => x.type === "restorePreview").at(-1);
  return m?.type === "restorePreview" ? m.preview : null;
};

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "fathom-restore-host-"));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    writeFileSync(path.join(root, p), text);
  }
  return root;
}

describe("Restore in the chat session", () => {
  it("Restore on an applied edit: the panel lists each file with its diff; both restores files and conversation and the transcript says what was and was not", async () => {
    const root = workspace({ "a.txt": "one\n", "b.txt": "bee\n" });
    const kit = makeKit(
      [
        {
          toolCalls: [
            { id: "r1", name: "read_file", arguments: { file_path: "/a.txt" } },
            { id: "r2", name: "read_file", arguments: { file_path: "/b.txt" } },
          ],
        },
        {
          toolCalls: [
            { id: "e1", name: "edit_file", arguments: { file_path: "/a.txt", old_string: "one", new_string: "ONE" } },
          ],
        },
        { toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/c.txt", content: "new\n" } }] },
        {
          toolCalls: [
            { id: "e2", name: "edit_file", arguments: { file_path: "/b.txt", old_string: "bee", new_string: "BEE" } },
          ],
        },
        { toolCalls: [{ id: "x1", name: "execute", arguments: { command: "echo made > by-command.txt" } }] },
        { text: "Done." },
        { text: "Second try." },
      ],
      { root, checkpoints: true, settings: EDITS },
    );
    await kit.session.send("Change the files");
    await until(() => kit.gate.waiting.has("x1") || kit.session.state.status === "completed", 10_000);
    if (kit.gate.waiting.has("x1")) kit.session.approve("x1");
    await kit.session.whenIdle();
    assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), "ONE\n");
    // The person changes b.txt after Fathom did.
    writeFileSync(path.join(root, "b.txt"), "the person's bee\n");

    const e1 = toolItems(kit.session.state.items).find((t) => t.toolName === "edit_file" && t.args.includes("/a.txt"))!;
    assert.equal(e1.proposal?.outcome, "auto_applied", "an applied edit, whose card offers Restore");
    await kit.session.restoring!.preview(e1.id);
    const preview = lastPreview(kit)!;
    assert.equal(preview.label, "before Fathom changed /a.txt");
    assert.deepEqual(preview.files, [
      { path: "/a.txt", action: "write" },
      { path: "/c.txt", action: "delete" },
      { path: "/b.txt", action: "write", conflict: "changed after Fathom's last change" },
    ]);
    assert.deepEqual(preview.commands, ["echo made > by-command.txt"]);
    assert.ok(preview.storageBytes > 0 && preview.storageLimitBytes === 300 * 1048576);
    // Each file's diff: as it is now, beside what the restore makes it.
    for (const p of ["/a.txt", "/c.txt", "/b.txt"]) await kit.session.restoring!.compare(p);
    assert.deepEqual(kit.diffs, [
      { path: "/a.txt", now: "ONE\n", restored: "one\n" },
      { path: "/c.txt", now: "new\n", restored: null },
      { path: "/b.txt", now: "the person's bee\n", restored: "bee\n" },
    ]);

    await kit.session.restoring!.restore(e1.id, "both", []);
    assert.equal(lastPreview(kit), null, "the panel closes");
    assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), "one\n");
    assert.ok(!existsSync(path.join(root, "c.txt")));
    assert.equal(readFileSync(path.join(root, "b.txt"), "utf8"), "the person's bee\n", "the conflict is left as it is");
    assert.ok(existsSync(path.join(root, "by-command.txt")), "a command's file is not Fathom's to delete");
    // The transcript: the user message and the reads, then what the restore did.
    const items = kit.session.state.items;
    assert.deepEqual(
      items.map((i) => i.kind),
      ["user", "tool", "tool", "notice"],
    );
    const said = notices(kit).at(-1)!;
    assert.equal(
      said,
      "Files restored to before Fathom changed /a.txt: put back /a.txt; deleted /c.txt (Fathom created it). " +
        "Left as they are (changed after Fathom's last change): /b.txt. " +
        "Not restored: what a command changed (echo made > by-command.txt). " +
        "The conversation is back to before Fathom changed /a.txt.",
    );
    const last = items.at(-1)!;
    assert.equal(last.kind === "notice" ? last.level : undefined, "warning", "something was left: a warning");
    // The model continues from before the edit's turn.
    await kit.session.send("Try again, only a.txt");
    await kit.session.whenIdle();
    const sent = JSON.stringify(kit.model.requests.at(-1)!.messages);
    assert.match(sent, /Change the files[\s\S]*read_file[\s\S]*Try again, only a.txt/);
    assert.doesNotMatch(sent, /edit_file|write_file|echo made/);
  });

  it("Restore clicked as a task finishes (its answer shown, the editor's last check still running) waits for its end; while it works, it is refused, saying so", async () => {
    const root = workspace({ "a.txt": "one\n" });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let finishing = false;
    const lateCheck: Middleware = {
      name: "late-check",
      async beforeFinish() {
        finishing = true;
        await held;
        return undefined;
      },
    };
    const script = [
      {
        toolCalls: [
          { id: "e1", name: "edit_file", arguments: { file_path: "/a.txt", old_string: "one", new_string: "ONE" } },
        ],
      },
      { text: "Done." },
    ];
    const kit = makeKit(script, { root, checkpoints: true, settings: EDITS, middleware: [lateCheck] });
    await kit.session.send("Change a");
    await until(() => finishing, 10_000);
    assert.equal(kit.session.isRunning, true);
    const e1 = toolItems(kit.session.state.items).find((t) => t.toolName === "edit_file")!;
    const previewing = kit.session.restoring!.preview(e1.id);
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(lastPreview(kit), null, "nothing is shown while the run is still on");
    release();
    await previewing;
    assert.equal(lastPreview(kit)?.label, "before Fathom changed /a.txt");
    assert.deepEqual(
      notices(kit).filter((n) => /task is running/.test(n)),
      [],
    );

    const working = makeKit([{ hang: true, text: "Thinking" }], { checkpoints: true });
    await working.session.send("Think");
    await until(() => working.session.state.items.some((i) => i.kind === "assistant"), 10_000);
    const started = Date.now();
    await working.session.restoring!.preview(working.session.state.items[0]!.id);
    assert.ok(Date.now() - started < 1_000, "a task at work is refused at once");
    assert.match(
      notices(working).at(-1) ?? "",
      /The task is running\. Cancel it \(or wait for it to finish\) before restoring\./,
    );
    working.session.cancel();
    await working.session.whenIdle();
  });

  it("restoring the conversation only says the files keep Fathom's changes", async () => {
    const root = workspace({});
    const kit = makeKit(
      [
        { toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/n.txt", content: "n\n" } }] },
        { text: "Made it." },
      ],
      { root, checkpoints: true, settings: EDITS },
    );
    await kit.session.send("Make n.txt");
    await kit.session.whenIdle();
    const message = kit.session.state.items[0]!;
    await kit.session.restoring!.preview(message.id);
    assert.equal(lastPreview(kit)!.label, "before your message “Make n.txt”");
    await kit.session.restoring!.restore(message.id, "conversation", []);
    assert.ok(existsSync(path.join(root, "n.txt")));
    assert.deepEqual(
      kit.session.state.items.map((i) => i.kind),
      ["notice"],
    );
    assert.equal(
      notices(kit)[0],
      "The conversation is back to before your message “Make n.txt”. Files not restored (you chose the conversation only): /n.txt keeps Fathom's changes.",
    );
  });

  it("Restore on a subagent's edit card takes back that write", async () => {
    const root = workspace({});
    const kit = makeKit(
      [
        {
          toolCalls: [
            { id: "t1", name: "task", arguments: { description: "write s.txt", subagent_type: "general-purpose" } },
          ],
        },
        {
          toolCalls: [
            { id: "sw1", name: "write_file", arguments: { file_path: "/s.txt", content: "by the subagent\n" } },
          ],
        },
        { text: "wrote it" },
        { text: "The subagent wrote s.txt." },
      ],
      { root, checkpoints: true, settings: EDITS },
    );
    await kit.session.send("Delegate");
    await kit.session.whenIdle();
    assert.ok(existsSync(path.join(root, "s.txt")));
    const nested = toolItems(kit.session.state.items).find((t) => t.toolName === "write_file")!;
    assert.match(nested.id, /^t1\/sw1$/);
    await kit.session.restoring!.preview(nested.id);
    assert.equal(lastPreview(kit)!.label, "before Fathom created /s.txt");
    await kit.session.restoring!.restore(nested.id, "files", []);
    assert.ok(!existsSync(path.join(root, "s.txt")));
    assert.match(
      notices(kit).at(-1)!,
      /^Files restored to before Fathom created \/s\.txt: deleted \/s\.txt \(Fathom created it\)\.$/,
    );
  });

  it("Edit and resend: the conversation goes back to before the message, whose text returns to the message box", async () => {
    const kit = makeKit([{ text: "First answer." }, { text: "Second answer." }, { text: "Third answer." }], {
      checkpoints: true,
    });
    await kit.session.send("first question");
    await kit.session.whenIdle();
    await kit.session.send("second question");
    await kit.session.whenIdle();
    const second = kit.session.state.items.filter((i) => i.kind === "user")[1]!;
    await kit.session.restoring!.editMessage(second.id);
    assert.deepEqual(
      kit.session.state.items.map((i) => (i.kind === "user" || i.kind === "assistant" ? i.text : i.kind)),
      ["first question", "First answer."],
    );
    assert.deepEqual(kit.messages.filter((m) => m.type === "composerText").at(-1), {
      type: "composerText",
      text: "second question",
    });
    await kit.session.send("second question, rephrased");
    await kit.session.whenIdle();
    const sent = JSON.stringify(kit.model.requests.at(-1)!.messages);
    assert.match(sent, /first question[\s\S]*First answer\.[\s\S]*second question, rephrased/);
    assert.doesNotMatch(sent, /Second answer/);
  });

  it("a multi-root workspace: a message's Restore puts back files in both folders", async () => {
    const front = workspace({ "src/index.ts": "front\n" });
    const back = workspace({ "src/index.ts": "back\n" });
    const kit = makeKit(
      [
        {
          toolCalls: [
            { id: "r1", name: "read_file", arguments: { file_path: "/front/src/index.ts" } },
            { id: "r2", name: "read_file", arguments: { file_path: "/back/src/index.ts" } },
          ],
        },
        {
          toolCalls: [
            {
              id: "e1",
              name: "edit_file",
              arguments: { file_path: "/front/src/index.ts", old_string: "front", new_string: "FRONT" },
            },
          ],
        },
        {
          toolCalls: [
            {
              id: "e2",
              name: "edit_file",
              arguments: { file_path: "/back/src/index.ts", old_string: "back", new_string: "BACK" },
            },
          ],
        },
        {
          toolCalls: [
            { id: "w1", name: "write_file", arguments: { file_path: "/back/src/added.ts", content: "export {};\n" } },
          ],
        },
        { text: "Both changed." },
      ],
      { root: front, folders: { front, back }, checkpoints: true, settings: EDITS },
    );
    await kit.session.send("Uppercase both");
    await kit.session.whenIdle();
    assert.equal(readFileSync(path.join(back, "src/index.ts"), "utf8"), "BACK\n");
    const message = kit.session.state.items[0]!;
    await kit.session.restoring!.preview(message.id);
    assert.deepEqual(
      lastPreview(kit)!.files.map((f) => `${f.action} ${f.path}`),
      ["write /front/src/index.ts", "write /back/src/index.ts", "delete /back/src/added.ts"],
    );
    await kit.session.restoring!.restore(message.id, "files", []);
    assert.equal(readFileSync(path.join(front, "src/index.ts"), "utf8"), "front\n");
    assert.equal(readFileSync(path.join(back, "src/index.ts"), "utf8"), "back\n");
    assert.deepEqual(readdirSync(path.join(back, "src")), ["index.ts"]);
  });

  it("deleting a task from the history frees its checkpoints; the storage figure drops; a task without checkpoints says so", async () => {
    const root = workspace({});
    const kit = makeKit(
      [
        {
          toolCalls: [
            { id: "w1", name: "write_file", arguments: { file_path: "/big.txt", content: "x".repeat(300_000) } },
          ],
        },
        { text: "Wrote it." },
        { toolCalls: [{ id: "w2", name: "write_file", arguments: { file_path: "/small.txt", content: "s\n" } }] },
        { text: "Wrote that." },
      ],
      { root, checkpoints: true, settings: EDITS },
    );
    await kit.session.send("Write big.txt");
    await kit.session.whenIdle();
    const first = kit.session.state.taskId!;
    await kit.session.newTask();
    await kit.session.send("Write small.txt");
    await kit.session.whenIdle();
    const storage = () => {
      const m = kit.messages.filter((x) => x.type === "checkpointStorage").at(-1);
      return m?.type === "checkpointStorage" ? m.storage : undefined;
    };
    await until(() => (storage()?.usedBytes ?? 0) > 300_000);
    const used = storage()!.usedBytes;
    assert.equal(storage()!.limitBytes, 300 * 1048576);
    assert.deepEqual(
      (await kit.checkpoints!.tasks()).map((t) => t.taskId).sort(),
      [first, kit.session.state.taskId].sort(),
    );

    await kit.session.deleteTask(first);
    await until(() => (storage()?.usedBytes ?? Infinity) < used - 290_000);
    assert.deepEqual(
      (await kit.checkpoints!.tasks()).map((t) => t.taskId),
      [kit.session.state.taskId],
    );
    assert.ok(!kit.session.state.history.some((t) => t.id === first));
    assert.ok(existsSync(path.join(root, "big.txt")), "the person's files are not touched");
    assert.equal(kit.session.state.checkpointStorage?.usedBytes, storage()!.usedBytes);

    // The open task's checkpoints gone (as a prune past the cap does): Restore says why it cannot.
    await kit.checkpoints!.deleteTask(kit.session.state.taskId!);
    await kit.session.restoring!.preview(kit.session.state.items[0]!.id);
    assert.match(
      notices(kit).at(-1)!,
      /^This task's checkpoints are gone: deleted to stay under fathom\.checkpoints\.maxStorageMb/,
    );
    assert.ok(existsSync(path.join(root, "small.txt")));
  });
});
