// Reading a repository's changes with real git (the CLI's way): staged only, or everything
// when asked and nothing is staged, untracked files included; the latest subjects without
// merges; and none of the repository's own diff programs run.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readRepositoryChanges, readUntrackedFiles } from "../../../src/core/commitMessage/repositoryChanges";

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
// Each commit a minute after the last, so the log's order does not depend on the clock.
let minute = 0;
const git = (cwd: string, ...args: string[]) => {
  const date = new Date(Date.UTC(2024, 0, 1, 0, minute++)).toISOString();
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
};

/** A repository with commits `subjects` (oldest first), each changing app.js. */
function repository(subjects: string[] = ["Add app"]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-commit-msg-"));
  git(dir, "init", "-q", "-b", "main");
  subjects.forEach((subject, i) => {
    writeFileSync(path.join(dir, "app.js"), `module.exports = ${i};\n`);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", subject);
  });
  return dir;
}

describe("a repository's changes, read with git", () => {
  it("gives the staged changes only, and the last subjects newest first without merges", async () => {
    const dir = repository(["First", "Second"]);
    git(dir, "checkout", "-q", "-b", "side");
    writeFileSync(path.join(dir, "side.txt"), "side\n");
    git(dir, "add", "side.txt");
    git(dir, "commit", "-q", "-m", "Side work");
    git(dir, "checkout", "-q", "main");
    git(dir, "merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side");
    writeFileSync(path.join(dir, "app.js"), "module.exports = 'staged';\n");
    git(dir, "add", "app.js");
    writeFileSync(path.join(dir, "app.js"), "module.exports = 'not staged';\n");
    writeFileSync(path.join(dir, "untracked.txt"), "new\n");

    const changes = await readRepositoryChanges(path.join(dir), {});
    assert.ok(!("error" in changes), JSON.stringify(changes));
    assert.equal(changes.scope, "staged");
    assert.deepEqual(
      changes.files.map((f) => [f.path, f.status, f.added, f.removed]),
      [["app.js", "modified", 1, 1]],
    );
    assert.match(changes.files[0]!.hunks[0]!, /\+module\.exports = 'staged';/);
    assert.deepEqual(changes.subjects, ["Side work", "Second", "First"]);
  });

  it("with all and nothing staged: tracked changes and untracked files, a binary one named as binary", async () => {
    const dir = repository();
    writeFileSync(path.join(dir, "app.js"), "module.exports = 'changed';\n");
    writeFileSync(path.join(dir, "notes.md"), "# Notes\nhello\n");
    writeFileSync(path.join(dir, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    writeFileSync(path.join(dir, ".gitignore"), "*.log\n");
    writeFileSync(path.join(dir, "debug.log"), "ignored\n");
    const staged = await readRepositoryChanges(dir, {});
    assert.ok(!("error" in staged) && staged.files.length === 0, "nothing staged");
    const all = await readRepositoryChanges(dir, { all: true });
    assert.ok(!("error" in all));
    assert.equal(all.scope, "all");
    assert.deepEqual(all.files.map((f) => [f.path, f.status, f.binary, f.added]).sort(), [
      [".gitignore", "added", false, 1],
      ["app.js", "modified", false, 1],
      ["logo.png", "added", true, 0],
      ["notes.md", "added", false, 2],
    ]);
  });

  it("reads a repository with no commit yet", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fathom-commit-msg-empty-"));
    git(dir, "init", "-q");
    writeFileSync(path.join(dir, "first.txt"), "one\n");
    git(dir, "add", "first.txt");
    const changes = await readRepositoryChanges(dir);
    assert.ok(!("error" in changes), JSON.stringify(changes));
    assert.deepEqual(
      changes.files.map((f) => [f.path, f.status]),
      [["first.txt", "added"]],
    );
    assert.deepEqual(changes.subjects, []);
  });

  it("says when the folder is not in a repository", async () => {
    const plain = mkdtempSync(path.join(tmpdir(), "fathom-commit-msg-plain-"));
    const result = await readRepositoryChanges(plain);
    assert.deepEqual(result, { error: `${plain} is not in a git repository.` });
  });

  it("runs none of the repository's diff programs or text conversions", async () => {
    const dir = repository();
    const marker = path.join(dir, "..", `${path.basename(dir)}-ran`);
    const script = path.join(dir, "evil.sh");
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\necho converted\n`);
    chmodSync(script, 0o755);
    git(dir, "config", "diff.external", script);
    git(dir, "config", "diff.conv.textconv", script);
    writeFileSync(path.join(dir, ".gitattributes"), "*.js diff=conv\n");
    writeFileSync(path.join(dir, "app.js"), "module.exports = 'x';\n");
    git(dir, "add", "app.js", ".gitattributes");
    const changes = await readRepositoryChanges(dir);
    assert.ok(!("error" in changes));
    assert.equal(existsSync(marker), false, "the repository's diff program did not run");
    assert.match(changes.files.find((f) => f.path === "app.js")!.hunks[0]!, /\+module\.exports = 'x';/);
  });

  it("names links, folders and files too large to read instead of reading them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fathom-commit-msg-untracked-"));
    writeFileSync(path.join(dir, "big.txt"), "x".repeat(2_000));
    writeFileSync(path.join(dir, "small.txt"), "small\n");
    symlinkSync("/etc/passwd", path.join(dir, "link"));
    const files = await readUntrackedFiles(dir, ["big.txt", "small.txt", "link", "missing.txt"], {
      fileBytes: 1_000,
      totalBytes: 10_000,
    });
    assert.deepEqual(
      files.map((f) => [f.path, f.note ?? f.added]),
      [
        ["big.txt", "2 KB, too large to read"],
        ["small.txt", 1],
        ["link", "a symbolic link to /etc/passwd"],
      ],
    );
  });
});
