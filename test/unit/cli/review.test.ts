// `fathom review` as a child process, against the scripted model server and real git
// repositories (a bare one as the remote for --pr) in a temp folder.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { cliEnv, runCli, type CliRun } from "../../support/cliProcess";

const KEY = "sk-review-SECRET-0123456789abcdef";
const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function server(turns: ScriptedTurn[]) {
  const s = await startScriptedModelServer(turns);
  servers.push(s);
  return s;
}

function cli(s: ScriptedModelServer | undefined, args: string[]): Promise<CliRun> {
  const model = s ? ["--provider", "openai", "--base-url", s.baseUrlOpenAI] : ["--provider", "openai"];
  return runCli(["review", ...model, ...args], cliEnv({ OPENAI_API_KEY: KEY }));
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

const GOOD =
  "function total(xs) {\n  let sum = 0;\n  for (const x of xs) sum += x;\n  return sum;\n}\nmodule.exports = total;\n";
const PLANTED =
  "function total(xs) {\n  let sum = 0;\n  for (let i = 1; i < xs.length; i++) sum += xs[i];\n  return sum;\n}\nmodule.exports = total;\n";

function repository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-cli-review-"));
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(path.join(dir, "total.js"), GOOD);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Add total");
  return dir;
}

const FINDING = {
  file: "total.js",
  line: 3,
  severity: "bug",
  title: "The first element is never added",
  why: "The loop starts at index 1, so total([5]) is 0.",
  fix: "  for (const x of xs) sum += x;",
};

test("--staged on a planted bug prints the finding (file:line, severity, title, why, fix) and exits 3", async () => {
  const dir = repository();
  writeFileSync(path.join(dir, "total.js"), PLANTED);
  writeFileSync(path.join(dir, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
  git(dir, "add", "-A");
  const s = await server([
    { toolCalls: [{ name: "report_finding", arguments: FINDING }] },
    { text: "The loop drops the first element." },
  ]);
  const run = await cli(s, ["--staged", "--cwd", dir]);
  assert.equal(run.code, 3, run.stderr);
  assert.equal(
    run.stdout,
    [
      "total.js:3  bug  The first element is never added",
      "  The loop starts at index 1, so total([5]) is 0.",
      "  Fix (replace those lines with):",
      "      for (const x of xs) sum += x;",
      "",
      "Not reviewed:",
      "  logo.png: binary: no lines to review",
      "",
      "1 finding (1 bug).",
      "",
      "The loop drops the first element.",
      "",
    ].join("\n"),
  );
  assert.match(
    run.stderr,
    /reviewing the staged changes: 1 file, 2 changed lines, about \d+ tokens of diff \(1% of the model's/,
  );
  assert.match(run.stderr, /context: at most [\d,]+ of [\d,]+ tokens in one request/);
  const tools = (s.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
  assert.ok(tools.includes("report_finding"));
  assert.ok(!tools.includes("write_file") && !tools.includes("execute"));
  assert.equal(readFileSync(path.join(dir, "total.js"), "utf8"), PLANTED, "nothing written");
  assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
});

test("--json prints one object with the findings; --fail-on bug passes a nit", async () => {
  const dir = repository();
  writeFileSync(path.join(dir, "total.js"), PLANTED);
  git(dir, "add", "-A");
  const s = await server([
    { toolCalls: [{ name: "report_finding", arguments: { ...FINDING, severity: "nit", fix: undefined } }] },
    { text: "Fine otherwise." },
  ]);
  const run = await cli(s, ["--cwd", dir, "--json", "--fail-on", "bug"]);
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { status: string; label: string; findings: unknown[]; parts: unknown[] };
  assert.equal(out.status, "reviewed");
  assert.equal(out.label, "the staged changes");
  assert.deepEqual(out.findings, [
    { file: "total.js", startLine: 3, endLine: 3, severity: "nit", title: FINDING.title, why: FINDING.why },
  ]);
  assert.equal(out.parts.length, 1);
});

test("a base that is not a commit is a clear error, exit 1, and no model is asked", async () => {
  const dir = repository();
  const s = await server([]);
  const run = await cli(s, ["--base", "no-such-branch", "--cwd", dir]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /"no-such-branch" is not a commit in .*give a branch, tag or commit id/);
  assert.equal(s.requests.length, 0);
  const both = await cli(s, ["--staged", "--base", "main", "--cwd", dir]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /Give one of --staged, --base REF and --pr N/);
});

test("--pr N fetches refs/pull/N/head from a bare remote and reviews it against the remote's default branch; a missing PR is a clear error", async () => {
  const origin = mkdtempSync(path.join(tmpdir(), "fathom-cli-review-origin-"));
  git(origin, "init", "-q", "--bare", "-b", "main");
  const work = repository();
  git(work, "remote", "add", "origin", origin);
  git(work, "push", "-q", "origin", "main");
  writeFileSync(path.join(work, "total.js"), PLANTED);
  git(work, "commit", "-q", "-am", "Speed up total");
  git(work, "push", "-q", "origin", "HEAD:refs/pull/7/head");
  git(work, "reset", "-q", "--hard", "main@{1}");
  const clone = mkdtempSync(path.join(tmpdir(), "fathom-cli-review-clone-"));
  git(clone, "clone", "-q", origin, ".");

  let readBack = "";
  const s = await server([
    (request) => {
      const text = JSON.stringify(request.body.messages);
      assert.match(text, /Review pull request #7/);
      assert.match(text, /3 \+ {2}for \(let i = 1/);
      return {
        toolCalls: [
          { name: "read_file", arguments: { file_path: "/total.js" } },
          { name: "report_finding", arguments: FINDING },
        ],
      };
    },
    (request) => {
      readBack = JSON.stringify(request.body.messages.slice(2));
      return { text: "One bug." };
    },
  ]);
  const run = await cli(s, ["--pr", "7", "--cwd", clone]);
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stdout, /^total\.js:3 {2}bug {2}The first element is never added$/m);
  // The model read the pull request's file, not the clone's work tree (which is main's).
  assert.match(readBack, /for \(let i = 1; i < xs\.length/);
  assert.equal(readFileSync(path.join(clone, "total.js"), "utf8"), GOOD);
  assert.equal(git(clone, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length, 1, "the checkout is gone");

  const missing = await cli(s, ["--pr", "99", "--cwd", clone]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /Pull request #99 was not found on origin \(it has no refs\/pull\/99\/head\)/);
});
