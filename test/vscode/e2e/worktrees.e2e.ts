// Tasks at once, each in its own git worktree, in the real VS Code (code-server + Chromium):
// two tasks run together and each asks for one approval (the list says which needs you); the
// person's working tree is untouched until Apply; Apply from the view brings the first task's
// file in; Apply of the second is refused, naming the file, changing nothing; Discard (asked
// first) removes the second worktree and its branch; another process on the repository sees
// the same worktrees, and the view lists the ones it makes.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Frame } from "playwright-core";
import { openChat, send, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import type { RecordedRequest, StaticTurn } from "../../support/scriptedModelServer.js";
import { TaskWorktrees } from "../../../src/core/worktrees/taskWorktrees.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Person", "-c", "user.email=person@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });

/** Each task answers from its own script, chosen by its prompt, step by step. */
function byTask(scripts: Record<string, StaticTurn[]>): (request: RecordedRequest) => StaticTurn {
  return (request) => {
    const messages = request.body.messages as { role: string; content: unknown }[];
    const prompt = JSON.stringify(messages.find((m) => m.role === "user")?.content ?? "");
    const key = Object.keys(scripts).find((k) => prompt.includes(k))!;
    return scripts[key]![messages.filter((m) => m.role === "assistant").length] ?? { text: "Done." };
  };
}

/** The sample workspace as a repository with one commit. */
function commitAll(dir: string): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "sample");
}

/**
 * The workspace's repository with a bare `origin` beside it, and a `fathom/*` branch pushed
 * there from another clone, as the GitHub Action pushes one.
 */
function withRemoteBranch(dir: string): void {
  commitAll(dir);
  const root = path.dirname(dir);
  const origin = path.join(root, "origin.git");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  git(dir, "remote", "add", "origin", origin);
  git(dir, "push", "-q", "origin", "main");
  const other = path.join(root, "elsewhere");
  git(root, "clone", "-q", origin, other);
  git(other, "checkout", "-q", "-b", "fathom/12-add-notes");
  fs.writeFileSync(path.join(other, "NOTES.md"), "from the action\n");
  git(other, "add", "-A");
  git(other, "commit", "-q", "-m", "Add notes (#12)");
  git(other, "push", "-q", "origin", "fathom/12-add-notes");
}

async function startInWorktree(chat: Frame, prompt: string): Promise<void> {
  const box = chat.getByRole("checkbox", { name: /Worktree/ });
  await box.waitFor({ state: "visible", timeout: 30_000 });
  if (!(await box.isChecked())) await box.check();
  await send(chat, prompt);
}

