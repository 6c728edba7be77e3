// Task worktrees (issue 20) with real git: made on fathom/<title> from HEAD outside the
// workspace; the person's working tree, index and branch untouched until Apply; Apply refuses,
// changing nothing, where the person has changes; Discard removes only what Fathom made.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TaskWorktrees, branchSlug, worktreeSupport } from "../../../src/core/worktrees/taskWorktrees";

const sh = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });

function repo(): { dir: string; worktrees: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-wt-repo-"));
  sh(dir, "init", "-q", "-b", "main");
  writeFileSync(path.join(dir, "app.ts"), "export const a = 1;\n");
  writeFileSync(path.join(dir, "other.ts"), "export const b = 2;\n");
  writeFileSync(path.join(dir, ".gitignore"), "*.log\n");
  sh(dir, "add", "-A");
  sh(dir, "commit", "-q", "-m", "init");
  return { dir, worktrees: mkdtempSync(path.join(tmpdir(), "fathom-wt-home-")) };
}

const status = (dir: string) => sh(dir, "status", "--porcelain=v1", "--untracked-files=all", "--ignored");

describe("task worktrees with real git", () => {
  it("names branches from the title", () => {
    assert.equal(branchSlug("Fix the login bug, please!"), "fix-the-login-bug-please");
    assert.equal(branchSlug("???"), "task");
    assert.ok(branchSlug("a ".repeat(60)).length <= 40);
  });

  it("says why a folder cannot have worktrees", async () => {
    const plain = mkdtempSync(path.join(tmpdir(), "fathom-wt-plain-"));
    const none = await worktreeSupport(plain);
    assert.equal(none.ok, false);
    assert.match(!none.ok ? none.reason : "", /not in a git repository/);
    sh(plain, "init", "-q");
    const empty = await worktreeSupport(plain);
    assert.match(!empty.ok ? empty.reason : "", /no commit yet/);
    const bare = mkdtempSync(path.join(tmpdir(), "fathom-wt-bare-"));
    sh(bare, "init", "-q", "--bare");
    const bareRepo = await worktreeSupport(bare);
    assert.match(!bareRepo.ok ? bareRepo.reason : "", /bare git repository/);
  });

  it("two tasks edit the same file: the first applies, the second is refused and changes nothing, discard cleans up", async () => {
    const { dir, worktrees } = repo();
    // The person's own state: an untracked file, an ignored one, a staged change in another file.
    writeFileSync(path.join(dir, "notes.txt"), "mine\n");
    writeFileSync(path.join(dir, "debug.log"), "ignored\n");
    writeFileSync(path.join(dir, "other.ts"), "export const b = 3;\n");
    sh(dir, "add", "other.ts");
    const before = status(dir);
    const head = sh(dir, "rev-parse", "HEAD");
    const wts = new TaskWorktrees({ repoDir: dir, worktreesDir: worktrees, surface: "cli" });
    const one = await wts.create("task1", "Change a to ten");
    const two = await wts.create("task2", "Change a to ten");
    assert.equal(one.branch, "fathom/change-a-to-ten");
    assert.equal(two.branch, "fathom/change-a-to-ten-2");
    assert.ok(one.path.startsWith(worktrees) && !one.path.startsWith(dir));
    writeFileSync(path.join(one.root, "app.ts"), "export const a = 10;\n");
    writeFileSync(path.join(one.root, "added.ts"), "new\n");
    writeFileSync(path.join(two.root, "app.ts"), "export const a = 20;\n");
    rmSync(path.join(two.root, "other.ts"));
    assert.equal(status(dir), before, "nothing in the person's tree changed while the tasks ran");
    assert.equal(sh(dir, "rev-parse", "HEAD"), head);

    assert.deepEqual(await wts.changes("task1"), [
      { path: "added.ts", status: "added" },
      { path: "app.ts", status: "modified" },
    ]);
    assert.equal(await wts.baseText("task1", "app.ts"), "export const a = 1;\n");
    assert.equal(await wts.baseText("task1", "added.ts"), null);

    const first = await wts.apply("task1");
    assert.equal(first.ok, true, first.message);
    assert.equal(readFileSync(path.join(dir, "app.ts"), "utf8"), "export const a = 10;\n");
    assert.equal(readFileSync(path.join(dir, "added.ts"), "utf8"), "new\n");
    assert.equal(
      sh(dir, "diff", "--cached", "--name-only"),
      "other.ts\n",
      "the index holds only the person's staged change",
    );
    assert.equal(readFileSync(path.join(dir, "notes.txt"), "utf8"), "mine\n");
    assert.equal((await wts.get("task1"))?.state, "applied");

    const afterFirst = status(dir);
    const contents = readFileSync(path.join(dir, "other.ts"), "utf8");
    const second = await wts.apply("task2");
    assert.equal(second.ok, false);
    assert.deepEqual(!second.ok && second.conflicts, ["app.ts", "other.ts"]);
    assert.match(second.message, /nothing was changed.*app\.ts, other\.ts/);
    assert.equal(status(dir), afterFirst, "a refused apply changes nothing");
    assert.equal(readFileSync(path.join(dir, "other.ts"), "utf8"), contents);

    await wts.setStatus("task2", "done");
    await wts.discard("task2");
    assert.equal(existsSync(two.path), false);
    assert.equal(sh(dir, "branch", "--list", "fathom/change-a-to-ten-2"), "");
    assert.deepEqual(
      (await wts.list()).map((w) => w.taskId),
      ["task1"],
    );
    assert.equal(readFileSync(path.join(dir, "notes.txt"), "utf8"), "mine\n");
    assert.equal(readFileSync(path.join(dir, "debug.log"), "utf8"), "ignored\n");
  });

  it("refuses to apply over an untracked or ignored file of the person's", async () => {
    const { dir, worktrees } = repo();
    const wts = new TaskWorktrees({ repoDir: dir, worktreesDir: worktrees });
    const wt = await wts.create("t", "add files");
    writeFileSync(path.join(wt.root, "notes.txt"), "theirs\n");
    writeFileSync(path.join(wt.root, ".gitignore"), "");
    writeFileSync(path.join(wt.root, "secret.log"), "agent's\n");
    writeFileSync(path.join(dir, "notes.txt"), "mine\n");
    writeFileSync(path.join(dir, "secret.log"), "my log\n");
    const r = await wts.apply("t");
    assert.equal(r.ok, false);
    assert.deepEqual(!r.ok && r.conflicts, ["notes.txt", "secret.log"]);
    assert.equal(readFileSync(path.join(dir, "notes.txt"), "utf8"), "mine\n");
    assert.equal(readFileSync(path.join(dir, ".gitignore"), "utf8"), "*.log\n");
  });

  it("never runs the repository's hooks", async () => {
    const { dir, worktrees } = repo();
    const marker = path.join(dir, "..", `hook-ran-${path.basename(dir)}`);
    mkdirSync(path.join(dir, ".git", "hooks"), { recursive: true });
    writeFileSync(path.join(dir, ".git", "hooks", "post-checkout"), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(path.join(dir, ".git", "hooks", "post-checkout"), 0o755);
    const wts = new TaskWorktrees({ repoDir: dir, worktreesDir: worktrees });
    await wts.create("t", "x");
    assert.equal(existsSync(marker), false);
  });

  it("works from a subfolder of the repository: the task's root is that folder in the worktree", async () => {
    const { dir, worktrees } = repo();
    mkdirSync(path.join(dir, "pkg"));
    writeFileSync(path.join(dir, "pkg", "p.ts"), "p\n");
    sh(dir, "add", "-A");
    sh(dir, "commit", "-q", "-m", "pkg");
    const wts = new TaskWorktrees({ repoDir: path.join(dir, "pkg"), worktreesDir: worktrees });
    const wt = await wts.create("sub", "in pkg");
    assert.equal(wt.root, path.join(wt.path, "pkg/"));
    writeFileSync(path.join(wt.root, "p.ts"), "changed\n");
    const r = await wts.apply("sub");
    assert.equal(r.ok, true, r.message);
    assert.equal(readFileSync(path.join(dir, "pkg", "p.ts"), "utf8"), "changed\n");
  });

  it("never discards a worktree Fathom did not make, nor one still running", async () => {
    const { dir, worktrees } = repo();
    sh(dir, "worktree", "add", "-q", "-b", "fathom/mine", path.join(worktrees, "mine"));
    const wts = new TaskWorktrees({ repoDir: dir, worktreesDir: worktrees });
    assert.deepEqual(await wts.list(), []);
    await assert.rejects(wts.discard("mine"), /No Fathom worktree/);
    await wts.create("live", "running one");
    await assert.rejects(wts.discard("live"), /still running/);
    assert.equal(existsSync(path.join(worktrees, "mine")), true);
  });
});

describe("a task cannot make Fathom's git run its programs", () => {
  it("a worktree's .git file pointed at a repository of the task's making is not followed", async () => {
    const { dir, worktrees } = repo();
    const wts = new TaskWorktrees({ repoDir: dir, worktreesDir: worktrees });
    const wt = await wts.create("t", "hostile");
    // What a task could write in its worktree: a repository whose config runs a clean filter on `git add`.
    const marker = path.join(worktrees, "filter-ran");
    const fake = path.join(wt.path, "fake-git");
    sh(wt.path, "init", "-q", "--bare", fake);
    writeFileSync(
      path.join(fake, "config"),
      `[core]\n\trepositoryformatversion = 0\n\tbare = false\n[filter "evil"]\n\tclean = sh -c 'touch ${marker}; cat'\n`,
    );
    writeFileSync(path.join(wt.path, ".gitattributes"), "* filter=evil\n");
    writeFileSync(path.join(wt.path, ".git"), `gitdir: ${fake}\n`);
    writeFileSync(path.join(wt.path, "app.ts"), "export const a = 2;\n");
    const files = await wts.changes("t");
    assert.equal(existsSync(marker), false, "the task's filter never ran");
    assert.ok(
      files.some((f) => f.path === "app.ts" && f.status === "modified"),
      JSON.stringify(files),
    );
    await wts.apply("t");
    assert.equal(existsSync(marker), false);
  });
});
