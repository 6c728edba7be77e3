// Issue 34: the GitHub Action run as the runner runs it, against the scripted model server, a
// bare repository as origin and a stand-in for GitHub's REST API that checks every request
// against GitHub's OpenAPI description.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import path from "node:path";
import { sandboxUnavailable } from "../../../src/core/executor/sandbox";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { startGitHubApiStandIn, type GitHubApiStandIn } from "../../support/githubApiStandIn";
import {
  GITHUB_TOKEN,
  MODEL_KEY,
  filesUnder,
  git,
  makeCheckout,
  runActionAsRunner,
  type Checkout,
} from "./actionHarness";
import { webhookPayload } from "./webhookPayloads";

const unavailable = process.platform === "linux" ? sandboxUnavailable() : "not Linux";
if (unavailable && process.env.CI) throw new Error(`The OS sandbox is not available in CI: ${unavailable}`);

let model: ScriptedModelServer;
let api: GitHubApiStandIn;
const checkouts: Checkout[] = [];

before(async () => {
  model = await startScriptedModelServer([]);
});
after(async () => {
  await model?.close();
  await api?.close();
  for (const c of checkouts) rmSync(c.scratch, { recursive: true, force: true });
});

async function freshApi(repository: string): Promise<GitHubApiStandIn> {
  await api?.close();
  api = await startGitHubApiStandIn({ repository });
  return api;
}

function checkout(): Checkout {
  const c = makeCheckout();
  checkouts.push(c);
  return c;
}

function commentPayload(text: string, association = "COLLABORATOR") {
  const payload = webhookPayload("issue_comment", "created");
  payload.comment.body = text;
  payload.comment.author_association = association;
  return payload;
}

const inputs = () => ({
  "api-key": MODEL_KEY,
  "github-token": GITHUB_TOKEN,
  provider: "anthropic",
  "base-url": model.baseUrlAnthropic,
  model: "claude-test",
  "max-steps": "20",
  "spend-cap": "1",
});

/** The turns of a task that fixes greet.js, looks at its environment, and answers. */
function fixingTurns(): ScriptedTurn[] {
  return [
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/greet.js" } }] },
    {
      toolCalls: [
        { name: "edit_file", arguments: { file_path: "/greet.js", old_string: '"Helo"', new_string: '"Hello"' } },
      ],
    },
    { toolCalls: [{ name: "execute", arguments: { command: "env; echo ENV-LISTED" } }] },
    { text: "Fixed the greeting's typo in greet.js (Helo → Hello)." },
    // The commit-message generator's request.
    { text: "Fix the typo in the greeting" },
  ];
}

function assertNoSecret(where: string, text: string) {
  assert.ok(!text.includes(GITHUB_TOKEN), `the GitHub token is in ${where}`);
  assert.ok(!text.includes(MODEL_KEY), `the model key is in ${where}`);
  const basic = Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString("base64");
  assert.ok(!text.includes(basic), `the token (as a basic auth header) is in ${where}`);
}

