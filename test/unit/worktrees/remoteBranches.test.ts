// The remote's fathom/* branches (issue 34) with real git and a bare repository on disk as
// origin: fetched and listed with their files against where they left HEAD; a file's two texts;
// Apply all or nothing; Check out as a worktree; a remote that cannot be reached is said.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RemoteBranches } from "../../../src/core/worktrees/remoteBranches";

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
const sh = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: ENV });
const dirs: string[] = [];
const temp = (name: string) => {
  const d = mkdtempSync(path.join(tmpdir(), `fathom-rb-${name}-`));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** origin (bare), the person's clone, and a second clone that pushes fathom/* branches as the Action would. */
function setup(): { origin: string; mine: string; other: string; home: string } {
  const origin = temp("origin");
  sh(origin, "init", "-q", "--bare", "-b", "main");
  const mine = temp("mine");
  sh(mine, "init", "-q", "-b", "main");
  writeFileSync(path.join(mine, "app.js"), "export const a = 1;\n");
  writeFileSync(path.join(mine, "keep.js"), "export const k = 0;\n");
  sh(mine, "add", "-A");
  sh(mine, "commit", "-q", "-m", "init");
  sh(mine, "remote", "add", "origin", origin);
  sh(mine, "push", "-q", "origin", "main");
  const other = temp("other");
  sh(other, "clone", "-q", origin, ".");
  sh(other, "checkout", "-q", "-b", "fathom/12-fix-a");
  writeFileSync(path.join(other, "app.js"), "export const a = 2;\n");
  writeFileSync(path.join(other, "NEW.md"), "new\n");
  sh(other, "add", "-A");
  sh(other, "commit", "-q", "-m", "Fix a (#12)");
  sh(other, "push", "-q", "origin", "fathom/12-fix-a");
  sh(other, "checkout", "-q", "-b", "feature/not-fathom", "main");
  sh(other, "commit", "-q", "--allow-empty", "-m", "not ours");
  sh(other, "push", "-q", "origin", "feature/not-fathom");
  return { origin, mine, other, home: temp("home") };
}

describe("remote fathom/* branches with real git", () => {
  it("fetches only fathom/* branches, lists each with its files against where it left HEAD, and shows a file's two texts", async () => {
    const { mine, home } = setup();
    const remote = new RemoteBranches({ repoDir: mine, worktreesDir: home });
    assert.deepEqual(await remote.list(), [], "nothing before a fetch");
    assert.deepEqual(await remote.fetch(), [{ remote: "origin", ok: true }]);
    const list = await remote.list();
    assert.equal(list.length, 1);
    const [b] = list;
    assert.equal(b!.branch, "fathom/12-fix-a");
    assert.equal(b!.ref, "refs/remotes/origin/fathom/12-fix-a");
    assert.equal(b!.subject, "Fix a (#12)");
    assert.equal(b!.base, sh(mine, "rev-parse", "HEAD").trim());
    assert.deepEqual(b!.files, [
      { path: "NEW.md", status: "added" },
      { path: "app.js", status: "modified" },
    ]);
    assert.equal(sh(mine, "branch", "--list").trim(), "* main", "no local branch made");
    const texts = await remote.texts(b!.ref, "app.js");
    assert.deepEqual([texts.before, texts.after], ["export const a = 1;\n", "export const a = 2;\n"]);
    assert.deepEqual([(await remote.texts(b!.ref, "NEW.md")).before], [null]);
    await assert.rejects(remote.texts(b!.ref, "keep.js"), /keep\.js is not among the files fathom\/12-fix-a changed/);
  });

  it("Apply brings the change in as uncommitted changes; where the person changed a file it refuses and changes nothing", async () => {
    const { mine, home } = setup();
    const remote = new RemoteBranches({ repoDir: mine, worktreesDir: home });
    await remote.fetch();
    const ref = "refs/remotes/origin/fathom/12-fix-a";
    writeFileSync(path.join(mine, "app.js"), "export const a = 'mine';\n");
    const refused = await remote.apply(ref);
    assert.equal(refused.ok, false);
    assert.match(
      refused.message,
      /Not applied, nothing was changed: this file has changes of yours .*app\.js.*check it out as a worktree/,
    );
    assert.equal(existsSync(path.join(mine, "NEW.md")), false, "all or nothing");
    sh(mine, "checkout", "--", "app.js");
    const applied = await remote.apply(ref);
    assert.equal(applied.ok, true, applied.message);
    assert.equal(readFileSync(path.join(mine, "app.js"), "utf8"), "export const a = 2;\n");
    assert.equal(readFileSync(path.join(mine, "NEW.md"), "utf8"), "new\n");
    assert.equal(
      sh(mine, "rev-parse", "--abbrev-ref", "HEAD").trim(),
      "main",
      "the person's branch and commits untouched",
    );
  });

  it("Check out makes a worktree on a local branch that tracks it; twice is refused, saying why", async () => {
    const { mine, home } = setup();
    const remote = new RemoteBranches({ repoDir: mine, worktreesDir: home });
    await remote.fetch();
    const ref = "refs/remotes/origin/fathom/12-fix-a";
    const made = await remote.checkOut(ref);
    assert.equal(made.branch, "fathom/12-fix-a");
    assert.ok(made.path.startsWith(home), made.path);
    assert.equal(readFileSync(path.join(made.path, "app.js"), "utf8"), "export const a = 2;\n");
    assert.equal(sh(made.path, "rev-parse", "--abbrev-ref", "@{upstream}").trim(), "origin/fathom/12-fix-a");
    await assert.rejects(remote.checkOut(ref), /A local branch fathom\/12-fix-a exists already/);
  });

  it("a branch deleted on the remote leaves the list after the next fetch; an unreachable remote is said, the others still listed", async () => {
    const { mine, other, home } = setup();
    const remote = new RemoteBranches({ repoDir: mine, worktreesDir: home });
    await remote.fetch();
    sh(other, "push", "-q", "origin", "--delete", "fathom/12-fix-a");
    sh(mine, "remote", "add", "gone", path.join(tmpdir(), "fathom-no-such-remote"));
    const outcomes = await remote.fetch();
    assert.deepEqual(
      outcomes.find((o) => o.remote === "origin"),
      { remote: "origin", ok: true },
    );
    const gone = outcomes.find((o) => o.remote === "gone");
    assert.equal(gone?.ok, false);
    assert.match(
      gone && !gone.ok ? gone.reason : "",
      /fathom-no-such-remote|not appear to be a git repository|Could not read/,
    );
    assert.deepEqual(await remote.list(), []);
    await assert.rejects(
      remote.apply("refs/remotes/origin/fathom/12-fix-a"),
      /is no longer on the remote .*refresh the list/,
    );
  });
});
