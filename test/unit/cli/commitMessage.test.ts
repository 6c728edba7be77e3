// `fathom commit-message` as a child process, against the scripted model server (the real
// openai and anthropic clients) and real git repositories in a temp folder.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedModelServer,
  faults,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { cliEnv, runCli, type CliRun } from "../../support/cliProcess";

const KEY = "sk-commit-SECRET-0123456789abcdef";
const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function cli(args: string[], env = cliEnv({ OPENAI_API_KEY: KEY })): Promise<CliRun> {
  return runCli(["commit-message", ...args], env);
}

async function server(turns: ScriptedTurn[]) {
  const s = await startScriptedModelServer(turns);
  servers.push(s);
  return s;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });

function repository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-cli-commit-"));
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(path.join(dir, "slugify.js"), "module.exports = (s) => s.toLowerCase();\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Add slugify");
  return dir;
}

/** The text of the one user message a request carried (Anthropic's wire sends it as blocks). */
function userText(s: ScriptedModelServer, i = 0): string {
  const content = (s.requests[i]!.body.messages as { role: string; content: string | { text?: string }[] }[]).find(
    (m) => m.role === "user",
  )!.content;
  return typeof content === "string" ? content : content.map((b) => b.text ?? "").join("");
}

test("prints a message for the staged changes, written from the staged diff and the latest subjects", async () => {
  const dir = repository();
  writeFileSync(path.join(dir, "slugify.js"), "module.exports = (s) => s.trim().toLowerCase();\n");
  git(dir, "add", "slugify.js");
  writeFileSync(path.join(dir, "unstaged.txt"), "not part of the commit\n");
  const s = await server([
    { text: "```\nTrim slugs before lowering them\n\nA leading space used to end up in the slug.\n```" },
  ]);
  const run = await cli(["--provider", "openai", "--base-url", s.baseUrlOpenAI, "--cwd", dir]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "Trim slugs before lowering them\n\nA leading space used to end up in the slug.\n");
  assert.equal(s.requests.length, 1);
  assert.equal(s.requests[0]!.body.tools, undefined, "no tools offered");
  assert.match(userText(s), /- Add slugify/);
  assert.match(userText(s), /\+module\.exports = \(s\) => s\.trim\(\)\.toLowerCase\(\);/);
  assert.doesNotMatch(userText(s), /unstaged\.txt/);
  assert.equal(s.requests[0]!.headers.authorization, `Bearer ${KEY}`);
});

test("exit 1 with the reason when nothing is staged, or the folder is no repository; --all describes everything", async () => {
  const dir = repository();
  writeFileSync(path.join(dir, "notes.md"), "untracked notes\n");
  const s = await server([{ text: "Add notes" }]);
  const nothing = await cli(["--base-url", s.baseUrlOpenAI, "--cwd", dir]);
  assert.equal(nothing.code, 1);
  assert.equal(nothing.stdout, "");
  assert.match(
    nothing.stderr,
    /Nothing is staged in .*, so there is nothing to describe\. Stage what the commit should hold \(git add PATH\), or pass --all/,
  );
  assert.equal(s.requests.length, 0, "no request for nothing");

  const all = await cli(["--all", "--base-url", s.baseUrlOpenAI, "--cwd", dir]);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(all.stdout, "Add notes\n");
  assert.match(userText(s), /all uncommitted changes \(nothing is staged\)/);
  assert.match(userText(s), /=== notes\.md \(added, \+1 -0\)\n@@ -0,0 \+1,1 @@\n\+untracked notes/);

  const clean = repository();
  const none = await cli(["--all", "--base-url", s.baseUrlOpenAI, "--cwd", clean]);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /There are no uncommitted changes in .* to describe\./);

  const plain = mkdtempSync(path.join(tmpdir(), "fathom-cli-commit-plain-"));
  const notRepo = await cli(["--base-url", s.baseUrlOpenAI, "--cwd", plain]);
  assert.equal(notRepo.code, 1);
  assert.match(notRepo.stderr, /is not in a git repository\./);
});

test("works with the anthropic wire too, and a huge staged diff is cut to the budget", async () => {
  const dir = repository();
  writeFileSync(
    path.join(dir, "data.js"),
    Array.from({ length: 20_000 }, (_, i) => `exports.v${i} = ${i};`).join("\n") + "\n",
  );
  writeFileSync(path.join(dir, "slugify.js"), "module.exports = (s) => s.trim();\n");
  git(dir, "add", "-A");
  const s = await server([{ text: "Add the data table" }]);
  const run = await cli(
    ["--provider", "anthropic", "--base-url", s.baseUrlAnthropic, "--context-window", "8192", "--cwd", dir],
    cliEnv({ ANTHROPIC_API_KEY: KEY }),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "Add the data table\n");
  assert.match(run.stderr, /too large to send whole/);
  const sent = userText(s);
  const diff = sent.slice(sent.indexOf("<diff>\n") + 7, sent.indexOf("\n</diff>"));
  assert.ok(diff.length <= 12_288, `${diff.length} characters of diff`);
  assert.match(diff, /^=== data\.js \(added, \+20000 -0\)$/m);
  assert.match(diff, /=== slugify\.js \(modified, \+1 -1\)\n@@/);
  assert.match(diff, /\[not shown: \+\d+ -0 lines\]/);
});

test("a model error ends with exit 1 and a readable reason, never the key; usage errors exit 2", async () => {
  const dir = repository();
  writeFileSync(path.join(dir, "slugify.js"), "module.exports = 1;\n");
  git(dir, "add", "slugify.js");
  const s = await server([faults.unauthorized()]);
  const refused = await cli(["--base-url", s.baseUrlOpenAI, "--cwd", dir]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /fathom: .*(key|401)/i);
  assert.ok(!refused.stderr.includes(KEY) && !refused.stdout.includes(KEY));

  const usage: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [["--cwd", dir], cliEnv(), /Set OPENAI_API_KEY/],
    [["--provider", "vscode", "--cwd", dir], cliEnv({ OPENAI_API_KEY: KEY }), /only be used inside VS Code/],
    [["--cwd", "/nonexistent/dir"], cliEnv({ OPENAI_API_KEY: KEY }), /is not a directory/],
    [["--bogus"], cliEnv({ OPENAI_API_KEY: KEY }), /Unknown option '--bogus'/],
  ];
  for (const [args, env, message] of usage) {
    const run = await cli(args, env);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
  const help = await cli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: fathom commit-message/);
});
