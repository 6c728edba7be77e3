/// <reference lib="dom" />
// Tasks at once and worktrees in the chat view (issue 20), against a fake host: the Tasks list
// (which needs the person, switch, close), the message box's Worktree choice (and why not, where
// it cannot be had), a worktree's changed files, Apply, Discard and Open, and the repository's
// other worktrees.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ParallelView, WorktreeView } from "../../src/protocol";
import { baseState, user } from "./fixtures";
import { startHarness, type Harness } from "./harness";

const worktree = (fields: Partial<WorktreeView> = {}): WorktreeView => ({
  taskId: "t1",
  title: "Fix the login bug",
  branch: "fathom/fix-the-login-bug",
  path: "/home/p/.local/share/fathom-worktrees/app-1234abcd/fix-the-login-bug",
  state: "done",
  files: [
    { path: "src/login.ts", status: "modified" },
    { path: "src/login.test.ts", status: "added" },
  ],
  exists: true,
  inHistory: true,
  ...fields,
});

const parallel = (fields: Partial<ParallelView> = {}): ParallelView => ({
  tasks: [],
  worktrees: [],
  worktreeMode: { available: true, byDefault: false },
  maxParallel: 3,
  remote: { hasRemote: false, fetching: false, fetchedAt: null, branches: [], problems: [] },
  ...fields,
});

