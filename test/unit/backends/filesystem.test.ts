import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, utimesSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { makeSandbox } from "./helpers";

describe("read", () => {
  const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const s = makeSandbox({
    "a.txt": "alpha\nbeta\n",
    "nofinal.txt": "x\ny",
    "crlf.txt": "one\r\ntwo\r\n",
    "bom.txt": "\uFEFFbom\n",
    "empty.txt": "",
    "long.txt": "a".repeat(12000) + "\nshort\n",
    "many.txt": lines,
    "nul.bin": Buffer.from([104, 105, 0, 1, 2]),
    "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    "dir/x.txt": "x",
  });
  after(s.cleanup);
  const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null, maxFileSizeMb: 0.01 });
  const cases: [string, string, number | undefined, number | undefined, RegExp][] = [
    ["cat -n format", "/a.txt", undefined, undefined, /^ {5}1\talpha\n {5}2\tbeta$/],
    ["no final newline", "/nofinal.txt", undefined, undefined, /^ {5}1\tx\n {5}2\ty$/],
    ["CRLF shown without \\r", "/crlf.txt", undefined, undefined, /^ {5}1\tone\n {5}2\ttwo$/],
    ["BOM hidden", "/bom.txt", undefined, undefined, /^ {5}1\tbom$/],
    ["empty file reminder", "/empty.txt", undefined, undefined, /empty/],
    ["long lines split", "/long.txt", 0, 10, /^ {3}1\.1\ta{5000}\n {3}1\.2\ta{5000}\n {3}1\.3\ta{2000}\n {5}2\tshort$/],
    [
      "offset and limit",
      "/many.txt",
      2100,
      2,
      /^ {2}2101\tline 2101\n {2}2102\tline 2102\n\n\(Showing lines 2101-2102/,
    ],
  ];
  for (const [name, p, o, l, re] of cases) {
    it(name, async () => assert.match((await b.read(p, o, l)).content ?? String((await b.read(p, o, l)).error), re));
  }
  it("default window is 2000 lines", async () => {
    const big = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
    const c = (await big.read("/many.txt")).content ?? "";
    assert.match(c, / {2}2000\tline 2000\n\n\(Showing lines 1-2000\. Use offset=2000/);
    assert.doesNotMatch(c, /line 2001/);
  });
  it("windows deep in a multi-chunk file match a plain split (line index, chunk edges, no final newline)", async () => {
    const all = Array.from({ length: 120_000 }, (_, i) => `row ${i + 1} ${"v".repeat(i % 97)}`);
    writeFileSync(path.join(s.root, "rows.txt"), all.join("\n"));
    const big = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
    for (const [o, l] of [
      [0, 3],
      [1023, 3],
      [1024, 2],
      [65_537, 5],
      [119_998, 10],
      [50_000, 1],
      [3, 2],
    ] as const) {
      const want = all
        .slice(o, o + l)
        .map((t, k) => `${String(o + k + 1).padStart(6)}\t${t}`)
        .join("\n");
      const got = (await big.read("/rows.txt", o, l)).content ?? "";
      assert.equal(got.split("\n\n(")[0], want, `offset ${o}`);
    }
    assert.match((await big.read("/rows.txt", 120_000, 5)).error ?? "", /120000 lines/);
    // A changed file is not served from the old line index.
    writeFileSync(path.join(s.root, "rows.txt"), "changed\n".repeat(2000));
    assert.match((await big.read("/rows.txt", 1500, 1)).content ?? "", /^ {2}1501\tchanged\n/);
  });
  const errors: [string, string, number | undefined, RegExp][] = [
    ["offset past the end names the length", "/a.txt", 5, /past the end.*2 lines/],
    ["binary (NUL)", "/nul.bin", undefined, /binary/],
    ["binary (invalid UTF-8)", "/latin1.txt", undefined, /binary|UTF-8/],
    ["a directory", "/dir", undefined, /folder/],
    ["missing", "/nope.txt", undefined, /not found/],
    ["over the size limit suggests offset/limit", "/many.txt", undefined, /limit.*offset and limit/],
  ];
  for (const [name, p, o, re] of errors) {
    it(name, async () => assert.match((await b.read(p, o)).error ?? "", re));
  }
  it("refuses a FIFO without hanging", async () => {
    execFileSync("mkfifo", [path.join(s.root, "pipe")]);
    assert.match((await b.read("/pipe")).error ?? "", /not a regular file/);
    assert.match((await b.edit("/pipe", "a", "b")).error ?? "", /not a regular file/);
  });
});

