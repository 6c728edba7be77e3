// What sandboxed commands may not write in the workspace: the files that make git or an editor
// run code outside the sandbox, in nested repositories too; found without creating anything and
// without reading the whole tree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { protectedInWorkspace } from "../../../src/core/executor/workspaceProtection";

function tree(files: string[]): string {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-protect-"));
  for (const f of files) {
    mkdirSync(path.join(root, f.endsWith("/") ? f : path.dirname(f)), { recursive: true });
    if (!f.endsWith("/")) writeFileSync(path.join(root, f), "x");
  }
  return root;
}

test("the workspace's and nested repositories' git config and hooks, and the editor folders, that exist", () => {
  const root = tree([
    ".git/config",
    ".git/hooks/",
    ".vscode/settings.json",
    "src/a.ts",
    "packages/lib/.git/config",
    "vendor/dep/.git",
    "deep/a/b/.git/config",
    "node_modules/x/.git/config",
  ]);
  const rel = protectedInWorkspace(root)
    .map((p) => path.relative(root, p))
    .sort();
  assert.deepEqual(rel, [".git/config", ".git/hooks", ".vscode", "packages/lib/.git/config", "vendor/dep/.git"].sort());
  assert.deepEqual(
    readdirSync(root).sort(),
    [".git", ".vscode", "deep", "node_modules", "packages", "src", "vendor"],
    "something was created",
  );
});

test("a workspace without any of them protects nothing and makes nothing", () => {
  const root = tree(["README.md"]);
  assert.deepEqual(protectedInWorkspace(root), []);
  assert.deepEqual(readdirSync(root), ["README.md"]);
});

test("a huge tree costs a bounded number of folder reads", () => {
  const root = tree(Array.from({ length: 600 }, (_, i) => `d${i}/e/`));
  const started = performance.now();
  protectedInWorkspace(root);
  assert.ok(performance.now() - started < 2_000);
});
