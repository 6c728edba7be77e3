import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rankPaths, scorePath } from "../../../src/host/chatView/fuzzyFiles";

const paths = [
  "/src/slugify.js",
  "/test/slugify.test.js",
  "/src/server/session/login.ts",
  "/docs/styles/guide.md",
  "/package.json",
  "/src/util/string.ts",
];

describe("@ file picker ranking", () => {
  it("matches characters in order across folders, case-insensitively", () => {
    assert.ok(scorePath("/src/server/session/login.ts", "sslog") !== undefined);
    assert.equal(scorePath("/src/slugify.js", "xyz"), undefined);
    assert.equal(scorePath("/src/slugify.js", "yfs"), undefined, "order matters");
    assert.deepEqual(rankPaths(paths, "SLUG"), ["/src/slugify.js", "/test/slugify.test.js"]);
  });

  it("prefers file-name and word-start matches over scattered ones", () => {
    assert.equal(rankPaths(paths, "str")[0], "/src/util/string.ts");
    assert.equal(rankPaths(paths, "pkg")[0], "/package.json");
    assert.equal(rankPaths(paths, "login")[0], "/src/server/session/login.ts");
  });

  it("with no query lists the shortest paths first, capped", () => {
    assert.deepEqual(rankPaths(paths, "", 2), ["/package.json", "/src/slugify.js"]);
  });
});