describe("write and edit", () => {
  const s = makeSandbox();
  after(s.cleanup);
  const b = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
  const file = (rel: string) => path.join(s.root, rel);
  const editCases: {
    name: string;
    before: string | Buffer;
    old: string;
    neu: string;
    all?: boolean;
    want?: string;
    err?: RegExp;
    n?: number;
  }[] = [
    { name: "single replacement", before: "a b c\n", old: "b", neu: "B", want: "a B c\n", n: 1 },
    {
      name: "CRLF kept, model used LF",
      before: "x\r\ny\r\nz\r\n",
      old: "x\ny",
      neu: "x\nY\nW",
      want: "x\r\nY\r\nW\r\nz\r\n",
    },
    { name: "CRLF kept, model used CRLF", before: "x\r\ny\r\n", old: "x\r\n", neu: "X\r\n", want: "X\r\ny\r\n" },
    { name: "LF file, model used CRLF", before: "x\ny\n", old: "x\r\ny", neu: "q\r\nr", want: "q\nr\n" },
    { name: "BOM kept", before: "\uFEFFhello\n", old: "hello", neu: "bye", want: "\uFEFFbye\n" },
    {
      name: "final newline kept when old_string ate it",
      before: "a\nlast\n",
      old: "last\n",
      neu: "end",
      want: "a\nend\n",
    },
    { name: "absence of final newline kept", before: "a\nlast", old: "last", neu: "end\n", want: "a\nend" },
    {
      name: "0 matches shows closest lines",
      before: "function handleRequest(req) {\n}\n",
      old: "function handleRequests(req) {",
      neu: "x",
      err: /not found[\s\S]*Closest lines:\n\s+1\tfunction handleRequest/,
    },
    {
      name: "whitespace hint",
      before: "if (a) {\n    go();\n}\n",
      old: "if (a) {\n  go();",
      neu: "x",
      err: /different whitespace/,
    },
    { name: ">1 without replace_all gives the count", before: "x x x\n", old: "x", neu: "y", err: /appears 3 times/ },
    {
      name: "replace_all counts non-overlapping",
      before: "aaaa\n",
      old: "aa",
      neu: "b",
      all: true,
      want: "bb\n",
      n: 2,
    },
    {
      name: "replace_all with $ patterns is literal",
      before: "a a\n",
      old: "a",
      neu: "$&$1",
      all: true,
      want: "$&$1 $&$1\n",
      n: 2,
    },
    { name: "empty old_string", before: "a\n", old: "", neu: "b", err: /empty/ },
    { name: "identical strings", before: "a\n", old: "a", neu: "a", err: /identical/ },
    { name: "binary file", before: Buffer.from([0, 1, 2]), old: "a", neu: "b", err: /binary/ },
  ];
  editCases.forEach((c, i) => {
    it(`edit: ${c.name}`, async () => {
      const rel = `e${i}.txt`;
      writeFileSync(file(rel), c.before);
      const r = await b.edit("/" + rel, c.old, c.neu, c.all);
      if (c.err) {
        assert.match(r.error ?? "", c.err);
        assert.deepEqual(readFileSync(file(rel)), Buffer.from(c.before));
      } else {
        assert.equal(r.error, undefined);
        assert.equal(readFileSync(file(rel), "utf8"), c.want);
        if (c.n !== undefined) assert.equal(r.occurrences, c.n);
      }
    });
  });

  it("write creates parent folders; no temp files are left", async () => {
    assert.deepEqual(await b.write("/new/deep/f.txt", "hi\n"), { path: "/new/deep/f.txt" });
    assert.equal(readFileSync(file("new/deep/f.txt"), "utf8"), "hi\n");
    assert.deepEqual(readdirSync(file("new/deep")), ["f.txt"]);
  });
  it("write over an existing file needs a read first, and keeps the mode", async () => {
    writeFileSync(file("w.sh"), "old\n");
    chmodSync(file("w.sh"), 0o755);
    assert.match((await b.write("/w.sh", "new\n")).error ?? "", /Read it with read_file first/);
    await b.read("/w.sh");
    assert.equal((await b.write("/w.sh", "new\n")).error, undefined);
    assert.equal(statSync(file("w.sh")).mode & 0o777, 0o755);
    assert.equal(readFileSync(file("w.sh"), "utf8"), "new\n");
  });
  it("stale-write guard: a file changed on disk since the last read is refused for write and edit", async () => {
    writeFileSync(file("s.txt"), "v1\n");
    await b.read("/s.txt");
    writeFileSync(file("s.txt"), "v2 by a person\n");
    utimesSync(file("s.txt"), new Date(), new Date(Date.now() + 5000));
    assert.match((await b.edit("/s.txt", "v2", "v3")).error ?? "", /changed on disk.*Read it again/);
    assert.match((await b.write("/s.txt", "mine")).error ?? "", /changed on disk.*Read it again/);
    assert.equal(readFileSync(file("s.txt"), "utf8"), "v2 by a person\n");
    await b.read("/s.txt");
    assert.equal((await b.edit("/s.txt", "v2", "v3")).error, undefined);
    // Our own write counts as seen: a second edit works without re-reading.
    assert.equal((await b.edit("/s.txt", "v3", "v4")).error, undefined);
  });
  it("commitChange refuses when the file no longer equals `before`", async () => {
    writeFileSync(file("c.txt"), "base\n");
    const p = await b.prepareEdit("/c.txt", "base", "mine");
    assert.ok(!("error" in p));
    if ("error" in p) return;
    assert.equal(readFileSync(file("c.txt"), "utf8"), "base\n", "prepare writes nothing");
    writeFileSync(file("c.txt"), "theirs\n");
    assert.match((await b.commitChange(p.path, p.before, p.after)).error ?? "", /changed on disk/);
    assert.equal(readFileSync(file("c.txt"), "utf8"), "theirs\n");
    assert.match((await b.commitChange("/brand-new.txt", "x", "y")).error ?? "", /changed/);
  });
  it("a person-modified `after` is written as approved", async () => {
    const p = await b.prepareWrite("/approved.txt", "model text");
    if ("error" in p) assert.fail(p.error);
    assert.equal(p.before, null);
    assert.deepEqual(await b.commitChange(p.path, null, "person text"), { path: "/approved.txt" });
    assert.equal(readFileSync(file("approved.txt"), "utf8"), "person text");
  });
  it("a 2 MB replace_all edit keeps the rest byte-identical", async () => {
    const body = "const value = 1;\r\n".repeat(120_000);
    writeFileSync(file("big.ts"), body);
    const r = await b.edit("/big.ts", "value", "v", true);
    assert.equal(r.occurrences, 120_000);
    assert.equal(readFileSync(file("big.ts"), "utf8"), "const v = 1;\r\n".repeat(120_000));
  });
  it(".git and .fathomignore cannot be written; ignored paths are invisible", async () => {
    mkdirSync(file(".git"), { recursive: true });
    writeFileSync(file(".fathomignore"), "secrets/\n*.key\n");
    writeFileSync(file("id.key"), "KEY");
    mkdirSync(file("secrets"));
    writeFileSync(file("secrets/a.txt"), "S");
    assert.match((await b.write("/.git/config", "x")).error ?? "", /\.git/);
    assert.match((await b.write("/.fathomignore", "")).error ?? "", /only a person/);
    for (const p of ["/id.key", "/secrets/a.txt", "/secrets", "/sub/x.key"]) {
      assert.match((await b.read(p)).error ?? "", /fathomignore/, p);
      assert.match((await b.write(p, "x")).error ?? "", /fathomignore/, p);
      assert.match((await b.edit(p, "S", "x")).error ?? "", /fathomignore/, p);
    }
    const names = ((await b.ls("/")).files ?? []).map((f) => f.path);
    assert.ok(!names.includes("/id.key") && !names.includes("/secrets/"));
    assert.deepEqual((await b.grep("KEY")).matches, []);
  });
});
