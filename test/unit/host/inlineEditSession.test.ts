// Edit Selection as a task of the window (without VS Code): started through the TaskManager like
// any message from outside the chat, it is a new task in History with the person's message and the
// range's chip, one edit card approved or rejected from the chat, a checkpoint before the write, and
// never a worktree. A reload while its diff waits resumes the same edit; a message typed afterwards
// runs the ordinary agent; in Restricted Mode it writes nothing and says why.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import type { Attachment, InlineEditRequest } from "../../../src/core";
import type { ToolItem } from "../../../src/protocol";
import { Log } from "../../../src/host/log";
import { TaskManager } from "../../../src/host/tasks/taskManager";
import { FakeModel } from "../../support/fakeModel";
import { makeKit, until, type Kit, type KitOptions } from "./sessionKit";

const FILE = "export function load(path) {\n  const text = readFile(path, 'utf8');\n  return JSON.parse(text);\n}\n";
const ANSWERED = FILE.replace("const text = readFile", "const text = await readFile");
const EDIT: InlineEditRequest = {
  path: "/load.js",
  startLine: 2,
  endLine: 3,
  instruction: "await the read",
  language: "javascript",
};
const CHIP: Attachment = { kind: "file", path: "/load.js", startLine: 2, endLine: 3 };
const ANSWER = { text: "```js\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n```" };

function kitWith(script: ConstructorParameters<typeof FakeModel>[0], o: KitOptions = {}): Kit {
  const root = o.root ?? mkdtempSync(path.join(tmpdir(), "fathom-inline-ws-"));
  mkdirSync(root, { recursive: true });
  if (!o.root) writeFileSync(path.join(root, "load.js"), FILE);
  return makeKit(script, { checkpoints: true, ...o, root });
}
const file = (kit: Kit) => readFileSync(path.join(kit.root, "load.js"), "utf8");
const card = (kit: Kit) => kit.session.state.items.find((i): i is ToolItem => i.kind === "tool")!;
const lastText = (kit: Kit) => {
  const last = kit.session.state.items.at(-1);
  return last?.kind === "assistant" ? last.text : undefined;
};

function manager(kit: Kit): TaskManager {
  return new TaskManager({
    first: kit.session,
    create: () => kit.session,
    show: () => undefined,
    worktreeByDefault: () => true,
    maxParallel: () => 3,
    log: new Log({
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    }),
  });
}

describe("Edit Selection as a task", () => {
  it("a new task: the message and its chip, the model asked with no tools, one edit card approved from the chat, written with a checkpoint, never in a worktree", async () => {
    const places: (boolean | undefined)[] = [];
    const kit = kitWith([ANSWER], { env: { placeTask: async (p) => (places.push(p.worktree), {}) } });
    const tasks = manager(kit);
    await tasks.startTask("Edit load.js:2-3: await the read", { attachments: [CHIP], where: "new", inlineEdit: EDIT });
    await until(() => kit.session.state.status === "awaiting_approval");
    assert.deepEqual(places, [false], "not in a worktree, whatever the person's default");
    assert.deepEqual(kit.model.requests[0]!.toolNames, [], "no tools for the model");
    assert.match(
      kit.model.requests[0]!.messages[0]!.content,
      /<selection lines="2-3">\n {2}const text = readFile\(path, 'utf8'\);\n {2}return JSON.parse\(text\);\n<\/selection>[\s\S]*Instruction: await the read/,
    );
    const user = kit.session.state.items[0]!;
    assert.ok(
      user.kind === "user" &&
        user.text === "Edit load.js:2-3: await the read" &&
        user.attachments?.[0]?.label === "load.js:2-3",
    );
    const edit = card(kit);
    assert.equal(edit.toolName, "edit_selection");
    assert.equal(edit.title, "Editing lines 2–3 of /load.js");
    assert.equal(edit.proposal?.outcome, "pending");
    assert.equal(edit.alwaysAllow, null, "no Always allow for a task of one edit");
    assert.equal(kit.gate.requests[0]!.proposal?.after, ANSWERED);

    kit.session.approve(edit.id);
    await kit.session.whenIdle();
    assert.equal(file(kit), ANSWERED);
    assert.equal(kit.session.state.status, "completed");
    assert.equal(card(kit).proposal?.outcome, "approved");
    assert.equal(lastText(kit), "Replaced lines 2–3 of /load.js.");
    assert.equal(kit.model.requests.length, 1);
    // History: a small task of its own, with its checkpoints (the message's and the write's).
    await kit.store.flush();
    assert.deepEqual(
      (await kit.store.list()).map((t) => t.title),
      ["Edit load.js:2-3: await the read"],
    );
    const checkpoints = await kit.checkpoints!.checkpoints(kit.session.state.taskId!);
    assert.deepEqual(
      checkpoints.map((c) => c.kind),
      ["message", "write"],
    );
    tasks.dispose();
  });

  it("reject from the chat writes nothing; a message typed afterwards is an ordinary task turn with tools", async () => {
    const kit = kitWith([ANSWER, { text: "It reads the file and parses it." }]);
    await kit.session.send("Edit load.js:2-3: await the read", undefined, { attachments: [CHIP], inlineEdit: EDIT });
    await until(() => kit.session.state.status === "awaiting_approval");
    kit.session.reject(card(kit).id, "not now");
    await kit.session.whenIdle();
    assert.equal(file(kit), FILE);
    assert.equal(card(kit).status, "rejected");
    assert.equal(lastText(kit), "Nothing was written: not now");
    await kit.session.send("What does load do?");
    await kit.session.whenIdle();
    assert.ok(kit.model.requests[1]!.toolNames.includes("read_file"), "the full agent");
    assert.equal(lastText(kit), "It reads the file and parses it.");
  });

  it("Cancel stops the model's stream; nothing is asked or written", async () => {
    const kit = kitWith([{ hang: true }]);
    await kit.session.send("Edit", undefined, { inlineEdit: EDIT });
    await until(() => card(kit) !== undefined);
    kit.session.cancel();
    await kit.session.whenIdle();
    assert.equal(kit.session.state.status, "cancelled");
    assert.equal(card(kit).status, "cancelled");
    assert.equal(kit.gate.requests.length, 0);
    assert.equal(file(kit), FILE);
  });

  it("a reload while the diff waits: Resume asks again about the same edit, without asking the model again", async () => {
    const kit = kitWith([ANSWER]);
    await kit.session.send("Edit load.js:2-3: await the read", undefined, { attachments: [CHIP], inlineEdit: EDIT });
    await until(() => kit.session.state.status === "awaiting_approval");
    // Saved a tick after the card (SaveSchedule.nextTick): that timer fires before this later one.
    await new Promise((r) => setTimeout(r, 20));
    await kit.store.flush();
    kit.session.dispose();
    const again = kit.reopen(new FakeModel([]));
    await again.session.whenReady();
    assert.equal(again.session.state.status, "interrupted");
    await again.session.retry();
    await until(() => again.session.state.status === "awaiting_approval");
    again.session.approve(card(again).id);
    await again.session.whenIdle();
    assert.equal(file(again), ANSWERED);
    assert.equal(lastText(again), "Replaced lines 2–3 of /load.js.");
    assert.equal(again.model.requests.length, 0);
  });

  it("Restricted Mode: nothing is written, and the chat says why", async () => {
    const kit = kitWith([ANSWER], { trusted: { value: false } });
    await kit.session.send("Edit", undefined, { inlineEdit: EDIT });
    await kit.session.whenIdle();
    assert.equal(file(kit), FILE);
    assert.match(lastText(kit) ?? "", /^Nothing was written: This workspace is in Restricted Mode/);
  });
});
