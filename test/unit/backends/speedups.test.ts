// Unit tests for the helpers behind the issue-3 benchmark figures: partial sort for glob,
// sliced lstat, split-based replace_all, the "more lines" note and the growing chunked scan.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { MatchCollector, compareMatch, sortedHead } from "../../../src/core/backends/search/collect";
import { findRipgrep } from "../../../src/core/backends/search/ripgrep";
import type { GrepMatch, GrepOutputMode } from "../../../src/core/backends/protocol";
import { lstatMany } from "../../../src/core/backends/statMany";
import { applyTextEdit } from "../../../src/core/backends/textEdit";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { makeSandbox } from "./helpers";

const byCode = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe("sortedHead", () => {
  it("equals a full sort cut to the cap (random, duplicate, presorted and reversed input)", () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 2000; t++) {
      const n = Math.floor(rnd() * 400);
      const cap = 1 + Math.floor(rnd() * 60);
      let xs = Array.from({ length: n }, () =>
        t % 3 === 0
          ? String(Math.floor(rnd() * 5))
          : rnd()
              .toString(36)
              .slice(2, 2 + Math.floor(rnd() * 7)),
      );
      if (t % 5 === 1) xs.sort(byCode);
      if (t % 5 === 2) xs = xs.sort(byCode).reverse();
      const want = [...xs].sort(byCode).slice(0, cap);
      assert.deepEqual(sortedHead([...xs], cap), want, `n=${n} cap=${cap}`);
    }
    assert.deepEqual(sortedHead(["b", "a"], 0), []);
    assert.deepEqual(sortedHead(["é", "z", "Z", "a/b", "a.b", "a"], 3), ["Z", "a", "a.b"]);
  });
});

describe("lstatMany", () => {
  const s = makeSandbox({ "a.txt": "x", "d/b.txt": "yy" });
  after(s.cleanup);
  it("keeps order, gives null for what cannot be stat'ed, handles many paths", async () => {
    const names = [
      path.join(s.root, "a.txt"),
      path.join(s.root, "missing"),
      path.join(s.root, "a.txt/not-a-dir"),
      path.join(s.root, "d/b.txt"),
    ];
    const r = await lstatMany(names);
    assert.deepEqual(
      r.map((x) => x?.size ?? null),
      [1, null, null, 2],
    );
    const many = Array.from({ length: 1500 }, (_, i) => names[i % 4] as string);
    const rm = await lstatMany(many);
    assert.equal(rm.length, 1500);
    assert.deepEqual(
      rm.slice(1496).map((x) => x?.size ?? null),
      [1, null, null, 2],
    );
  });
});

describe("replace_all via split", () => {
  it("matches the indexOf definition: non-overlapping, CRLF fallback, BOM-only old_string", () => {
    assert.deepEqual(applyTextEdit("aaaaa\n", "aa", "b", true, "/f"), { after: "bba\n", occurrences: 2 });
    assert.deepEqual(applyTextEdit("a\r\nb\r\nxa\r\nb\r\n", "a\nb", "c\nd", true, "/f"), {
      after: "c\r\nd\r\nxc\r\nd\r\n",
      occurrences: 2,
    });
    assert.deepEqual(applyTextEdit("\uFEFFab ab", "ab", "$'", true, "/f"), { after: "\uFEFF$' $'", occurrences: 2 });
    assert.match(applyTextEdit("\uFEFFabc\n", "\uFEFF", "x", true, "/f").error ?? "", /not found/);
    assert.match(applyTextEdit("abc\n", "zz", "x", true, "/f").error ?? "", /not found/);
  });
});

describe("read windows at the end of a file", () => {
  const s = makeSandbox({
    "exact-nl.txt": "l\n".repeat(10),
    "exact.txt": "l\n".repeat(9) + "l",
    "more.txt": "l\n".repeat(10) + "x",
  });
  after(s.cleanup);
  const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
  it("says 'Use offset' only when more lines follow", async () => {
    assert.doesNotMatch((await b.read("/exact-nl.txt", 0, 10)).content ?? "", /Use offset/);
    assert.doesNotMatch((await b.read("/exact.txt", 0, 10)).content ?? "", /Use offset/);
    assert.match((await b.read("/more.txt", 0, 10)).content ?? "", /Showing lines 1-10\. Use offset=10/);
    assert.match((await b.read("/more.txt", 10, 5)).content ?? "", /^ {4}11\tx$/);
  });
  it("a scan across growing chunks (64 KB to 4 MB) finds exact lines and the total", async () => {
    const rows = Array.from({ length: 400_000 }, (_, i) => `r${i + 1}`);
    writeFileSync(path.join(s.root, "rows.txt"), rows.join("\n") + "\n");
    for (const o of [399_999, 250_000, 131_071, 1]) {
      assert.equal(
        ((await b.read("/rows.txt", o, 1)).content ?? "").split("\n")[0],
        `${String(o + 1).padStart(6)}\tr${o + 1}`,
      );
    }
    assert.match((await b.read("/rows.txt", 400_000, 1)).error ?? "", /400000 lines/);
  });
});

describe("MatchCollector", () => {
  it("keeps the cap smallest results whatever the arrival order, with the right truncation and counts", () => {
    let seed = 11;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 300; t++) {
      const files = Array.from({ length: 1 + Math.floor(rnd() * 60) }, (_, i) => `f${Math.floor(rnd() * 1e6)}-${i}`);
      const perFile = files.map((p) =>
        Array.from({ length: 1 + Math.floor(rnd() * 200) }, (_, k) => ({
          path: p,
          line: k * 2 + 1,
          text: `${p}:${k}`,
        })),
      );
      const all: GrepMatch[] = perFile.flat();
      for (const mode of ["content", "files_with_matches", "count"] as GrepOutputMode[]) {
        const cap = t % 7 === 0 ? 0 : 1 + Math.floor(rnd() * 300);
        const c = new MatchCollector(mode, cap);
        perFile.forEach((ms) => c.addFile(ms[0]?.path as string, ms));
        const r = c.result();
        const expectedAll =
          mode === "content" ? [...all].sort(compareMatch) : perFile.map((ms) => ms[0] as GrepMatch).sort(compareMatch);
        assert.deepEqual(r.matches, expectedAll.slice(0, cap), `${mode} cap ${cap}`);
        assert.equal(r.truncated, expectedAll.length > cap, `${mode} cap ${cap}`);
        if (mode === "count") {
          assert.deepEqual(
            r.counts,
            Object.fromEntries(r.matches.map((m) => [m.path, perFile.find((ms) => ms[0]?.path === m.path)?.length])),
          );
        }
      }
    }
  });
});

describe("ripgrep output decoding", () => {
  const s = makeSandbox({
    'we"ird,"lines":,"line_number":1,.txt': 'a needle "quoted" \\ back\n',
    "bytes.txt": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0xff, 0x0a]),
    "multi.txt": "needle 1\nx\nneedle 2\nneedle 3\n",
  });
  after(s.cleanup);
  const rgPath = findRipgrep(undefined);
  it("names, texts and counts agree with the Node engine for odd names and bytes", { skip: !rgPath }, async () => {
    const rg = new FilesystemBackend({ rootDir: s.root, ripgrepPath: rgPath });
    const node = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
    for (const mode of ["content", "files_with_matches", "count"] as GrepOutputMode[]) {
      const a = await rg.grep("needle", "/", undefined, { outputMode: mode });
      assert.deepEqual(a, await node.grep("needle", "/", undefined, { outputMode: mode }), mode);
      assert.equal(a.matches?.length, mode === "content" ? 5 : 3, mode);
    }
  });
});