describe("webview tasks and worktrees", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("lists the open tasks, says which needs the person, switches and closes", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({
        taskId: "t2",
        title: "Add dark mode",
        status: "running",
        items: [user("u1", "Add dark mode")],
        parallel: parallel({
          tasks: [
            {
              key: "k1",
              taskId: "t1",
              title: "Fix the login bug",
              status: "awaiting_approval",
              needsYou: true,
              shown: false,
              branch: "fathom/fix-the-login-bug",
            },
            { key: "k2", taskId: "t2", title: "Add dark mode", status: "running", needsYou: false, shown: true },
            { key: "k3", taskId: "t3", title: "Bump deps", status: "completed", needsYou: false, shown: false },
          ],
        }),
      }),
    });
    const tasks = view.page.getByRole("navigation", { name: "Tasks" });
    await tasks
      .getByRole("button", { name: "Fix the login bug Needs you, in worktree fathom/fix-the-login-bug" })
      .click();
    assert.deepEqual(await view.waitForPosted("switchTask"), { type: "switchTask", key: "k1" });
    assert.equal(
      await tasks.getByRole("button", { name: "Add dark mode Running" }).getAttribute("aria-current"),
      "true",
    );
    assert.equal(
      await tasks.getByRole("button", { name: "Close Fix the login bug" }).count(),
      0,
      "a task waiting for the person cannot be closed",
    );
    await tasks.getByRole("button", { name: "Close Bump deps" }).click();
    assert.deepEqual(await view.waitForPosted("closeTask"), { type: "closeTask", key: "k3" });
    await view.page.context().close();
  });

  it("a new task can run in a worktree; without git the box is greyed out and says why; a shared folder warns", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ taskId: null, title: "", parallel: parallel() }) });
    const box = view.page.getByRole("checkbox", { name: /Worktree/ });
    await box.check();
    await view.page.getByRole("textbox", { name: "Message" }).fill("Fix the login bug");
    await view.page.keyboard.press("Enter");
    assert.deepEqual(await view.waitForPosted("sendMessage"), {
      type: "sendMessage",
      text: "Fix the login bug",
      worktree: true,
    });
    const reason = "This folder is not in a git repository, so tasks cannot have their own worktree.";
    await view.send({
      type: "parallel",
      parallel: parallel({
        worktreeMode: { available: false, reason, byDefault: false },
        tasks: [
          { key: "k1", taskId: "t1", title: "Other", status: "running", needsYou: false, shown: false },
          { key: "k2", taskId: null, title: "New task", status: "idle", needsYou: false, shown: true },
        ],
      }),
    });
    await view.page
      .getByRole("note")
      .filter({ hasText: `Another task is running in this folder: their edits may collide with this one's. ${reason}` })
      .waitFor();
    assert.ok(await box.isDisabled());
    await view.page.getByRole("textbox", { name: "Message" }).fill("Second");
    await view.page.keyboard.press("Enter");
    assert.deepEqual((await view.posted()).filter((m) => m.type === "sendMessage").at(-1), {
      type: "sendMessage",
      text: "Second",
      worktree: false,
    });
    await view.page.context().close();
  });

  it("the shown task's worktree: changed files open their diffs; Apply, Discard, Open; other worktrees listed", async () => {
    const view = await harness.open();
    const other = worktree({
      taskId: "t9",
      title: "Killed task",
      branch: "fathom/killed-task",
      state: "interrupted",
      files: [],
    });
    await view.send({
      type: "state",
      state: baseState({
        taskId: "t1",
        title: "Fix the login bug",
        status: "completed",
        items: [user("u1", "Fix the login bug")],
        parallel: parallel({ worktrees: [worktree(), other] }),
      }),
    });
    const review = view.page.getByRole("region", { name: "Worktree fathom/fix-the-login-bug" });
    await review.getByRole("button", { name: "src/login.ts, modified: open its diff" }).click();
    assert.deepEqual(await view.waitForPosted("worktreeAction"), {
      type: "worktreeAction",
      taskId: "t1",
      action: "diff",
      path: "src/login.ts",
    });
    for (const [name, action] of [
      ["Apply fathom/fix-the-login-bug to your working tree", "apply"],
      ["Discard fathom/fix-the-login-bug", "discard"],
      ["Open fathom/fix-the-login-bug in a new window", "open"],
    ] as const) {
      await review.getByRole("button", { name }).click();
      assert.deepEqual((await view.posted()).at(-1), { type: "worktreeAction", taskId: "t1", action });
    }
    await view.page.getByText("Worktrees (1)").click();
    const listed = view.page.getByRole("listitem", { name: "Killed task: fathom/killed-task, interrupted" });
    await listed.getByRole("button", { name: "Open task Killed task" }).click();
    assert.deepEqual((await view.posted()).at(-1), { type: "worktreeAction", taskId: "t9", action: "openTask" });
    assert.equal(await listed.getByRole("button", { name: /^Apply/ }).count(), 0, "nothing changed: nothing to apply");
    // While it runs: no Apply or Discard.
    await view.send({
      type: "parallel",
      parallel: parallel({ worktrees: [worktree({ state: "running", files: null })] }),
    });
    await review.getByText(/Working in its own folder/).waitFor();
    assert.equal(await review.getByRole("button", { name: /^(Apply|Discard)/ }).count(), 0);
    await view.page.context().close();
  });

  it("the remote's fathom/* branches: fetched when the list is first opened, a file's diff, Apply, Check Out, Refresh; a remote that failed is said", async () => {
    const view = await harness.open();
    const remote = { hasRemote: true, fetching: false, fetchedAt: null, branches: [], problems: [] };
    await view.send({ type: "state", state: baseState({ taskId: null, title: "", parallel: parallel({ remote }) }) });
    assert.equal(await view.page.getByText("Not fetched yet.").isVisible(), false, "closed until the person opens it");
    await view.page.getByText("Worktrees", { exact: true }).click();
    assert.deepEqual(await view.waitForPosted("remoteBranchAction"), { type: "remoteBranchAction", action: "refresh" });
    await view.send({ type: "parallel", parallel: parallel({ remote: { ...remote, fetching: true } }) });
    await view.page.getByRole("status").filter({ hasText: "Fetching fathom/* branches…" }).waitFor();
    assert.ok(await view.page.getByRole("button", { name: "Fetch the remote's fathom branches again" }).isDisabled());
    const branch = {
      ref: "refs/remotes/origin/fathom/12-fix-a",
      remote: "origin",
      branch: "fathom/12-fix-a",
      subject: "Fix a (#12)",
      files: [{ path: "app.js", status: "modified" as const }],
    };
    await view.send({
      type: "parallel",
      parallel: parallel({
        remote: {
          ...remote,
          fetchedAt: Date.now(),
          branches: [branch],
          problems: ["backup: does not appear to be a git repository"],
        },
      }),
    });
    await view.page.getByText("Worktrees (1)").waitFor();
    await view.page.getByText("Could not fetch backup: does not appear to be a git repository").waitFor();
    const item = view.page.getByRole("listitem", { name: "origin/fathom/12-fix-a: 1 file changed" });
    await item.getByText("Fix a (#12)").waitFor();
    await item.getByRole("button", { name: "app.js, modified: open its diff" }).click();
    assert.deepEqual((await view.posted()).at(-1), {
      type: "remoteBranchAction",
      action: "diff",
      ref: branch.ref,
      path: "app.js",
    });
    await item.getByRole("button", { name: "Apply origin/fathom/12-fix-a to your working tree" }).click();
    assert.deepEqual((await view.posted()).at(-1), { type: "remoteBranchAction", action: "apply", ref: branch.ref });
    await item.getByRole("button", { name: "Check out origin/fathom/12-fix-a as a worktree" }).click();
    assert.deepEqual((await view.posted()).at(-1), { type: "remoteBranchAction", action: "checkout", ref: branch.ref });
    await view.page.getByRole("button", { name: "Fetch the remote's fathom branches again" }).click();
    assert.deepEqual((await view.posted()).at(-1), { type: "remoteBranchAction", action: "refresh" });
    // Closing and opening the list again does not fetch again by itself.
    const refreshes = (await view.posted()).filter(
      (m) => m.type === "remoteBranchAction" && m.action === "refresh",
    ).length;
    await view.page.getByText("Worktrees (1)").click();
    await view.page.getByText("Worktrees (1)").click();
    assert.equal(
      (await view.posted()).filter((m) => m.type === "remoteBranchAction" && m.action === "refresh").length,
      refreshes,
    );
    // No remote and no worktree: no list at all.
    await view.send({ type: "parallel", parallel: parallel() });
    await view.page.getByText(/^Worktrees/).waitFor({ state: "detached" });
    await view.page.context().close();
  });
});
