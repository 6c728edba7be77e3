// Generate Commit Message in a real extension host with VS Code's real git extension, against
// the scripted model server: repositories made in a temp folder, which the git extension has
// not opened (the command opens them), the message read back from the repository's box.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { FathomApi } from "../../../src/host/extension";
import type { CommitMessageOutcome } from "../../../src/host/editor/commitMessageRun";
import type { GitExtensionExports, GitRepository } from "../../../src/host/editor/gitRepositories";
import { faults, startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { until } from "./until";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Person", "-c", "user.email=person@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });

/** A repository outside the workspace with two commits and, unless `clean`, a staged change. */
function repository(o: { clean?: boolean } = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fathom-inhost-commit-")));
  git(dir, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(dir, "greet.js"), 'module.exports = () => "hi";\n');
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Add greet");
  fs.writeFileSync(path.join(dir, "README.md"), "# Greet\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Document greet");
  if (!o.clean) {
    fs.writeFileSync(path.join(dir, "greet.js"), "module.exports = (name) => `hi ${name}`;\n");
    git(dir, "add", "greet.js");
  }
  return dir;
}

async function gitApi() {
  return (await vscode.extensions.getExtension<GitExtensionExports>("vscode.git")!.activate()).getAPI(1);
}

async function gitRepository(dir: string): Promise<GitRepository> {
  const repository = (await gitApi()).getRepository(vscode.Uri.file(dir));
  assert.ok(repository, `the git extension has ${dir} open`);
  return repository;
}

const generate = (dir: string) =>
  vscode.commands.executeCommand<CommitMessageOutcome>("fathom.generateCommitMessage", {
    rootUri: vscode.Uri.file(dir),
  });
const userText = (server: ScriptedModelServer, i: number) =>
  (server.requests[i]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "user")!.content;

suite("Generate Commit Message (real git extension, scripted model)", function () {
  this.timeout(60_000);
  let server: ScriptedModelServer;
  const config = () => vscode.workspace.getConfiguration("fathom");

  suiteSetup(async () => {
    server = await startScriptedModelServer([]);
    await vscode.extensions.getExtension<FathomApi>("fathom-dev.fathom")!.activate();
    await config().update("provider", "openai-compatible", vscode.ConfigurationTarget.Global);
    await config().update("baseUrl", server.baseUrlOpenAI, vscode.ConfigurationTarget.Global);
    await config().update("model", "scripted-model", vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    for (const key of ["provider", "baseUrl", "model"])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });
  setup(() => {
    server.requests.length = 0;
  });
  teardown(() => assert.equal(server.pending(), 0, "every scripted turn was played"));

  test("a staged change in a repository the git extension had not opened: the message lands in its box", async () => {
    const dir = repository();
    fs.writeFileSync(path.join(dir, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    git(dir, "add", "logo.png");
    server.push({ text: "Greet by name\n\nThe greeting now says who it is for.", chunkDelayMs: 5 });
    const outcome = await generate(dir);
    assert.deepEqual(outcome, {
      ok: true,
      message: "Greet by name\n\nThe greeting now says who it is for.",
      summarized: false,
    });
    assert.equal((await gitRepository(dir)).inputBox.value, "Greet by name\n\nThe greeting now says who it is for.");
    const sent = userText(server, 0);
    assert.match(sent, /- Document greet\n- Add greet/);
    assert.match(
      sent,
      /=== greet\.js \(modified, \+1 -1\)\n@@ -1 \+1 @@\n-module\.exports = \(\) => "hi";\n\+module\.exports = \(name\) => `hi \$\{name\}`;/,
    );
    assert.match(sent, /=== logo\.png \(added; binary\)/);
    assert.equal(server.requests[0]!.body.tools, undefined);
  });

  test("Stop ends the request and gives the box its text back", async () => {
    const dir = repository();
    const repo = (await (await gitApi()).openRepository!(vscode.Uri.file(dir)))!;
    repo.inputBox.value = "my draft";
    server.push(faults.stall("Half a subj"));
    const running = generate(dir);
    await until("the text streaming in", () => repo.inputBox.value === "Half a subj");
    await vscode.commands.executeCommand("fathom.stopCommitMessage", { rootUri: vscode.Uri.file(dir) });
    const outcome = await running;
    assert.equal(outcome.ok === false && outcome.reason, "cancelled");
    assert.equal(repo.inputBox.value, "my draft");
  });

  test("no changes, and a model error, each end with what to do and the box as it was", async () => {
    const clean = repository({ clean: true });
    const nothing = await generate(clean);
    assert.equal(nothing.ok === false && nothing.reason, "no_changes");
    assert.match(nothing.message, /There are no changes in .* to write a commit message for/);
    assert.equal(server.requests.length, 0);

    const dir = repository();
    server.push(faults.http(400, { message: "model scripted-model does not exist" }));
    const failed = await generate(dir);
    assert.equal(failed.ok === false && failed.reason, "model");
    assert.match(failed.message, /does not exist|400/);
    assert.equal((await gitRepository(dir)).inputBox.value, "");
  });

  test("with nothing staged, every change is described, untracked files too", async () => {
    const dir = repository({ clean: true });
    fs.writeFileSync(path.join(dir, "README.md"), "# Greet\n\nSays hi.\n");
    fs.writeFileSync(path.join(dir, "CHANGELOG.md"), "- greet\n");
    server.push({ text: "Describe greet and start a changelog" });
    const outcome = await generate(dir);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    const sent = userText(server, 0);
    assert.match(sent, /all uncommitted changes \(nothing is staged\)/);
    assert.match(sent, /=== README\.md \(modified, \+2 -0\)/);
    assert.match(sent, /=== CHANGELOG\.md \(added, \+1 -0\)\n@@ -0,0 \+1,1 @@\n\+- greet/);
  });
});
