// The result of a sandboxed command names what the sandbox refused, from the tools' own error
// lines: the path of a refused write, and a read of a location the sandbox hides.
import { test } from "node:test";
import assert from "node:assert/strict";
import { refusalsInOutput } from "../../../src/core/executor/sandboxRefusals";

const denied = ["/home/me/.ssh", "/home/me/.aws", "/home/me/.config/fathom"];

test("refused writes are named by path, whatever tool printed them", () => {
  const lines: [string, string][] = [
    ["sh: 1: cannot create ../escaped.txt: Read-only file system", "../escaped.txt"],
    ["/usr/bin/bash: line 2: /tmp/x.txt: Read-only file system", "/tmp/x.txt"],
    ["touch: cannot touch '/etc/hosts': Read-only file system", "/etc/hosts"],
    ["mkdir: cannot create directory ‘/opt/new’: Read-only file system", "/opt/new"],
    ["Error: EROFS: read-only file system, open '/home/me/.bashrc'", "/home/me/.bashrc"],
    ["OSError: [Errno 30] Read-only file system: '/var/tmp/cache'", "/var/tmp/cache"],
  ];
  for (const [line, path] of lines)
    assert.deepEqual(refusalsInOutput(`ok\n${line}\n`, denied), [`a write to ${path} (outside the workspace)`], line);
  assert.deepEqual(refusalsInOutput("Read-only file system\n", denied), ["a write outside the workspace"]);
});

test("reads of hidden locations are named; other failures and mentions are not", () => {
  assert.deepEqual(refusalsInOutput("cat: /home/me/.ssh/id_ed25519: No such file or directory\n", denied), [
    "a read of /home/me/.ssh/id_ed25519 (a secret location the sandbox hides)",
  ]);
  assert.deepEqual(
    refusalsInOutput("Error: ENOENT: no such file or directory, open '/home/me/.aws/credentials'\n", denied),
    ["a read of /home/me/.aws/credentials (a secret location the sandbox hides)"],
  );
  assert.deepEqual(refusalsInOutput("cat: /home/me/src/app.ts: No such file or directory\n", denied), []);
  assert.deepEqual(
    refusalsInOutput("Using keys from /home/me/.ssh\n", denied),
    [],
    "a mention without an error is not a refusal",
  );
  assert.deepEqual(refusalsInOutput("", []), []);
});

test("many refusals are capped and each is said once", () => {
  const output = Array.from({ length: 50 }, (_, i) => `touch: cannot touch '/x${i % 7}': Read-only file system`).join(
    "\n",
  );
  const found = refusalsInOutput(output, denied);
  assert.equal(found.length, 5);
  assert.equal(new Set(found).size, 5);
});
