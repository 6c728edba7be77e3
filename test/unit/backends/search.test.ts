import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { findRipgrep } from "../../../src/core/backends/search/ripgrep";
import type { GrepOutputMode } from "../../../src/core/backends/protocol";
import { Minimatch } from "minimatch";
import { makeSandbox } from "./helpers";

const s = makeSandbox({
  "a.txt": "needle one\nno\nneedle needle two\n",
  "b.md": "needle in markdown\r\nsecond\r\n",
  "docs/guide.md": "docs needle\n",
  "docs/deep/more.md": "deeper needle\n",
  "docs/notes.txt": "needle txt\n",
  "src/x.ts": "const needle = 1;\n",
  "src/sub/y.ts": "// needle\n",
  "src/sub/y.js": "// needle\n",
  ".hidden/h.txt": "hidden needle\n",
  ".env": "needle=1\n",
  ".git/config": "needle in git\n",
  "sub/.git": "gitdir: needle\n",
  ".gitignore": "build/\n*.log\n!keep.log\n",
  "build/out.js": "needle built\n",
  "app.log": "needle log\n",
  "keep.log": "needle kept\n",
  "pkg/.gitignore": "gen.txt\n!../app.log\n",
  "pkg/gen.txt": "needle generated\n",
  "pkg/src.txt": "needle source\n",
  "bin.dat": Buffer.concat([
    Buffer.from("needle before nul\n"),
    Buffer.alloc(70000, 0x61),
    Buffer.from("\n\0needle after\n"),
  ]),
  "latin1.txt": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a]),
  "huge.txt": "needle\n" + "x".repeat(60_000) + "\n",
  "unicodé/naïve.txt": "needle ünïcode\n",
  ".fathomignore": "private/\n",
  "private/p.txt": "needle private\n",
  "many.txt": "needle\n".repeat(40),
  "foo..bar.txt": "needle dots\n",
});
mkdirSync(path.join(s.outside, "d"));
symlinkSync(path.join(s.outside, "d"), path.join(s.root, "link-out"));
symlinkSync(path.join(s.root, "docs"), path.join(s.root, "link-in"));
after(s.cleanup);

const opts = { rootDir: s.root, maxFileSizeMb: 0.05 };
const node = new FilesystemBackend({ ...opts, ripgrepPath: null });
const rgPath = findRipgrep(undefined);
const rg = new FilesystemBackend({ ...opts, ripgrepPath: rgPath ?? "/nonexistent/rg" });

