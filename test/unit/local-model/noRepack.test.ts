// When llama-server is started with --no-repack: only on a CPU with AMX and a binary that may have
// been built with it (install-local-model.sh's `no-amx` marker in its folder says it was not).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NO_AMX_MARKER, needsNoRepack } from "../../local-model/localModel";

function serverDir(marker: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-llama-server-"));
  mkdirSync(path.join(dir, "bin"));
  writeFileSync(path.join(dir, "bin", "llama-server"), "");
  if (marker) writeFileSync(path.join(dir, NO_AMX_MARKER), "");
  return path.join(dir, "bin", "llama-server");
}

test("a CPU with AMX and a server built before the no-AMX build: --no-repack", () => {
  assert.equal(needsNoRepack(serverDir(false), true), true);
});

test("a CPU with AMX and a server built without AMX (marker beside bin/): no --no-repack", () => {
  assert.equal(needsNoRepack(serverDir(true), true), false);
});

test("a CPU without AMX: never --no-repack", () => {
  assert.equal(needsNoRepack(serverDir(false), false), false);
  assert.equal(needsNoRepack(serverDir(true), false), false);
});