export const tests: E2ETest[] = [
  {
    name: "Worktrees: two tasks at once, one approval each, Apply from the view, a refused Apply, Discard",
    timeoutMs: 300_000,
    prepare: commitAll,
    async run(ctx) {
      const { page } = ctx;
      const dir = ctx.session.workspaceDir;
      const before = git(dir, "status", "--porcelain");
      await withModel(ctx, async (server) => {
        const write = (id: string, text: string): StaticTurn[] => [
          { toolCalls: [{ id, name: "write_file", arguments: { file_path: "/NOTES.md", content: `${text}\n` } }] },
          { text: `Wrote ${text}.` },
        ];
        for (let i = 0; i < 8; i++)
          server.push(byTask({ "Task one": write("w1", "one"), "Task two": write("w2", "two") }));
        const chat = await openChat(page);
        await startInWorktree(chat, "Task one: notes");
        const tasks = chat.getByRole("navigation", { name: "Tasks" });
        await chat.getByRole("button", { name: "Approve" }).first().waitFor({ state: "visible", timeout: 60_000 });

        // A second task while the first waits for its approval.
        await chat.getByRole("button", { name: "New task", exact: true }).click();
        await tasks
          .getByRole("button", { name: /^Task one: notes Needs you, in worktree fathom\/task-one-notes$/ })
          .waitFor({ state: "visible", timeout: 30_000 });
        await startInWorktree(chat, "Task two: notes");
        await tasks
          .getByRole("button", { name: /^Task two: notes Needs you/ })
          .waitFor({ state: "visible", timeout: 60_000 });
        await ctx.screenshot("e2e-worktrees-1-two-tasks-waiting");
        assert.equal(git(dir, "status", "--porcelain"), before, "nothing in the person's tree yet");

        // One approval each: the shown task (two), then task one from the list.
        await chat.getByRole("button", { name: "Approve" }).first().click();
        await chat.getByText("Wrote two.").waitFor({ state: "visible", timeout: 60_000 });
        await tasks.getByRole("button", { name: /^Task one: notes Needs you/ }).click();
        await chat.getByRole("button", { name: "Approve" }).first().click();
        await chat.getByText("Wrote one.").waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(fs.existsSync(path.join(dir, "NOTES.md")), false, "the tasks wrote in their worktrees");
        assert.equal(git(dir, "status", "--porcelain"), before);

        // Review and Apply task one from the view.
        const review = chat.getByRole("region", { name: "Worktree fathom/task-one-notes" });
        await review
          .getByRole("button", { name: "NOTES.md, added: open its diff" })
          .waitFor({ state: "visible", timeout: 30_000 });
        await review.getByRole("button", { name: "NOTES.md, added: open its diff" }).click();
        await page
          .locator(".tabs-container .tab")
          .filter({ hasText: "NOTES.md (start ↔ fathom/task-one-notes)" })
          .waitFor({ state: "visible", timeout: 30_000 });
        await review.getByRole("button", { name: "Apply fathom/task-one-notes to your working tree" }).click();
        await until("NOTES.md applied", () => fs.existsSync(path.join(dir, "NOTES.md")), 30_000);
        assert.equal(fs.readFileSync(path.join(dir, "NOTES.md"), "utf8"), "one\n");
        await chat.getByText(/Applied 1 file to your working tree/).waitFor({ state: "visible", timeout: 30_000 });
        await ctx.screenshot("e2e-worktrees-2-applied");

        // Task two's Apply is refused: NOTES.md is now the person's, so nothing changes.
        await tasks.getByRole("button", { name: /^Task two: notes Done/ }).click();
        const second = chat.getByRole("region", { name: "Worktree fathom/task-two-notes" });
        await second.getByRole("button", { name: "Apply fathom/task-two-notes to your working tree" }).click();
        await chat
          .getByText(/Not applied, nothing was changed: this file has changes of yours .*NOTES\.md/)
          .first()
          .waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(fs.readFileSync(path.join(dir, "NOTES.md"), "utf8"), "one\n");

        // Discard, confirmed in VS Code's dialog: the worktree and its branch go.
        const block = git(dir, "worktree", "list", "--porcelain")
          .split("\n\n")
          .find((b) => b.includes("branch refs/heads/fathom/task-two-notes"));
        const worktreePath = block?.match(/^worktree (.+)$/m)?.[1];
        assert.ok(worktreePath && fs.existsSync(worktreePath), "the worktree exists before Discard");
        await second.getByRole("button", { name: "Discard fathom/task-two-notes" }).click();
        await page.locator(".monaco-dialog-box").getByRole("button", { name: "Discard" }).click();
        // The folder goes first, then the branch.
        await until(
          "the worktree and its branch removed",
          () => !fs.existsSync(worktreePath) && git(dir, "branch", "--list", "fathom/task-two-notes") === "",
          30_000,
        );
        await chat.getByText("Its worktree and branch were discarded.").waitFor({ state: "visible", timeout: 30_000 });
        await second.waitFor({ state: "detached", timeout: 30_000 });
        await ctx.screenshot("e2e-worktrees-3-discarded");

        // Another process on the same repository (the CLI, another window) sees the same list, and the view sees its worktrees.
        const elsewhere = new TaskWorktrees({
          repoDir: dir,
          worktreesDir: path.join(ctx.session.root, "cli-worktrees"),
          surface: "cli",
        });
        assert.deepEqual(
          (await elsewhere.list()).map((w) => [w.branch, w.state, w.surface]),
          [["fathom/task-one-notes", "applied", "vscode"]],
        );
        await elsewhere.create("cli-task", "Made by the CLI");
        await elsewhere.setStatus("cli-task", "done");
        await chat.getByText("Worktrees (1)").click();
        await chat
          .getByRole("listitem", { name: "Made by the CLI: fathom/made-by-the-cli, done" })
          .waitFor({ state: "visible", timeout: 30_000 });
      });
    },
  },
  {
    name: "Worktrees: a fathom/* branch pushed to the remote shows under Worktrees once the list is opened; its diff, then Apply",
    timeoutMs: 180_000,
    prepare: withRemoteBranch,
    async run(ctx) {
      const { page } = ctx;
      const dir = ctx.session.workspaceDir;
      const chat = await openChat(page);
      await chat.getByText("Worktrees", { exact: true }).click({ timeout: 60_000 });
      const item = chat.getByRole("listitem", { name: "origin/fathom/12-add-notes: 1 file changed" });
      await item.waitFor({ state: "visible", timeout: 60_000 });
      await item.getByText("Add notes (#12)").waitFor({ state: "visible" });
      assert.equal(git(dir, "branch", "--list").trim(), "* main", "fetched into remote-tracking refs only");
      await item.getByRole("button", { name: "NOTES.md, added: open its diff" }).click();
      await page
        .locator(".tabs-container .tab")
        .filter({ hasText: "NOTES.md (start ↔ origin/fathom/12-add-notes)" })
        .waitFor({ state: "visible", timeout: 30_000 });
      await page
        .locator(".editor-group-container .monaco-diff-editor .editor.modified")
        .getByText("from the action")
        .first()
        .waitFor({ state: "visible", timeout: 30_000 });
      await ctx.screenshot("e2e-worktrees-remote-branch");
      assert.equal(fs.existsSync(path.join(dir, "NOTES.md")), false, "nothing in the working tree before Apply");
      await item.getByRole("button", { name: "Apply origin/fathom/12-add-notes to your working tree" }).click();
      // git apply creates the file, then writes it: wait for its text, not only for the file.
      await until(
        "NOTES.md applied",
        () =>
          fs.existsSync(path.join(dir, "NOTES.md")) &&
          fs.readFileSync(path.join(dir, "NOTES.md"), "utf8") === "from the action\n",
        30_000,
      );
      await page
        .locator(".notifications-toasts")
        .getByText(/Applied 1 file to your working tree as uncommitted changes: NOTES\.md/)
        .waitFor({ state: "visible", timeout: 30_000 });
      assert.equal(git(dir, "rev-parse", "--abbrev-ref", "HEAD").trim(), "main");
    },
  },
  {
    name: "Worktrees: a window reloaded mid-task leaves its worktree interrupted; Resume continues in it",
    timeoutMs: 240_000,
    prepare: commitAll,
    async run(ctx) {
      const { page } = ctx;
      const dir = ctx.session.workspaceDir;
      await withModel(ctx, async (server) => {
        server.push({
          toolCalls: [
            { id: "w1", name: "write_file", arguments: { file_path: "/NOTES.md", content: "after the reload\n" } },
          ],
        });
        let chat = await openChat(page);
        await startInWorktree(chat, "Survive a reload");
        await chat.getByRole("button", { name: "Approve" }).first().waitFor({ state: "visible", timeout: 60_000 });
        await page.reload();
        chat = await openChat(page);
        // The old extension host is gone: its worktree reads as interrupted, and the task offers Resume.
        const review = chat.getByRole("region", { name: "Worktree fathom/survive-a-reload" });
        await review.getByRole("heading", { name: /interrupted/ }).waitFor({ state: "visible", timeout: 90_000 });
        await ctx.screenshot("e2e-worktrees-4-interrupted");
        server.push({ text: "Written after the reload." });
        await chat.getByRole("button", { name: "Resume" }).click();
        await chat.getByRole("button", { name: "Approve" }).first().click({ timeout: 60_000 });
        await chat.getByText("Written after the reload.").waitFor({ state: "visible", timeout: 60_000 });
        const worktree = new TaskWorktrees({ repoDir: dir, worktreesDir: path.join(ctx.session.root, "unused") });
        // The task ends once the editor's check of its last write is in (a moment after its answer shows).
        const listed = await until(
          "the worktree recorded as done",
          async () => (await worktree.list()).find((w) => w.state === "done"),
          15_000,
        );
        assert.equal(
          fs.readFileSync(path.join(listed.root, "NOTES.md"), "utf8"),
          "after the reload\n",
          "the resumed task wrote in its worktree",
        );
        assert.equal(fs.existsSync(path.join(dir, "NOTES.md")), false);
        await review
          .getByRole("button", { name: "NOTES.md, added: open its diff" })
          .waitFor({ state: "visible", timeout: 30_000 });
      });
    },
  },
];
