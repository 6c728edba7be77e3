// The CLI's question about a repository's hooks: shown with every command, only "y" runs them,
// --allow-workspace-hooks without asking, and never where the sandbox cannot run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { cliHooks } from "../../../src/cli/cliHooks";

function repo(): string {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-clihooks-"));
  mkdirSync(path.join(root, ".fathom"));
  writeFileSync(
    path.join(root, ".fathom", "hooks.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "execute", hooks: [{ type: "command", command: "./audit.sh" }] }] },
    }),
  );
  return root;
}

function terminal(answer: string) {
  const input = new PassThrough() as PassThrough & { isTTY?: boolean };
  const output = new PassThrough();
  let shown = "";
  output.on("data", (d: Buffer) => {
    shown += d.toString();
    if (shown.includes("Run them? [y]es / [N]o:")) input.write(`${answer}\n`);
  });
  return { io: { input, output, onInterrupt: () => undefined }, shown: () => shown };
}

const err = () => {
  const s = new PassThrough();
  let text = "";
  s.on("data", (d: Buffer) => (text += d.toString()));
  return Object.assign(s, { text: () => text });
};

test("at a terminal the repository's hooks are shown and run only on yes; the flag skips the question; no sandbox, no hooks", async () => {
  const root = repo();
  const env = { XDG_CONFIG_HOME: path.join(root, "no-config") };
  const saved = { ...process.env };
  Object.assign(process.env, env, { HOME: path.join(root, "no-home") });
  try {
    const yes = terminal("y");
    const ran = await cliHooks({ repoRoot: root, allowWorkspaceHooks: false, sandbox: undefined }, yes.io, err());
    assert.deepEqual(
      ran.map((h) => [h.command, h.origin]),
      [["./audit.sh", "workspace"]],
    );
    assert.match(
      yes.shown(),
      /This repository defines a hook, programs written by whoever wrote it:\n {2}PreToolUse \[execute\]: \.\/audit\.sh \(\.fathom\/hooks\.json\)/,
    );

    const no = terminal("n");
    const noErr = err();
    assert.deepEqual(
      await cliHooks({ repoRoot: root, allowWorkspaceHooks: false, sandbox: undefined }, no.io, noErr),
      [],
    );
    assert.match(noErr.text(), /not running the 1 hooks this repository defines/);

    assert.equal(
      (await cliHooks({ repoRoot: root, allowWorkspaceHooks: true, sandbox: undefined }, undefined, err())).length,
      1,
    );
    const noSandbox = err();
    assert.deepEqual(
      await cliHooks({ repoRoot: root, allowWorkspaceHooks: true, sandbox: null }, undefined, noSandbox),
      [],
    );
    assert.match(noSandbox.text(), /they run only in the OS sandbox, which cannot run here/);
  } finally {
    process.env = saved;
  }
});
