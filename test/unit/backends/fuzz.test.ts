import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { makeSandbox } from "./helpers";

/** Every file under `dir` with its content (links listed, not followed). */
function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(`${p}=${readFileSync(p, "utf8")}:${statSync(p).mode}`);
      else out.push(`${p} (special)`);
    }
  };
  walk(dir);
  return out.join("\n");
}

describe("fuzz: a symlink farm cannot be used to escape the root", () => {
  const s = makeSandbox({ "a/x.txt": "x CANARY\n", "b/y.txt": "y\n", "x.txt": "top\n" });
  after(s.cleanup);
  mkdirSync(path.join(s.outside, "od"));
  writeFileSync(path.join(s.outside, "od", "canary.txt"), "CANARY-SECRET\n");
  const L = (target: string, name: string): void => symlinkSync(target, path.join(s.root, name));
  L(s.outside, "link-out");
  L(path.join(s.outside, "od"), "a/link-od");
  L(s.canary, "canary.txt");
  L("../outside/canary.txt", "rel-canary.txt");
  L("a", "link-in");
  L("../b", "a/link-b");
  L("loop2", "loop1");
  L("loop1", "loop2");
  L("a/self", "a/self");
  L(path.join(s.outside, "missing"), "dangling");
  L("../../", "a/up2");
  L("/", "slash");
  const before = snapshot(s.outside);

  const seg = fc.constantFrom(
    "a",
    "b",
    "x.txt",
    "y.txt",
    "new.txt",
    "link-out",
    "a/link-od",
    "canary.txt",
    "rel-canary.txt",
    "link-in",
    "link-b",
    "loop1",
    "loop2",
    "self",
    "dangling",
    "up2",
    "slash",
    "od",
    "outside",
    "root",
    "..",
    ".",
    "",
    "~",
    "%2e%2e",
    "..%2f",
    "C:",
    "\\\\srv",
    "foo..bar",
    "\0",
    "etc",
    "passwd",
    "x".repeat(300),
  );
  const pathArb = fc
    .tuple(
      fc.constantFrom("", "/", s.root + "/", s.outside + "/", s.base + "/", "\\", "~/", "//"),
      fc.array(seg, { minLength: 0, maxLength: 6 }),
      fc.constantFrom("/", "\\"),
    )
    .map(([prefix, parts, sep]) => prefix + parts.join(sep));

  const backends = [
    new FilesystemBackend({ rootDir: s.root, ripgrepPath: null }),
    new FilesystemBackend({ rootDir: s.root, ripgrepPath: null, virtualMode: false }),
  ];

  it("thousands of generated paths through every operation: no canary, no change outside, no throw", async () => {
    let ops = 0;
    let written = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(pathArb, fc.integer({ min: 0, max: 1 }), async (p, which) => {
        const b = backends[which] as FilesystemBackend;
        const results: unknown[] = [];
        results.push(await b.read(p));
        results.push(await b.read(p, 0, 5));
        results.push(await b.ls(p));
        const w = await b.write(p, "FUZZ\n");
        if (w.path) written++;
        else refused++;
        results.push(w);
        results.push(await b.edit(p, "CANARY", "PWNED"));
        results.push(await b.edit(p, "x", "FUZZ", true));
        results.push(await b.grep("CANARY", p));
        results.push(await b.glob("**/*", p));
        results.push(await b.prepareWrite(p, "z"));
        results.push(await b.commitChange(p, null, "z"));
        ops += results.length;
        const text = JSON.stringify(results);
        assert.ok(!text.includes("CANARY-SECRET"), `canary leaked via ${JSON.stringify(p)}`);
        assert.equal(readFileSync(s.canary, "utf8"), "CANARY-SECRET\n");
      }),
      { seed: 20240603, numRuns: 400 },
    );
    assert.ok(ops >= 4000);
    assert.ok(
      written > 10 && refused > 100,
      `the generator must hit both sides (written ${written}, refused ${refused})`,
    );
    assert.equal(snapshot(s.outside), before, "nothing outside the root was created or changed");
  });

  it("grep through ripgrep follows no link out of the root either", async () => {
    const b = new FilesystemBackend({ rootDir: s.root });
    await fc.assert(
      fc.asyncProperty(pathArb, async (p) => {
        const r = await b.grep("CANARY-SECRET", p);
        assert.deepEqual(r.matches ?? [], []);
      }),
      { seed: 7, numRuns: 150 },
    );
  });
});
