/// <reference lib="dom" />
// Checkpoints in the chat view (issue 13): a message's Restore and Edit and resend, an applied
// edit's Restore, and the Restore panel: the files it changes, a conflict with Compare and
// Overwrite anyway, commands not restored, the three choices and the storage used.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { baseState, editTool, proposal, tool, user, assistant } from "./fixtures";
import { startHarness, type Harness } from "./harness";

describe("webview checkpoints", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("Restore on a message shows what will change; the person picks what to restore", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({ status: "completed", items: [user("u1", "Rename slugify"), assistant("a1", "Renamed.")] }),
    });
    const message = view.page.getByRole("article", { name: "You" });
    await view.clearPosted();
    await message.getByRole("button", { name: "Restore to before this message" }).click();
    assert.deepEqual(await view.waitForPosted("previewRestore"), { type: "previewRestore", itemId: "u1" });
    await view.send({
      type: "restorePreview",
      preview: {
        itemId: "u1",
        label: "before your message “Rename slugify”",
        files: [
          { path: "/src/slugify.js", action: "write" },
          { path: "/src/new.js", action: "delete" },
          { path: "/README.md", action: "write", conflict: "changed after Fathom's last change" },
        ],
        commands: ["npm install"],
        laterItems: 2,
        storageBytes: 3 * 1048576,
        storageLimitBytes: 300 * 1048576,
      },
    });
    const panel = view.page.getByRole("region", { name: "Restore to before your message “Rename slugify”" });
    await panel.waitFor();
    const files = panel.getByRole("list", { name: "Files" });
    await files
      .getByRole("listitem")
      .filter({ hasText: "/src/slugify.js" })
      .getByText("put back its earlier text")
      .waitFor();
    // Every file has its diff in the editor (what the restore makes it), not only the conflicts.
    await view.clearPosted();
    await files.getByRole("button", { name: "Show the diff of /src/new.js" }).click();
    assert.deepEqual(await view.waitForPosted("compareRestore"), { type: "compareRestore", path: "/src/new.js" });
    await files.getByText("deleted (Fathom created it)").waitFor();
    await files.getByText("changed after Fathom's last change: left as it is").waitFor();
    await panel.getByText("Not restored: what a command changed (npm install).").waitFor();
    await panel.getByText("Checkpoints use 3.0 MB of 300.0 MB (fathom.checkpoints.maxStorageMb).").waitFor();
    await view.clearPosted();
    await panel.getByRole("button", { name: "Show the diff of /README.md" }).click();
    assert.deepEqual(await view.waitForPosted("compareRestore"), { type: "compareRestore", path: "/README.md" });
    await panel.getByRole("checkbox", { name: "Overwrite anyway" }).check();
    await view.clearPosted();
    await panel.getByRole("button", { name: "Restore files only" }).click();
    assert.deepEqual(await view.waitForPosted("restore"), {
      type: "restore",
      itemId: "u1",
      what: "files",
      overwrite: ["/README.md"],
    });
    await view.send({ type: "restorePreview", preview: null });
    await panel.waitFor({ state: "detached" });
    await view.page.context().close();
  });

  it("Edit and resend asks the host, and the text comes back into the message box", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({
        status: "completed",
        items: [user("u1", "Rename slugify to toSlug"), assistant("a1", "Done.")],
      }),
    });
    await view.clearPosted();
    await view.page.getByRole("button", { name: "Edit this message" }).click();
    assert.deepEqual(await view.waitForPosted("editMessage"), { type: "editMessage", itemId: "u1" });
    await view.send({ type: "state", state: baseState({ status: "completed", items: [] }) });
    await view.send({ type: "composerText", text: "Rename slugify to toSlug" });
    const box = view.page.getByRole("textbox", { name: "Message" });
    await view.page.waitForFunction(
      () =>
        (document.getElementById("message-input") as HTMLTextAreaElement | null)?.value === "Rename slugify to toSlug",
    );
    assert.equal(await view.page.evaluate(() => document.activeElement?.id), "message-input");
    await box.press("End");
    await box.pressSequentially(" in all files");
    assert.equal(await box.inputValue(), "Rename slugify to toSlug in all files");
    await view.page.context().close();
  });

  it("an applied edit's card has Restore (a pending or rejected one has not); a subagent's card too", async () => {
    const view = await harness.open();
    const applied = editTool("e1", { status: "done", proposal: proposal({ outcome: "auto_applied" }) });
    const pending = editTool("e2", { proposal: proposal({ path: "/src/other.js" }) });
    const rejected = editTool("e3", {
      status: "rejected",
      proposal: proposal({ path: "/src/third.js", outcome: "rejected" }),
    });
    const nested = editTool("t1/sw1", {
      status: "done",
      proposal: proposal({ path: "/src/sub.js", outcome: "approved" }),
    });
    const task = tool("t1", { toolName: "task", title: "Subagent: write sub.js", status: "done", children: [nested] });
    await view.send({
      type: "state",
      state: baseState({ status: "completed", items: [user("u1", "Fix it"), applied, task] }),
    });
    const restoreApplied = view.page.getByRole("button", { name: "Restore to before this change to /src/slugify.js" });
    await restoreApplied.waitFor();
    await view.clearPosted();
    await restoreApplied.click();
    assert.deepEqual(await view.waitForPosted("previewRestore"), { type: "previewRestore", itemId: "e1" });
    const nestedRestore = view.page.getByRole("button", { name: "Restore to before this change to /src/sub.js" });
    await view.clearPosted();
    await nestedRestore.click();
    assert.deepEqual(await view.waitForPosted("previewRestore"), { type: "previewRestore", itemId: "t1/sw1" });
    // Nothing was written by a pending or rejected proposal: nothing to restore.
    await view.send({
      type: "state",
      state: baseState({ status: "awaiting_approval", items: [user("u1", "Fix it"), rejected, pending] }),
    });
    await view.page.getByRole("region", { name: "Proposed change to /src/other.js" }).waitFor();
    await view.page.getByRole("region", { name: "Proposed change to /src/third.js" }).waitFor();
    assert.equal(await view.page.getByRole("button", { name: /^Restore to before this change/ }).count(), 0);
    await view.page.context().close();
  });

  it("the task history shows the storage checkpoints use, and deletes a task", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({
        history: [{ id: "task-1", title: "Fix the slugify bug", status: "completed", updatedAt: Date.now() }],
        checkpointStorage: { usedBytes: 3 * 1048576, limitBytes: 300 * 1048576 },
      }),
    });
    await view.page.getByRole("button", { name: "Task history" }).click();
    const nav = view.page.getByRole("navigation", { name: "Task history" });
    await nav
      .getByText(
        "Storage used: checkpoints take 3.0 MB of 300.0 MB (fathom.checkpoints.maxStorageMb; the oldest tasks' go first). Deleting a task frees its checkpoints.",
      )
      .waitFor();
    await view.clearPosted();
    await nav.getByRole("button", { name: "Delete task Fix the slugify bug" }).click();
    assert.deepEqual(await view.waitForPosted("deleteTask"), { type: "deleteTask", taskId: "task-1" });
    // The host's answer: the list without it, and less storage.
    await view.send({ type: "history", history: [] });
    await view.send({ type: "checkpointStorage", storage: { usedBytes: 12 * 1024, limitBytes: 300 * 1048576 } });
    await nav.getByText(/checkpoints take 12 KB of 300\.0 MB/).waitFor();
    await nav.getByText("No earlier tasks yet.").waitFor();
    await view.page.context().close();
  });
});
