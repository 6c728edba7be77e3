import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { normalizeVirtualPath } from "../../../src/core/backends/pathGuard";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { makeSandbox } from "./helpers";

describe("normalizeVirtualPath", () => {
  const ok: [string, string][] = [
    ["foo/bar", "/foo/bar"],
    ["/./foo//bar/", "/foo/bar"],
    ["", "/"],
    ["/", "/"],
    ["foo..bar.txt", "/foo..bar.txt"],
    ["/a/..b/c..", "/a/..b/c.."],
    ["/a/~b", "/a/~b"],
    ["src\\a.ts", "/src/a.ts"],
    ["/name with spaces%20.txt", "/name with spaces%20.txt"],
    ["/ROOT/sub/x", "/sub/x"],
    ["/ROOT", "/"],
  ];
  for (const [input, want] of ok) {
    it(`accepts ${JSON.stringify(input)}`, () => assert.equal(normalizeVirtualPath(input, ["/ROOT"]), want));
  }
  const bad: [string, RegExp][] = [
    ["../etc/passwd", /'\.\.'/],
    ["/a/../../b", /'\.\.'/],
    ["a/..", /'\.\.'/],
    ["..\\..\\windows", /'\.\.'/],
    ["~", /Home/],
    ["~/.ssh/id_rsa", /Home/],
    ["~root/x", /Home/],
    ["C:\\Users\\x", /Drive/],
    ["c:/x", /Drive/],
    ["/C:/x", /Drive/],
    ["\\\\server\\share\\x", /UNC/],
    ["//server/share", /UNC/],
    ["a\0b", /NUL/],
    ["a\nb", /control/],
    ["%2e%2e/etc", /URL-encoded/],
    ["..%2fetc", /URL-encoded/],
    ["%252e%252e/x", /URL-encoded/],
    ["a%00b", /URL-encoded/],
    ["/" + "a/".repeat(3000), /too long/],
    ["/" + "x".repeat(300), /longer than 255/],
  ];
  for (const [input, want] of bad) {
    it(`refuses ${JSON.stringify(input.slice(0, 40))}`, () => {
      const r = normalizeVirtualPath(input, ["/ROOT"]);
      assert.equal(typeof r, "object");
      assert.match((r as { error: string }).error, want);
    });
  }
  it("refuses non-strings", () => assert.equal(typeof normalizeVirtualPath(42), "object"));
});

describe("symlinks", () => {
  const s = makeSandbox({ "real/inside.txt": "inside\n" });
  after(s.cleanup);
  mkdirSync(path.join(s.outside, "dir"));
  writeFileSync(path.join(s.outside, "dir", "secret.txt"), "SECRET\n");
  symlinkSync(path.join(s.outside, "dir"), path.join(s.root, "outdir"));
  symlinkSync(s.canary, path.join(s.root, "canary-link.txt"));
  symlinkSync(path.join(s.root, "real"), path.join(s.root, "indir"));
  symlinkSync("real/inside.txt", path.join(s.root, "in-link.txt"));
  symlinkSync(path.join(s.outside, "nope.txt"), path.join(s.root, "dangling.txt"));
  symlinkSync("loop2", path.join(s.root, "loop1"));
  symlinkSync("loop1", path.join(s.root, "loop2"));
  symlinkSync("../..", path.join(s.root, "real", "up"));
  const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });

  it("a symlink that stays inside the root works (file and folder)", async () => {
    assert.match((await b.read("/in-link.txt")).content ?? "", /inside/);
    assert.match((await b.read("/indir/inside.txt")).content ?? "", /inside/);
    assert.equal((await b.write("/indir/new.txt", "n")).error, undefined);
    assert.equal(readFileSync(path.join(s.root, "real", "new.txt"), "utf8"), "n");
  });
  const escapes = [
    "/outdir/secret.txt",
    "/canary-link.txt",
    "/real/up/outside/canary.txt",
    "/dangling.txt",
    "/loop1",
    "/loop1/x",
  ];
  for (const p of escapes) {
    it(`refuses ${p} for read, write, edit, ls`, async () => {
      assert.ok((await b.read(p)).error);
      assert.ok((await b.write(p, "x")).error);
      assert.ok((await b.edit(p, "SECRET", "x")).error);
      assert.equal((await b.ls(p)).files, undefined);
    });
  }
  it("a directory symlink cannot be used to create files outside", async () => {
    assert.match((await b.write("/outdir/new.txt", "pwned")).error ?? "", /outside/);
    assert.match((await b.write("/outdir/deep/er/new.txt", "pwned")).error ?? "", /outside/);
    assert.equal(existsSync(path.join(s.outside, "dir", "new.txt")), false);
    assert.equal(existsSync(path.join(s.outside, "nope.txt")), false);
    assert.equal(readFileSync(s.canary, "utf8"), "CANARY-SECRET\n");
  });
  it("grep and glob do not follow links out of the root", async () => {
    for (const p of ["/", "/real"]) {
      assert.deepEqual((await b.grep("SECRET", p)).matches, []);
      assert.ok(!(await b.glob("**/*", p)).files?.some((f) => f.path.includes("secret")));
    }
    assert.ok((await b.grep("SECRET", "/outdir")).error);
  });
  it("a real absolute path inside the root is accepted; one outside is refused", async () => {
    assert.match((await b.read(path.join(s.root, "real/inside.txt"))).content ?? "", /inside/);
    const nv = new FilesystemBackend({ rootDir: s.root, virtualMode: false, ripgrepPath: null });
    assert.match((await nv.read(s.canary)).error ?? "", /outside/);
    assert.match((await nv.read(path.join(s.root, "real/inside.txt"))).content ?? "", /inside/);
  });
});
