// Issue 11, filesystem findings 4, 6 and 8: protected paths through links and in any case,
// dotfiles at the root, stale temp files, no stray folders after a failed write, and
// arguments checked at the public API so a bad call cannot poison later reads.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { mkdirInside, removeEmptyFolders } from "../../../src/core/backends/atomicWrite";
import { makeSandbox } from "../backends/helpers";

describe("protected paths are checked where links lead, in any case", () => {
  const s = makeSandbox({
    ".git/config": "[core]\n\tbare = false\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "docs/readme.md": "docs\n",
    ".fathomignore": "secret/\n",
  });
  after(s.cleanup);
  symlinkSync("../.git/config", path.join(s.root, "docs/config"));
  symlinkSync("../.fathomignore", path.join(s.root, "docs/ignore-rules"));
  symlinkSync("../.git", path.join(s.root, "docs/gitdir"));
  const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });

  it("refuses an edit of .git/config through a link in docs/", async () => {
    assert.match(String((await b.read("/docs/config")).content), /bare/);
    const r = await b.edit("/docs/config", "bare = false", "bare = false\n\tfsmonitor = touch /tmp/pwned");
    assert.match(String(r.error), /inside \.git \(through a link\)/);
    assert.doesNotMatch(readFileSync(path.join(s.root, ".git/config"), "utf8"), /fsmonitor/);
  });
  it("refuses writes into .git through a linked folder and the ignore file through a link", async () => {
    assert.match(String((await b.write("/docs/gitdir/hooks/pre-commit", "#!/bin/sh\n")).error), /\.git/);
    assert.ok(!existsSync(path.join(s.root, ".git/hooks")));
    await b.read("/docs/ignore-rules");
    assert.match(
      String((await b.edit("/docs/ignore-rules", "secret/", "nothing/")).error),
      /only a person may change it/,
    );
  });
  it("refuses .GIT and .Git spellings", async () => {
    for (const p of ["/.GIT/config", "/.Git/hooks/post-checkout", "/sub/.GIT/config", "/.FathomIgnore"]) {
      const r = await b.write(p, "x");
      assert.ok(r.error, `${p} was written`);
    }
  });
});

