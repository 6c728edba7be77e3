// `fathom restore` and `fathom tasks` in-process (issue 13, items 4 and 5): without --yes at a
// terminal it shows what it will change and asks (no: nothing changes; yes: restored); with no
// terminal it refuses; `tasks` says which files were too large to keep and which tasks' checkpoints
// were pruned; `tasks --delete` frees a task's checkpoints; FATHOM_CHECKPOINTS_MAX_MB caps them.
import { describe, it, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { CheckpointingBackend } from "../../../src/core/checkpoints/checkpointingBackend";
import { CheckpointStore } from "../../../src/core/checkpoints/checkpointStore";
import { newRunState } from "../../../src/core/run/runState";
import { checkpointStoreFor, saveTask, workspaceDataDir } from "../../../src/cli/cliTasks";
import { restoreCommand, tasksCommand } from "../../../src/cli/restoreCommands";

before(() => {
  // This file runs in its own process: the CLI's data goes to a temp XDG folder.
  process.env.XDG_DATA_HOME = mkdtempSync(path.join(tmpdir(), "fathom-prompt-xdg-"));
});

/** A workspace with a saved task that changed a.txt and created b.txt. */
async function taskThatChanged(o: { env?: NodeJS.ProcessEnv; id?: string; files?: Record<string, string> } = {}) {
  const ws = mkdtempSync(path.join(tmpdir(), "fathom-prompt-ws-"));
  writeFileSync(path.join(ws, "a.txt"), "the person's a\n");
  const dataDir = workspaceDataDir(ws);
  const store = checkpointStoreFor(dataDir, o.env);
  const id = o.id ?? "20261125-000000-aaaaaa";
  await store.checkpoint(id, { kind: "message", label: "change a, add b", conversationLength: 0 });
  const inner = new FilesystemBackend({ rootDir: ws, ripgrepPath: null });
  const agent = new CheckpointingBackend(inner, store, id, { conversationLength: 0 });
  for (const [p, text] of Object.entries(o.files ?? { "/a.txt": "the agent's a\n", "/b.txt": "created\n" })) {
    const now = await inner.currentText(p);
    if (!("error" in now) && now.text !== null) await inner.read(p);
    assert.equal((await agent.write(p, text)).error, undefined);
  }
  const state = {
    ...newRunState(),
    messages: [
      { role: "user" as const, content: "change a, add b" },
      { role: "assistant" as const, content: "Done." },
    ],
  };
  saveTask(dataDir, {
    version: 1,
    id,
    title: "change a, add b",
    createdAt: Date.now(),
    updatedAt: Date.now(),
    reason: "completed",
    state,
  });
  return { ws, id, store };
}

/** Streams standing in for a terminal: `answer` is typed once the question shows. */
function terminal(answer: string | null) {
  const input = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (answer !== null) input.isTTY = true;
  let out = "";
  let err = "";
  const outStream = new PassThrough();
  const errStream = new PassThrough();
  outStream.on("data", (d: Buffer) => (out += d.toString()));
  errStream.on("data", (d: Buffer) => {
    err += d.toString();
    if (answer !== null && err.includes("Restore? [y/N]")) {
      input.write(`${answer}\r`);
      answer = null;
    }
  });
  return { io: { out: outStream, err: errStream, input }, text: () => ({ out, err }) };
}

describe("fathom restore asks; fathom tasks shows bounds", () => {
  it("without --yes at a terminal it shows the plan and asks: no changes nothing, yes restores", async () => {
    const { ws, id } = await taskThatChanged();
    const no = terminal("n");
    assert.equal(await restoreCommand([id, "--cwd", ws], ws, no.io), 0);
    assert.match(
      no.text().err,
      /Restore task .* to checkpoint 0 \(before the task\):\n {2}\/a\.txt: restore\n {2}\/b\.txt: delete \(Fathom created it\)\n {2}conversation: back to 0 of 2 messages\n/,
    );
    assert.match(no.text().err, /Nothing was changed\./);
    assert.equal(readFileSync(path.join(ws, "a.txt"), "utf8"), "the agent's a\n");
    assert.equal(readFileSync(path.join(ws, "b.txt"), "utf8"), "created\n");

    const yes = terminal("y");
    assert.equal(await restoreCommand([id, "--to", "0", "--files", "--cwd", ws], ws, yes.io), 0);
    assert.match(yes.text().out, /restored \/a\.txt\nrestored \/b\.txt\n/);
    assert.equal(readFileSync(path.join(ws, "a.txt"), "utf8"), "the person's a\n");
    assert.throws(() => readFileSync(path.join(ws, "b.txt")), /ENOENT/);
  });

  it("with no terminal and no --yes it refuses and changes nothing", async () => {
    const { ws, id } = await taskThatChanged();
    const piped = terminal(null);
    assert.equal(await restoreCommand([id, "--cwd", ws], ws, piped.io), 1);
    assert.match(piped.text().err, /nothing was changed: no one is at a terminal to confirm\. Pass --yes/);
    assert.equal(readFileSync(path.join(ws, "a.txt"), "utf8"), "the agent's a\n");
  });

  it("tasks lists a file too large to keep; --delete frees the task's checkpoints; a pruned task says so", async () => {
    // The limit is the backend's (10 MB, past which files are not edited either); a smaller one here.
    const big = "x".repeat(11 * 1024);
    const ws = mkdtempSync(path.join(tmpdir(), "fathom-prompt-ws-"));
    writeFileSync(path.join(ws, "big.txt"), big);
    const dataDir = workspaceDataDir(ws);
    const store = new CheckpointStore({ dir: path.join(dataDir, "checkpoints"), maxBlobBytes: 10 * 1024 });
    await store.checkpoint("big-task", { kind: "message", label: "shrink big.txt", conversationLength: 0 });
    const inner = new FilesystemBackend({ rootDir: ws, ripgrepPath: null });
    await inner.read("/big.txt");
    const w = await new CheckpointingBackend(inner, store, "big-task", { conversationLength: 0 }).write(
      "/big.txt",
      "small now\n",
    );
    assert.equal(w.error, undefined, w.error);
    saveTask(dataDir, {
      version: 1,
      id: "big-task",
      title: "shrink big.txt",
      createdAt: 1,
      updatedAt: 1,
      reason: "completed",
      state: newRunState(),
    });
    const listed = terminal(null);
    await tasksCommand(["--cwd", ws], ws, listed.io);
    assert.match(
      listed.text().out,
      /1 {2}your message "shrink big.txt"\n {6}not kept \(over the size checkpoints keep\), cannot be restored to here: \/big\.txt\n {3}2 {2}before: Changed \/big\.txt \(its earlier text, 11 KB, was over the size checkpoints keep: it cannot be restored\)\nStorage used/,
    );
    const json = terminal(null);
    await tasksCommand(["--cwd", ws, "--json"], ws, json.io);
    assert.deepEqual(
      (JSON.parse(json.text().out) as { tasks: { checkpoints: { notKept: string[] }[] }[] }).tasks[0]!.checkpoints[0]!
        .notKept,
      ["/big.txt"],
    );

    // A second task; the first one's checkpoints go (as a prune would): the list says so.
    const {
      ws: ws2,
      id,
      store: store2,
    } = await taskThatChanged({
      id: "second",
      files: { "/a.txt": "the agent's a\n", "/big-agent.txt": "y".repeat(200_000) },
    });
    saveTask(workspaceDataDir(ws2), {
      version: 1,
      id: "pruned",
      title: "old one",
      createdAt: 0,
      updatedAt: 0,
      reason: "completed",
      state: newRunState(),
    });
    const used = await store2.usage();
    const deleted = terminal(null);
    assert.equal(await tasksCommand(["--delete", id, "--cwd", ws2], ws2, deleted.io), 0);
    assert.match(
      deleted.text().out,
      /^Deleted task second and its checkpoints \((19[0-9]|20[0-9]) KB freed\)\. Your files were not touched\.\n$/,
    );
    assert.ok((await store2.usage()) < used - 190_000);
    assert.equal(readFileSync(path.join(ws2, "a.txt"), "utf8"), "the agent's a\n", "files are not touched");
    const after = terminal(null);
    await tasksCommand(["--cwd", ws2], ws2, after.io);
    assert.doesNotMatch(after.text().out, /second/);
    assert.match(
      after.text().out,
      /pruned .*"old one"\n {6}no checkpoints \(pruned to stay under the storage cap\): its files cannot be restored\n/,
    );
    await assert.rejects(
      tasksCommand(["--delete", "nope", "--cwd", ws2], ws2, terminal(null).io),
      /No task nope in this workspace/,
    );
  });

  it("FATHOM_CHECKPOINTS_MAX_MB sets the cap the prune keeps to", async () => {
    const env = { ...process.env, FATHOM_CHECKPOINTS_MAX_MB: "0.1" };
    const { ws, store } = await taskThatChanged({ env, id: "old", files: { "/old.txt": "o".repeat(80_000) } });
    const dataDir = workspaceDataDir(ws);
    assert.equal(store.maxStorageBytes, Math.round(0.1 * 1048576));
    const newer = checkpointStoreFor(dataDir, env);
    await newer.checkpoint("new", { kind: "message", label: "new", conversationLength: 0 });
    const inner = new FilesystemBackend({ rootDir: ws, ripgrepPath: null });
    assert.equal(
      (
        await new CheckpointingBackend(inner, newer, "new", { conversationLength: 0 }).write(
          "/new.txt",
          "n".repeat(80_000),
        )
      ).error,
      undefined,
    );
    assert.deepEqual(await newer.prune("new"), ["old"]);
    assert.deepEqual(
      (await newer.tasks()).map((t) => t.taskId),
      ["new"],
    );
    assert.equal(checkpointStoreFor(dataDir, {}).maxStorageBytes, 300 * 1048576, "the default");
  });
});