describe("search engines", () => {
  it("ripgrep is found on PATH (the test machine has /usr/bin/rg)", () => {
    assert.equal(rg.searchEngine, rgPath ? "ripgrep" : "node");
    assert.equal(node.searchEngine, "node");
    assert.ok(rgPath, "install ripgrep to test both engines");
  });

  it("grep results (content) are what the rules say", async () => {
    const r = await node.grep("needle");
    const paths = [...new Set(r.matches?.map((m) => m.path))];
    assert.deepEqual(paths, [
      "/.env",
      "/.hidden/h.txt",
      "/a.txt",
      "/b.md",
      "/docs/deep/more.md",
      "/docs/guide.md",
      "/docs/notes.txt",
      "/foo..bar.txt",
      "/keep.log",
      "/latin1.txt",
      "/many.txt",
      "/pkg/src.txt",
      "/src/sub/y.js",
      "/src/sub/y.ts",
      "/src/x.ts",
      "/unicodé/naïve.txt",
    ]);
    assert.deepEqual(
      r.matches?.filter((m) => m.path === "/a.txt"),
      [
        { path: "/a.txt", line: 1, text: "needle one" },
        { path: "/a.txt", line: 3, text: "needle needle two" },
      ],
    );
    assert.equal(r.matches?.find((m) => m.path === "/b.md")?.text, "needle in markdown");
    assert.equal(r.matches?.find((m) => m.path === "/latin1.txt")?.text, "needle \uFFFD");
  });

  const queries: [string, string | undefined, string | undefined][] = [
    ["needle", undefined, undefined],
    ["needle", "/docs", undefined],
    ["needle", "/", "*.md"],
    ["needle", "/", "docs/*.md"],
    ["needle", "/", "docs/**/*.md"],
    ["needle", "/src", "sub/*.ts"],
    ["needle", "/src", "*.{ts,js}"],
    ["needle", "/a.txt", undefined],
    ["needle", "/build", undefined],
    ["needle", "/pkg", undefined],
    ["needle", "/link-in", undefined],
    ["needle needle", undefined, undefined],
    ["ünïcode", undefined, undefined],
    ["-needle", undefined, undefined],
    ["absent-string", undefined, undefined],
  ];
  const modes: GrepOutputMode[] = ["content", "files_with_matches", "count"];
  for (const [pat, p, g] of queries) {
    for (const mode of modes) {
      it(`parity: grep ${JSON.stringify(pat)} path=${p} glob=${g} ${mode}`, async () => {
        const a = await rg.grep(pat, p, g, { outputMode: mode });
        const b = await node.grep(pat, p, g, { outputMode: mode });
        assert.equal(a.error, undefined);
        assert.deepEqual(a, b);
      });
    }
  }
  it("parity: truncation keeps the same first results", async () => {
    for (const mode of modes) {
      const a = await rg.grep("needle", "/", undefined, { outputMode: mode, maxResults: 7 });
      const b = await node.grep("needle", "/", undefined, { outputMode: mode, maxResults: 7 });
      assert.equal(a.truncated, true);
      assert.equal(a.matches?.length, 7);
      assert.deepEqual(a, b);
    }
  });
  it("count mode counts matching lines", async () => {
    const r = await node.grep("needle", "/", undefined, { outputMode: "count" });
    assert.equal(r.counts?.["/many.txt"], 40);
    assert.equal(r.counts?.["/a.txt"], 2);
  });
  it("a single file path searches only that file; ignored single files are refused", async () => {
    assert.deepEqual((await rg.grep("needle", "/docs/guide.md")).matches, [
      { path: "/docs/guide.md", line: 1, text: "docs needle" },
    ]);
    assert.match((await rg.grep("needle", "/private/p.txt")).error ?? "", /fathomignore/);
  });
  it("bad patterns are errors, not throws", async () => {
    assert.ok((await rg.grep("")).error);
    assert.ok((await rg.grep("a\nb")).error);
    assert.ok((await rg.grep("x", "/../etc")).error);
  });

  const globs: [string, string | undefined][] = [
    ["**/*.md", undefined],
    ["*.md", undefined],
    ["*.md", "/docs"],
    ["**/*", undefined],
    ["**/*.{ts,js}", "/src"],
    ["**/*.log", undefined],
    ["*", "/pkg"],
    ["docs/**", undefined],
    ["/docs/*.md", undefined],
    ["**/.*", undefined],
  ];
  for (const [pat, p] of globs) {
    it(`parity: glob ${pat} under ${p ?? "/"}`, async () => {
      const a = await rg.glob(pat, p);
      const b = await node.glob(pat, p);
      assert.equal(a.error, undefined);
      assert.deepEqual(
        a.files?.map((f) => f.path),
        b.files?.map((f) => f.path),
      );
    });
  }
  it("glob: minimatch semantics, files only, sorted, .git and ignored files skipped", async () => {
    assert.deepEqual(
      (await node.glob("*.md")).files?.map((f) => f.path),
      ["/b.md"],
    );
    assert.deepEqual(
      (await node.glob("**/*.md", "/docs")).files?.map((f) => f.path),
      ["/docs/deep/more.md", "/docs/guide.md"],
    );
    const all = ((await node.glob("**/*")).files ?? []).map((f) => f.path);
    assert.ok(all.includes("/.env") && all.includes("/keep.log") && all.includes("/bin.dat"));
    for (const gone of [
      "/.git/config",
      "/sub/.git",
      "/build/out.js",
      "/app.log",
      "/pkg/gen.txt",
      "/private/p.txt",
      "/link-out",
      "/docs/",
    ]) {
      assert.ok(!all.includes(gone), gone);
    }
    assert.deepEqual(all, [...all].sort());
    assert.ok((await node.glob("../*")).error);
  });
  it("glob arguments: a leading / starts at the root whatever the folder; empty and '..' patterns are refused", async () => {
    assert.deepEqual(
      (await node.glob("/docs/*.md", "/src")).files?.map((f) => f.path),
      ["/docs/guide.md"],
    );
    assert.match((await node.glob("  ")).error ?? "", /pattern must be a glob/);
    assert.match((await node.glob("docs/../../*")).error ?? "", /may not contain '\.\.'/);
    assert.match((await node.glob("*.md", "/b.md")).error ?? "", /is a file; glob needs a folder/);
  });
  it("glob caps with a truncation flag", async () => {
    const small = new FilesystemBackend({ ...opts, ripgrepPath: null, maxGlobResults: 3 });
    const r = await small.glob("**/*");
    assert.equal(r.files?.length, 3);
    assert.equal(r.truncated, true);
  });
});

