import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { StateBackend } from "../../../src/core/backends/state";
import { CompositeBackend } from "../../../src/core/backends/composite";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { makeSandbox } from "./helpers";

describe("StateBackend", () => {
  it("reads, writes and edits with the same rules as the disk", async () => {
    const b = new StateBackend({ "/a.txt": "one\r\ntwo\r\n" });
    assert.equal((await b.read("/a.txt")).content, "     1\tone\n     2\ttwo");
    assert.match((await b.read("/a.txt", 9)).error ?? "", /2 lines/);
    assert.deepEqual(await b.edit("/a.txt", "one\ntwo", "1\n2"), { path: "/a.txt", occurrences: 1 });
    assert.equal(b.snapshot()["/a.txt"], "1\r\n2\r\n");
    assert.match((await b.write("/a.txt", "x")).error ?? "", /.*/);
    b.setExternal("/a.txt", "changed");
    assert.match((await b.edit("/a.txt", "changed", "x")).error ?? "", /changed since you last read/);
    assert.match((await b.read("../x")).error ?? "", /'\.\.'/);
  });
  it("ls, glob and grep", async () => {
    const b = new StateBackend({ "/d/a.ts": "needle\n", "/d/e/b.ts": "x\nneedle\n", "/c.md": "needle" });
    assert.deepEqual(
      (await b.ls("/")).files?.map((f) => f.path),
      ["/c.md", "/d/"],
    );
    assert.deepEqual(
      (await b.glob("**/*.ts")).files?.map((f) => f.path),
      ["/d/a.ts", "/d/e/b.ts"],
    );
    assert.deepEqual((await b.grep("needle", "/d")).matches, [
      { path: "/d/a.ts", line: 1, text: "needle" },
      { path: "/d/e/b.ts", line: 2, text: "needle" },
    ]);
    assert.deepEqual(
      (await b.grep("needle", "/", "*.md")).matches?.map((m) => m.path),
      ["/c.md"],
    );
  });
});

describe("CompositeBackend", () => {
  const s1 = makeSandbox({ "src/a.ts": "needle front\n" });
  const s2 = makeSandbox({ "src/b.ts": "needle back\n" });
  after(() => {
    s1.cleanup();
    s2.cleanup();
  });
  const front = new FilesystemBackend({ rootDir: s1.root, ripgrepPath: null });
  const back = new FilesystemBackend({ rootDir: s2.root, ripgrepPath: null });
  const results = new StateBackend();
  const multi = new CompositeBackend(null, { "/frontend": front, "/backend": back, "/large_tool_results/": results });

  it("routes by the first segment and gives paths back with it", async () => {
    assert.deepEqual(
      (await multi.ls("/")).files?.map((f) => f.path),
      ["/backend/", "/frontend/", "/large_tool_results/"],
    );
    assert.match((await multi.read("/frontend/src/a.ts")).content ?? "", /needle front/);
    assert.deepEqual(await multi.write("/backend/src/new.ts", "n"), { path: "/backend/src/new.ts" });
    assert.equal(readFileSync(path.join(s2.root, "src/new.ts"), "utf8"), "n");
    assert.match((await multi.read("/elsewhere/x")).error ?? "", /\/frontend\//);
    assert.deepEqual((await multi.write("/large_tool_results/r1", "big")).path, "/large_tool_results/r1");
    assert.equal(results.snapshot()["/r1"], "big");
  });
  it("searches across roots, sorted", async () => {
    assert.deepEqual(
      (await multi.grep("needle")).matches?.map((m) => m.path),
      ["/backend/src/b.ts", "/frontend/src/a.ts"],
    );
    assert.deepEqual(
      (await multi.glob("**/*.ts", "/frontend")).files?.map((f) => f.path),
      ["/frontend/src/a.ts"],
    );
  });
  it("longest prefix wins", async () => {
    const inner = new StateBackend({ "/x": "inner" });
    const outer = new StateBackend({ "/deep/x": "outer" });
    const c = new CompositeBackend(new StateBackend(), { "/a": outer, "/a/deep": inner });
    assert.match((await c.read("/a/deep/x")).content ?? "", /inner/);
    assert.match((await c.read("/a/x")).error ?? "", /not found/);
  });
  it("escapes are refused before routing", async () => {
    assert.match((await multi.read("/frontend/../backend/src/b.ts")).error ?? "", /'\.\.'/);
  });
});
