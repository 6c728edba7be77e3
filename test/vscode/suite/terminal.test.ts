// The integrated-terminal executor, in a real extension host: output and exit codes through
// shell integration, commands left running past their timeout, cancel, focus, and the
// child-process fallback when a shell has no shell integration.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { ChildProcessExecutor } from "../../../src/core";
import { TerminalExecutor } from "../../../src/host/terminal/terminalExecutor";

function workspaceRoot(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.tmpdir();
}

function logChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel("Fathom terminal tests", { log: true });
}

suite("Terminal executor", function () {
  this.timeout(60_000);
  let executor: TerminalExecutor;
  let log: vscode.LogOutputChannel;

  setup(() => {
    log = logChannel();
    executor = new TerminalExecutor({
      fallback: new ChildProcessExecutor(),
      log,
      shellPath: "/bin/bash",
      terminalName: "Fathom test",
      shellIntegrationTimeoutMs: 15_000,
    });
  });
  teardown(() => {
    executor.dispose();
    for (const t of vscode.window.terminals) if (t.name.startsWith("Fathom test")) t.dispose();
    log.dispose();
  });

  test("returns the output and exit code of a failing command, run in the terminal", async () => {
    const chunks: string[] = [];
    const result = await executor.run("printf 'first line\\nsecond line\\n'; (exit 3)", {
      cwd: workspaceRoot(),
      timeoutMs: 30_000,
      onOutput: (c) => chunks.push(c),
    });
    assert.match(result.via, /terminal .*shell integration/);
    assert.equal(result.exitCode, 3);
    assert.match(result.output, /first line\nsecond line/);
    // eslint-disable-next-line no-control-regex -- checks that no escape character is left
    assert.doesNotMatch(result.output, /\x1b|\]633;/, "escape sequences are stripped");
    assert.match(chunks.join(""), /second line/, "output streamed while running");
    assert.ok(
      vscode.window.terminals.some((t) => t.name === "Fathom test"),
      "the terminal is visible to the person",
    );
  });

  test("reuses the idle terminal and reports success", async () => {
    await executor.run("true", { cwd: workspaceRoot(), timeoutMs: 30_000 });
    const before = vscode.window.terminals.filter((t) => t.name.startsWith("Fathom test")).length;
    const result = await executor.run('echo "cwd=$(pwd)"', { cwd: workspaceRoot(), timeoutMs: 30_000 });
    assert.equal(result.exitCode, 0);
    assert.match(result.output, new RegExp(`cwd=${workspaceRoot().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    assert.equal(vscode.window.terminals.filter((t) => t.name.startsWith("Fathom test")).length, before);
  });

  test("a command's cd does not move the next one: it runs in the folder asked for, even after that folder is gone", async () => {
    const sub = `fathom-cd-${process.pid}`;
    const moved = await executor.run(`mkdir -p ${sub} && cd ${sub} && pwd`, {
      cwd: workspaceRoot(),
      timeoutMs: 30_000,
    });
    assert.equal(moved.exitCode, 0);
    fs.rmdirSync(path.join(workspaceRoot(), sub)); // the shell is still in it
    const result = await executor.run('echo "cwd=$(pwd)"', { cwd: workspaceRoot(), timeoutMs: 30_000 });
    assert.equal(result.exitCode, 0);
    assert.match(result.output, new RegExp(`cwd=${workspaceRoot().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`));
  });

  test("leaves a long command running at its timeout, then reads more and stops it", async () => {
    const result = await executor.run('for i in $(seq 1 200); do echo "tick $i"; sleep 0.2; done', {
      cwd: workspaceRoot(),
      timeoutMs: 1500,
    });
    assert.equal(result.timedOut, true);
    assert.equal(result.stillRunning, true);
    assert.ok(result.handle, "a handle to read more later");
    assert.match(result.output, /tick 1\b/);
    await new Promise((r) => setTimeout(r, 1500));
    const later = executor.background.read(result.handle!);
    assert.ok(later, "the handle is known");
    assert.equal(later.running, true);
    assert.match(later.output, /tick \d+/);
    assert.doesNotMatch(later.output, /tick 1\n/, "only output that arrived after the first result");
    const stopped = await executor.stopBackground(result.handle!);
    assert.equal(stopped?.running, false);
    // A new command does not wait for (or run inside) the stopped one.
    const next = await executor.run("echo after", { cwd: workspaceRoot(), timeoutMs: 30_000 });
    assert.equal(next.exitCode, 0);
    assert.match(next.output, /after/);
  });

  test("cancel interrupts a running command promptly", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 1000);
    const result = await executor.run("sleep 60", {
      cwd: workspaceRoot(),
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    assert.equal(result.cancelled, true);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    const after = await executor.run("echo still-usable", { cwd: workspaceRoot(), timeoutMs: 30_000 });
    assert.match(after.output, /still-usable/);
  });

  test("does not take focus from the editor the person is typing in", async () => {
    const doc = await vscode.workspace.openTextDocument({ content: "typing here", language: "plaintext" });
    await vscode.window.showTextDocument(doc);
    assert.equal(vscode.window.activeTextEditor?.document, doc);
    await executor.run("echo focus", { cwd: workspaceRoot(), timeoutMs: 30_000 });
    assert.equal(vscode.window.activeTextEditor?.document, doc);
    // Revert first: closing a modified untitled document would open a save prompt.
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  test("falls back to a child process, and says so, when the shell has no shell integration", async () => {
    const plain = new TerminalExecutor({
      fallback: new ChildProcessExecutor(),
      log,
      shellPath: "/bin/sh",
      terminalName: "Fathom test sh",
      shellIntegrationTimeoutMs: 1500,
    });
    try {
      const result = await plain.run("echo from-fallback; exit 4", { cwd: workspaceRoot(), timeoutMs: 30_000 });
      assert.match(result.via, /child process.*shell integration was not available/);
      assert.equal(result.exitCode, 4);
      assert.match(result.output, /from-fallback/);
    } finally {
      plain.dispose();
    }
  });
});