describe("ripgrep candidates are checked in path order", () => {
  // rg -l lists files whose NUL byte comes far after the first match, and files over the size
  // limit; both are dropped when read, so a small cap must look past the first cap + 1 paths.
  const far = (): Buffer =>
    Buffer.concat([Buffer.from("needle first\n"), Buffer.alloc(200_000, 0x61), Buffer.from("\n\0\n")]);
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < 6; i++) files[`a${i}.bin`] = far();
  for (let i = 0; i < 4; i++) files[`b${i}.txt`] = "needle\n" + "y".repeat(80_000) + "\n";
  for (let i = 0; i < 30; i++) files[`c${String(i).padStart(2, "0")}.txt`] = `needle ${i}\nneedle again\n`;
  const s = makeSandbox(files);
  after(s.cleanup);
  const rgPath = findRipgrep(undefined);
  it("gives what the Node engine gives, for every cap", { skip: !rgPath }, async () => {
    const rg = new FilesystemBackend({ rootDir: s.root, ripgrepPath: rgPath, maxFileSizeMb: 0.05 });
    const node = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null, maxFileSizeMb: 0.05 });
    for (const mode of ["content", "files_with_matches", "count"] as GrepOutputMode[]) {
      for (const cap of [1, 2, 5, 9, 16, 29, 30, 31, 59, 60, 61, 100]) {
        const a = await rg.grep("needle", "/", undefined, { outputMode: mode, maxResults: cap });
        assert.deepEqual(
          a,
          await node.grep("needle", "/", undefined, { outputMode: mode, maxResults: cap }),
          `${mode} ${cap}`,
        );
        assert.equal(a.matches?.[0]?.path, "/c00.txt", `${mode} ${cap}`);
      }
    }
  });
});

describe("glob **/*.ext", () => {
  const names = [
    ".ts",
    "a.ts",
    "a.ts.bak",
    "a.TS",
    "ats",
    ".hidden/b.ts",
    "d/.c.ts",
    "d/e/f.ts",
    "d/e.ts/g.js",
    "d/e.ts/h.ts",
    "sp ace/ü.ts",
    "x.tsx",
  ];
  const s = makeSandbox(Object.fromEntries(names.map((n) => [n, "x\n"])));
  after(s.cleanup);
  it("lists what minimatch (dot: true) matches, with either engine, from the root or a folder", async () => {
    const rgPath = findRipgrep(undefined);
    for (const ripgrepPath of [rgPath, null]) {
      const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath });
      for (const [pat, base] of [
        ["**/*.ts", "/"],
        ["**/*.ts", "/d"],
        ["**/*.tsx", "/"],
      ] as const) {
        const mm = new Minimatch(pat, { dot: true });
        const prefix = base === "/" ? "" : base.slice(1) + "/";
        const want = names
          .filter((n) => n.startsWith(prefix) && mm.match(n.slice(prefix.length)))
          .map((n) => "/" + n)
          .sort();
        assert.deepEqual(
          (await b.glob(pat, base)).files?.map((f) => f.path),
          want,
          `${pat} ${base} ${ripgrepPath}`,
        );
      }
    }
  });
});
