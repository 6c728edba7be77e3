// The Action on pull_request, run as the runner runs it: the review of the pull request's diff
// (fetched from a bare origin as refs/pull/N/head) posted as one review with line comments to the
// stand-in for GitHub's REST API, which checks every request against GitHub's OpenAPI description.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { startGitHubApiStandIn, type GitHubApiStandIn } from "../../support/githubApiStandIn";
import { decideTrigger } from "../../../src/action/trigger";
import { GITHUB_TOKEN, MODEL_KEY, git, makeCheckout, runActionAsRunner, type Checkout } from "./actionHarness";
import { webhookPayload } from "./webhookPayloads";

let model: ScriptedModelServer;
let api: GitHubApiStandIn;
const scratch: string[] = [];

before(async () => {
  model = await startScriptedModelServer([]);
});
after(async () => {
  await model?.close();
  await api?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const GOOD =
  "function total(xs) {\n  let sum = 0;\n  for (const x of xs) sum += x;\n  return sum;\n}\nmodule.exports = total;\n";
const PLANTED = GOOD.replace("for (const x of xs) sum += x;", "for (let i = 1; i < xs.length; i++) sum += xs[i];");

/** A checkout of main, and pull request `number` on origin (refs/pull/N/head) planting a bug; returns its head. */
function checkoutWithPullRequest(number: number): { c: Checkout; head: string } {
  const c = makeCheckout({ "total.js": GOOD });
  scratch.push(c.scratch);
  const author = mkdtempSync(path.join(tmpdir(), "fathom-action-pr-"));
  scratch.push(author);
  git(author, "clone", "-q", c.origin, ".");
  writeFileSync(path.join(author, "total.js"), PLANTED);
  git(author, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-qam", "Speed up total");
  git(author, "push", "-q", "origin", `HEAD:refs/pull/${number}/head`);
  return { c, head: git(author, "rev-parse", "HEAD").trim() };
}

function pullRequestPayload(
  number: number,
  head: string,
  changes: { draft?: boolean; association?: string; action?: string } = {},
) {
  const payload = webhookPayload("pull_request", changes.action ?? "opened");
  payload.number = number;
  payload.pull_request.number = number;
  payload.pull_request.head.sha = head;
  payload.pull_request.base.ref = "main";
  payload.pull_request.draft = changes.draft ?? false;
  payload.pull_request.author_association = changes.association ?? "OWNER";
  return payload;
}

const inputs = () => ({
  "api-key": MODEL_KEY,
  "github-token": GITHUB_TOKEN,
  provider: "anthropic",
  "base-url": model.baseUrlAnthropic,
  model: "claude-test",
});

function assertNoSecret(where: string, text: string) {
  assert.ok(!text.includes(GITHUB_TOKEN), `the GitHub token is in ${where}`);
  assert.ok(!text.includes(MODEL_KEY), `the model key is in ${where}`);
  assert.ok(
    !text.includes(Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString("base64")),
    `the token is in ${where}`,
  );
}

test(
  "pull_request opened: one valid review with a line comment and a suggestion on the planted bug; a second run for the same head posts none",
  { timeout: 120_000 },
  async () => {
    const { c, head } = checkoutWithPullRequest(5);
    const payload = pullRequestPayload(5, head);
    const repository = payload.repository.full_name as string;
    await api?.close();
    api = await startGitHubApiStandIn({ repository });
    const asked = model.requests.length;
    model.push(
      (request) => {
        const text = JSON.stringify(request.body.messages);
        assert.match(text, /Review pull request #5/);
        assert.match(text, /3 \+ {2}for \(let i = 1/);
        return {
          toolCalls: [
            {
              name: "report_finding",
              arguments: {
                file: "total.js",
                line: 3,
                severity: "bug",
                title: "The first element is never added",
                why: "The loop starts at index 1, so total([5]) is 0.",
                fix: "  for (const x of xs) sum += x;",
              },
            },
          ],
        };
      },
      { text: "One bug: the loop skips the first element." },
    );
    const run = await runActionAsRunner(c, {
      event: "pull_request",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const r of api.requests) assert.deepEqual(r.problems, [], `${r.method} ${r.path}`);
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["pulls/list-reviews", "pulls/list-reviews", "pulls/create-review"],
    );
    const posted = api.requests[2]!.body as {
      commit_id: string;
      event: string;
      body: string;
      comments: Record<string, unknown>[];
    };
    assert.equal(posted.commit_id, head);
    assert.equal(posted.event, "COMMENT");
    assert.match(posted.body, new RegExp(`^<!-- fathom-review ${head} -->`));
    assert.match(posted.body, /1 finding \(1 bug\), on the lines below/);
    assert.deepEqual(posted.comments, [
      {
        path: "total.js",
        line: 3,
        side: "RIGHT",
        body: "**bug: The first element is never added**\n\nThe loop starts at index 1, so total([5]) is 0.\n\n```suggestion\n  for (const x of xs) sum += x;\n```",
      },
    ]);
    assert.equal(run.outputs["findings"], "1");
    assert.equal(run.outputs["reviewed-sha"], head);
    assert.equal(model.requests.length - asked, 2);
    // The runner takes `::add-mask::` lines as commands (never shown); no other line may hold a secret.
    const shown = (text: string) =>
      text
        .split("\n")
        .filter((l) => !l.startsWith("::add-mask::"))
        .join("\n");
    assertNoSecret("the log", shown(run.stdout) + run.stderr);
    assertNoSecret("the review", JSON.stringify(api.requests.map((r) => r.body)));

    // The same push again (a re-run, or a second event): no model request, no second review.
    const again = await runActionAsRunner(c, {
      event: "pull_request",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, new RegExp(`already has Fathom's review of ${head.slice(0, 7)}: nothing to do`));
    assert.equal(api.reviews.length, 1);
    assert.equal(model.requests.length - asked, 2);
    assert.deepEqual(
      api.requests.slice(3).map((r) => r.operation),
      ["pulls/list-reviews"],
    );
  },
);

test(
  "when GitHub refuses the line comments, the findings go in the one review's body",
  { timeout: 120_000 },
  async () => {
    const { c, head } = checkoutWithPullRequest(9);
    const payload = pullRequestPayload(9, head);
    const repository = payload.repository.full_name as string;
    await api?.close();
    api = await startGitHubApiStandIn({ repository });
    api.faults.push({
      route: "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
      status: 422,
      body: { message: "Unprocessable Entity", errors: ["Line could not be resolved"] },
    });
    model.push(
      {
        toolCalls: [
          {
            name: "report_finding",
            arguments: { file: "total.js", line: 3, severity: "risk", title: "Index 0 skipped", why: "Starts at 1." },
          },
        ],
      },
      { text: "Done." },
    );
    const run = await runActionAsRunner(c, {
      event: "pull_request",
      payload,
      repository,
      apiUrl: api.url,
      inputs: inputs(),
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const r of api.requests) assert.deepEqual(r.problems, [], `${r.method} ${r.path}`);
    assert.equal(api.reviews.length, 1);
    assert.deepEqual(api.reviews[0]!.comments, []);
    assert.match(api.reviews[0]!.body, /GitHub did not take the findings as line comments/);
    assert.match(api.reviews[0]!.body, /- `total\.js:3` \*\*risk: Index 0 skipped\*\*/);
  },
);

test("a pull request missing on origin is a clear error, and nothing is posted", { timeout: 60_000 }, async () => {
  const { c, head } = checkoutWithPullRequest(6);
  const payload = pullRequestPayload(8, head);
  const repository = payload.repository.full_name as string;
  await api?.close();
  api = await startGitHubApiStandIn({ repository });
  const run = await runActionAsRunner(c, {
    event: "pull_request",
    payload,
    repository,
    apiUrl: api.url,
    inputs: inputs(),
  });
  assert.equal(run.code, 1);
  assert.match(run.stdout + run.stderr, /Pull request #8 was not found on origin/);
  assert.deepEqual(api.requests, []);
});

test("drafts, other actions and authors the inputs do not allow get no review, with the reason", () => {
  const settings = { label: "fathom", allowedAssociations: ["OWNER", "MEMBER", "COLLABORATOR"], prompt: "" };
  const head = "a".repeat(40);
  const draft = decideTrigger("pull_request", pullRequestPayload(3, head, { draft: true }), settings);
  assert.match((draft as { reason: string }).reason, /is a draft: Fathom reviews it when it is marked ready/);
  const labeled = decideTrigger("pull_request", pullRequestPayload(3, head, { action: "labeled" }), settings);
  assert.match((labeled as { reason: string }).reason, /was labeled: Fathom reviews when it is opened, synchronize/);
  const stranger = decideTrigger("pull_request", pullRequestPayload(3, head, { association: "NONE" }), settings);
  assert.match((stranger as { reason: string }).reason, /\(NONE\), but only OWNER, MEMBER, COLLABORATOR get a review/);
  const ready = decideTrigger("pull_request", pullRequestPayload(3, head, { action: "synchronize" }), settings);
  assert.equal(ready.kind, "review");
});