describe("dotfiles at the root, stale temp files, failed deep writes", () => {
  const s = makeSandbox({ ".gitignore": "node_modules/\n", "keep/x.txt": "x\n" });
  after(s.cleanup);
  const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });

  it("creates /.eslintrc.json and edits /.gitignore", async () => {
    assert.deepEqual(await b.write("/.eslintrc.json", "{}\n"), { path: "/.eslintrc.json" });
    assert.equal(readFileSync(path.join(s.root, ".eslintrc.json"), "utf8"), "{}\n");
    await b.read("/.gitignore");
    const r = await b.edit("/.gitignore", "node_modules/", "node_modules/\ndist/");
    assert.equal(r.error, undefined, r.error);
    assert.equal(readFileSync(path.join(s.root, ".gitignore"), "utf8"), "node_modules/\ndist/\n");
  });
  it("reads and writes a file whose name starts with two dots", async () => {
    assert.equal((await b.write("/..weird", "ok\n")).error, undefined);
    assert.match(String((await b.read("/..weird")).content), /ok/);
  });
  it("removes temp files a killed write left behind, on the next write to that folder", async () => {
    const stale = path.join(s.root, "keep", ".x.txt.fathom-0123456789ab.tmp");
    const fresh = path.join(s.root, "keep", ".y.txt.fathom-ba9876543210.tmp");
    const mine = path.join(s.root, "keep", ".notes.fathom-zz.tmp");
    for (const f of [stale, fresh, mine]) writeFileSync(f, "half");
    const old = (Date.now() - 5 * 60_000) / 1000;
    utimesSync(stale, old, old);
    utimesSync(mine, old, old);
    assert.equal((await b.write("/keep/new.txt", "n\n")).error, undefined);
    assert.ok(!existsSync(stale), "a stale temp file stays");
    assert.ok(existsSync(fresh), "a temp file of a write that may still run was removed");
    assert.ok(existsSync(mine), "a file that is not ours was removed");
  });
  it("removes at once, on the next write to that folder, the temp file of a write killed with its process", async () => {
    // A process that has exited: its pid is free (the write it was doing is abandoned).
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    const killed = path.join(s.root, "keep", `.x.txt.fathom-${dead}-0123456789ab.tmp`);
    const live = path.join(s.root, "keep", `.x.txt.fathom-${process.pid}-0123456789ab.tmp`);
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
    const liveOther = path.join(s.root, "keep", `.y.txt.fathom-${other.pid}-0123456789ab.tmp`);
    try {
      for (const f of [killed, live, liveOther]) writeFileSync(f, "half");
      assert.equal((await b.write("/keep/again.txt", "n\n")).error, undefined);
      assert.ok(!existsSync(killed), "the killed write's temp file stays");
      assert.ok(existsSync(live) && existsSync(liveOther), "a temp file of a write still running was removed");
    } finally {
      other.kill("SIGKILL");
    }
    const fresh = readdirSync(path.join(s.root, "keep")).filter((n) => n.includes(".fathom-"));
    assert.deepEqual(
      fresh.sort(),
      [path.basename(live), path.basename(liveOther), ".y.txt.fathom-ba9876543210.tmp", ".notes.fathom-zz.tmp"].sort(),
    );
  });
  it("leaves no new folders behind when creating a deep folder fails part way", async () => {
    // The path guard refuses over-long names before any folder is made, so drive the folder
    // step directly: two folders are made, the third name is too long for the file system.
    const made = await mkdirInside(s.root, path.join(s.root, "m1", "m2", "x".repeat(300)));
    assert.ok("error" in made);
    assert.ok(!existsSync(path.join(s.root, "m1")), "m1 was left behind");
    // A folder someone else filled meanwhile is kept.
    const ok = await mkdirInside(s.root, path.join(s.root, "k1", "k2"));
    assert.ok("created" in ok && ok.created.length === 2);
    writeFileSync(path.join(s.root, "k1", "theirs.txt"), "x");
    await removeEmptyFolders("created" in ok ? ok.created : []);
    assert.ok(existsSync(path.join(s.root, "k1", "theirs.txt")) && !existsSync(path.join(s.root, "k1", "k2")));
    // And through the backend: a write under a file refuses and makes nothing.
    writeFileSync(path.join(s.root, "plain"), "x");
    const before = readdirSync(s.root).sort();
    assert.ok((await b.write("/plain/child/f.txt", "x")).error);
    assert.deepEqual(readdirSync(s.root).sort(), before);
  });
});

describe("arguments are checked at the public API", () => {
  const s = makeSandbox({ "a.txt": Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n" });
  after(s.cleanup);

  it("read with a negative or fractional window is a clear error and poisons nothing", async () => {
    const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
    for (const [offset, limit] of [
      [-1, undefined],
      [1.5, undefined],
      [0, 0],
      [0, -5],
      [Number.NaN, undefined],
      ["3", undefined],
    ] as const) {
      const r = await b.read("/a.txt", offset as number, limit as number | undefined);
      assert.match(
        String(r.error),
        /(offset|limit) must be a whole number/,
        `read(${String(offset)}, ${String(limit)})`,
      );
    }
    const again = await new FilesystemBackend({ rootDir: s.root, ripgrepPath: null }).read("/a.txt", 28, 5);
    assert.match(String(again.content), /29\tline 29\n {4}30\tline 30/);
    assert.match(String((await b.read("/a.txt")).content), /^ {5}1\tline 1/);
  });
  it("a path that is not a string is refused", async () => {
    const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
    for (const bad of [undefined as unknown, 42, { path: "/a.txt" }, ["/a.txt"]]) {
      const r = await b.read(bad as string);
      assert.ok(r.error || r.content === undefined || bad === undefined, `read(${JSON.stringify(bad)})`);
    }
  });
});
