import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { HeadTailBuffer } from "../../../src/core/executor/types";

const posix = process.platform !== "win32";
const dir = mkdtempSync(path.join(tmpdir(), "fathom-exec-"));
const exec = new ChildProcessExecutor({ shell: "/bin/sh", killGraceMs: 300 });

/** Running (a zombie waiting for a reaper counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return true;
  }
}

test("runs in the cwd and reports output and exit code", { skip: !posix }, async () => {
  const result = await exec.run("pwd; echo err >&2; exit 3", { cwd: dir, timeoutMs: 5000 });
  assert.equal(result.exitCode, 3);
  assert.match(result.output, new RegExp(path.basename(dir)));
  assert.match(result.output, /err/);
  assert.equal(result.timedOut, false);
  assert.match(result.via, /child process \(\/bin\/sh\)/);
});

test("streams output as it arrives", { skip: !posix }, async () => {
  const chunks: string[] = [];
  await exec.run("echo a; sleep 0.05; echo b", { cwd: dir, timeoutMs: 5000, onOutput: (c) => chunks.push(c) });
  assert.equal(chunks.join(""), "a\nb\n");
  assert.ok(chunks.length >= 2);
});

test("long output keeps head and tail with a note", { skip: !posix }, async () => {
  const result = await exec.run("seq 1 100000", { cwd: dir, timeoutMs: 10000, maxOutputChars: 2000 });
  assert.equal(result.truncated, true);
  assert.match(result.output, /^1\n2\n3\n/);
  assert.match(result.output, /100000\n?$/);
  assert.match(result.output, /characters of output omitted/);
  assert.ok(result.output.length < 2200);
});

test("timeout kills the whole process tree", { skip: !posix }, async () => {
  const pidFile = path.join(dir, "grandchild.pid");
  const started = Date.now();
  const result = await exec.run(`sh -c 'echo $$ > ${pidFile}; sleep 30' & wait`, { cwd: dir, timeoutMs: 300 });
  assert.equal(result.timedOut, true);
  assert.ok(Date.now() - started < 5000);
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(pid), false, "grandchild still alive");
});

test("abort kills the tree and reports cancelled", { skip: !posix }, async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const result = await exec.run("sleep 30", { cwd: dir, timeoutMs: 10000, signal: controller.signal });
  assert.equal(result.cancelled, true);
  assert.notEqual(result.exitCode, 0);
});

test("a background job holding the pipes does not hang the call", { skip: !posix }, async () => {
  const started = Date.now();
  const result = await exec.run("sleep 30 & echo started", { cwd: dir, timeoutMs: 10000 });
  assert.equal(result.exitCode, 0);
  assert.match(result.output, /started/);
  assert.ok(Date.now() - started < 3000);
});

test("a missing cwd is an error result, not a throw", async () => {
  const result = await exec.run("echo hi", { cwd: path.join(dir, "missing"), timeoutMs: 2000 });
  assert.notEqual(result.exitCode, 0);
  assert.equal(existsSync(path.join(dir, "missing")), false);
});

test("HeadTailBuffer keeps exact text when short", () => {
  const b = new HeadTailBuffer(10);
  b.push("abc");
  b.push("def");
  assert.equal(b.text(), "abcdef");
  assert.equal(b.truncated, false);
  for (let i = 0; i < 100; i++) b.push("xyz");
  assert.equal(b.truncated, true);
  assert.match(b.text(), /^abcde\n\n\[\.\.\. \d+ characters of output omitted \.\.\.\]\n\nyzxyz$/);
});