test(
  "a collaborator's @fathom comment: the change is pushed to fathom/<issue>-<slug>, a valid pull request is opened and the issue is told; no secret leaks",
  { skip: unavailable ?? false, timeout: 120_000 },
  async () => {
    const c = checkout();
    const payload = commentPayload("@fathom fix the typo in the greeting");
    const repository = payload.repository.full_name as string;
    await freshApi(repository);
    model.push(...fixingTurns());
    const run = await runActionAsRunner(c, {
      event: "issue_comment",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
      env: {
        CANARY_PLAIN: "visible-7781",
        GITHUB_TOKEN,
        ANTHROPIC_API_KEY: MODEL_KEY,
        DEPLOY_URL: `https://x:${GITHUB_TOKEN}@example.com`,
      },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const branch = `fathom/${payload.issue.number}-fix-the-typo-in-the-greeting`;

    // The branch on origin has the change, with the generator's message.
    assert.equal(git(c.origin, "show", `${branch}:greet.js`), 'module.exports = () => "Hello";\n');
    assert.match(
      git(c.origin, "log", "-1", "--format=%B", branch),
      new RegExp(`^Fix the typo in the greeting\\n\\nFathom's task for #${payload.issue.number}\\.`),
    );
    assert.equal(
      git(c.origin, "rev-parse", "main").trim(),
      git(c.workspace, "rev-parse", "origin/main").trim(),
      "main is untouched",
    );

    // Every request was valid for GitHub's API, and they were these.
    for (const r of api.requests) assert.deepEqual(r.problems, [], `${r.method} ${r.path}`);
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["pulls/list", "pulls/create", "issues/create-comment"],
    );
    const pr = api.requests[1]!.body as { title: string; head: string; base: string; body: string };
    assert.equal(pr.head, branch);
    assert.equal(pr.base, "main");
    assert.match(pr.title, /^Fathom: fix the typo in the greeting$/);
    assert.match(pr.body, /Fixed the greeting's typo in greet\.js \(Helo → Hello\)\./);
    assert.match(pr.body, /`greet\.js` \(modified\)/);
    assert.match(pr.body, /\d+ model requests, [\d,]+ tokens in, [\d,]+ out, \$\d+\.\d{4}/);
    const comment = api.requests[2]!;
    assert.equal(comment.path, `/repos/${repository}/issues/${payload.issue.number}/comments`);
    assert.match(
      (comment.body as { body: string }).body,
      new RegExp(`opened https://github\\.com/${repository}/pull/100 \\(1 file changed`),
    );

    // Outputs.
    assert.equal(run.outputs.branch, branch);
    assert.equal(run.outputs["pull-request-url"], `https://github.com/${repository}/pull/100`);
    assert.match(run.outputs["task-id"] ?? "", /^gh-4242-[0-9a-f]{6}$/);
    assert.match(run.outputs.cost ?? "", /^\d+\.\d{4}$/);

    // The command ran in the sandbox, with the step's environment minus every credential.
    const transcript = readFileSync(path.join(run.outputs["artifact-dir"]!, "transcript.jsonl"), "utf8");
    const envResult = transcript
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((e) => e.type === "tool_call_finished" && e.toolName === "execute");
    assert.ok(envResult, "the execute call finished");
    assert.match(envResult.content, /CANARY_PLAIN=visible-7781/);
    assert.match(envResult.content, /ENV-LISTED/);
    assert.doesNotMatch(envResult.content, /INPUT_|GITHUB_TOKEN|ANTHROPIC_API_KEY|DEPLOY_URL/);

    // Neither secret anywhere: the log, the artifact, the commits, origin's objects, .git/config, the model's and the API's request bodies.
    // The runner takes `::add-mask::` lines as commands (never shown) and hides those values in every later line.
    const masked = run.stdout.split("\n").filter((l) => l.startsWith("::add-mask::"));
    assert.deepEqual(masked.sort(), [`::add-mask::${GITHUB_TOKEN}`, `::add-mask::${MODEL_KEY}`].sort());
    assertNoSecret(
      "the action's output",
      run.stdout
        .split("\n")
        .filter((l) => !l.startsWith("::add-mask::"))
        .join("\n") + run.stderr,
    );
    for (const f of filesUnder(run.outputs["artifact-dir"]!)) assertNoSecret(f.file, f.text);
    assert.ok(filesUnder(run.outputs["artifact-dir"]!).some((f) => f.file.endsWith("cassette.jsonl")));
    assertNoSecret("origin's history", git(c.origin, "log", "--all", "-p", "--format=fuller"));
    assertNoSecret("the workspace's .git/config", readFileSync(path.join(c.workspace, ".git/config"), "utf8"));
    for (const r of model.requests) assertNoSecret("a model request's body", r.rawBody);
    for (const r of api.requests) assertNoSecret("an API request's body", r.rawBody);
    assert.match(run.stdout, /removed the token actions\/checkout kept in \.git\/config/);
  },
);

test(
  "an outsider's comment starts nothing: no model request, no API call, no branch",
  { timeout: 60_000 },
  async () => {
    const c = checkout();
    const payload = commentPayload("@fathom run rm -rf / and push it", "NONE");
    const repository = payload.repository.full_name as string;
    await freshApi(repository);
    const before = model.requests.length;
    const run = await runActionAsRunner(c, {
      event: "issue_comment",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /\(NONE\) asked on #\d+, but only OWNER, MEMBER, COLLABORATOR may start Fathom/);
    assert.equal(model.requests.length, before);
    assert.deepEqual(api.requests, []);
    assert.equal(git(c.origin, "branch", "--list", "fathom/*"), "");
  },
);

test("an event it does not handle exits 0 with a log line", { timeout: 60_000 }, async () => {
  const c = checkout();
  const payload = webhookPayload("push");
  const run = await runActionAsRunner(c, {
    event: "push",
    payload,
    repository: "Codertocat/Hello-World",
    apiUrl: "http://127.0.0.1:9",
    inputs: inputs(),
  });
  assert.equal(run.code, 0);
  assert.match(run.stdout, /The event push is not one Fathom handles/);
});

test(
  "a task that changes nothing comments what it found and opens no pull request",
  { skip: unavailable ?? false, timeout: 60_000 },
  async () => {
    const c = checkout();
    const payload = webhookPayload("issues", "labeled");
    payload.label.name = "fathom";
    payload.issue.body = "";
    const repository = payload.repository.full_name as string;
    await freshApi(repository);
    model.push(
      { toolCalls: [{ name: "read_file", arguments: { file_path: "/greet.js" } }] },
      { text: "greet.js has no bug that this issue describes; nothing to change." },
    );
    const run = await runActionAsRunner(c, { event: "issues", payload, repository, apiUrl: api.url, inputs: inputs() });
    assert.equal(run.code, 0, run.stdout);
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["issues/create-comment"],
    );
    assert.deepEqual(api.requests[0]!.problems, []);
    assert.match(
      (api.requests[0]!.body as { body: string }).body,
      /without changing any file, so there is no pull request[\s\S]*nothing to change\./,
    );
    assert.equal(git(c.origin, "branch", "--list", "fathom/*"), "");
    assert.match(run.stdout, /has no body: its title is the whole task/);
  },
);

test(
  "a failed task comments the reason and the transcript's tail, and pushes nothing",
  { skip: unavailable ?? false, timeout: 60_000 },
  async () => {
    const c = checkout();
    const payload = commentPayload("/fathom fix the typo");
    const repository = payload.repository.full_name as string;
    await freshApi(repository);
    model.push(
      { toolCalls: [{ name: "write_file", arguments: { file_path: "/half.txt", content: "half-made\n" } }] },
      { fault: "http", status: 401, message: "invalid x-api-key" },
    );
    const run = await runActionAsRunner(c, {
      event: "issue_comment",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(run.code, 1);
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["issues/create-comment"],
    );
    const body = (api.requests[0]!.body as { body: string }).body;
    assert.match(body, /Fathom could not finish: the task stopped \(error\)/);
    assert.match(body, /<summary>The end of the transcript<\/summary>[\s\S]*write_file:/);
    assert.match(body, /no pull request was opened/);
    assert.equal(git(c.origin, "branch", "--list", "fathom/*"), "");
    assertNoSecret("the failure comment", body);
  },
);

test(
  "a push the remote refuses (a protected branch) is a failure comment, never a pull request",
  { skip: unavailable ?? false, timeout: 60_000 },
  async () => {
    const c = checkout();
    const hook = path.join(c.origin, "hooks", "pre-receive");
    writeFileSync(
      hook,
      "#!/bin/sh\necho 'GH006: Protected branch update failed for refs/heads/fathom/*.' >&2\nexit 1\n",
    );
    chmodSync(hook, 0o755);
    const payload = commentPayload("@fathom fix the typo in the greeting");
    const repository = payload.repository.full_name as string;
    await freshApi(repository);
    model.push(...fixingTurns());
    const run = await runActionAsRunner(c, {
      event: "issue_comment",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(run.code, 1);
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["issues/create-comment"],
    );
    assert.match(
      (api.requests[0]!.body as { body: string }).body,
      /its commit could not be pushed[\s\S]*GH006[\s\S]*protected or a rule refused the push/,
    );
  },
);

test(
  "a second run for the same issue continues its branch and updates its pull request; 5xx is retried",
  { skip: unavailable ?? false, timeout: 120_000 },
  async () => {
    const c = checkout();
    const payload = commentPayload("@fathom fix the typo in the greeting");
    const repository = payload.repository.full_name as string;
    await freshApi(repository);
    model.push(...fixingTurns());
    assert.equal(
      (await runActionAsRunner(c, { event: "issue_comment", payload, repository, apiUrl: api.url, inputs: inputs() }))
        .code,
      0,
    );

    // A new checkout of main, as the next workflow run gets.
    const again = checkout();
    git(again.workspace, "remote", "set-url", "origin", c.origin);
    git(again.workspace, "fetch", "-q", "origin");
    payload.comment.body = "@fathom fix the typo in the greeting";
    api.requests.length = 0;
    api.faults.push({ route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", status: 502, times: 1 });
    model.push(
      { toolCalls: [{ name: "read_file", arguments: { file_path: "/greet.js" } }] },
      {
        toolCalls: [
          { name: "edit_file", arguments: { file_path: "/greet.js", old_string: '"Hello"', new_string: '"Hello!"' } },
        ],
      },
      { text: "Added the exclamation mark." },
      { text: "Make the greeting exclaim" },
    );
    const run = await runActionAsRunner(again, {
      event: "issue_comment",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(run.code, 0, run.stdout);
    assert.match(run.stdout, /exists on the remote \(an earlier run's\): the task continues on it/);
    const branch = run.outputs.branch!;
    assert.equal(git(c.origin, "show", `${branch}:greet.js`), 'module.exports = () => "Hello!";\n');
    assert.equal(git(c.origin, "rev-list", "--count", `main..${branch}`).trim(), "2");
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["pulls/list", "pulls/update", "issues/create-comment", "issues/create-comment"],
    );
    for (const r of api.requests) assert.deepEqual(r.problems, []);
    assert.equal(api.pulls.length, 1);
    assert.match(api.pulls[0]!.body, /Added the exclamation mark\./);
    assert.match(run.stdout, /answered 502; trying again/);
    assert.match(
      (api.requests[3]!.body as { body: string }).body,
      /Fathom updated https:\/\/github\.com\/.*\/pull\/100/,
    );
  },
);

test(
  "a pull request GitHub refuses (422) is a clear failure that names the pushed branch",
  { skip: unavailable ?? false, timeout: 60_000 },
  async () => {
    const c = checkout();
    const payload = commentPayload("@fathom fix the typo in the greeting");
    const repository = payload.repository.full_name as string;
    await freshApi(repository);
    api.faults.push({
      route: "POST /repos/{owner}/{repo}/pulls",
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [{ resource: "PullRequest", code: "custom", message: "No commits between main and fathom/x" }],
      },
    });
    model.push(...fixingTurns());
    const run = await runActionAsRunner(c, {
      event: "issue_comment",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(run.code, 1);
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["pulls/list", "pulls/create", "issues/create-comment"],
    );
    assert.match(
      (api.requests[2]!.body as { body: string }).body,
      /the pull request could not be opened[\s\S]*GitHub answered 422 to POST[\s\S]*No commits between[\s\S]*open the pull request by hand: https:\/\/github\.com\/.*\/compare\/main\.\.\.fathom/,
    );
  },
);

test("bad inputs fail at once with a message that says what to set", { timeout: 60_000 }, async () => {
  const c = checkout();
  const payload = commentPayload("@fathom fix it");
  const run = await runActionAsRunner(c, {
    event: "issue_comment",
    payload,
    repository: "o/r",
    apiUrl: "http://127.0.0.1:9",
    inputs: { ...inputs(), "max-steps": "lots" },
  });
  assert.equal(run.code, 1);
  assert.match(run.stdout, /::error::Input max-steps must be a whole number from 1 to 10000 \(got "lots"\)/);
  const everyone = await runActionAsRunner(c, {
    event: "issue_comment",
    payload,
    repository: "o/r",
    apiUrl: "http://127.0.0.1:9",
    inputs: { ...inputs(), "allowed-associations": "everyone" },
  });
  assert.match(everyone.stdout, /EVERYONE is not an author association/);
});
