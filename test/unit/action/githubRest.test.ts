// Issue 34: the action's REST calls follow GitHub's rules for trying again, and every request
// is valid for GitHub's OpenAPI description.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { GitHubRest, type GitHubApiError } from "../../../src/action/githubRest";
import { startGitHubApiStandIn, type GitHubApiStandIn } from "../../support/githubApiStandIn";

let api: GitHubApiStandIn;
before(async () => {
  api = await startGitHubApiStandIn({ repository: "octo/repo", defaultBranch: "trunk" });
});
after(() => api.close());

const client = (retries: string[] = []) =>
  new GitHubRest({
    apiUrl: api.url,
    token: "t0ken-for-tests",
    repository: "octo/repo",
    retryBaseMs: 1,
    onRetry: (m) => retries.push(m),
  });

test("open, find, update and comment: valid requests, answers read", async () => {
  api.requests.length = 0;
  const rest = client();
  assert.equal(await rest.defaultBranch(), "trunk");
  assert.equal(await rest.findOpenPullRequest("fathom/1-x"), undefined);
  const pr = await rest.createPullRequest({ title: "T", head: "fathom/1-x", base: "trunk", body: "B" });
  assert.deepEqual(await rest.findOpenPullRequest("fathom/1-x"), { number: pr.number, html_url: pr.html_url });
  await rest.updatePullRequest(pr.number, { title: "T2", body: "B2" });
  assert.match(await rest.comment(1, "hi"), /issuecomment/);
  for (const r of api.requests) assert.deepEqual(r.problems, [], `${r.method} ${r.path}`);
  assert.equal(api.requests[1]!.query.head, "octo:fathom/1-x");
});

test("5xx, 429 and a rate-limited 403 are retried; a permission 403 and a 422 are not", async () => {
  const retries: string[] = [];
  api.faults.push({ route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", status: 503, times: 2 });
  assert.match(await client(retries).comment(2, "x"), /issuecomment/);
  assert.equal(retries.length, 2);

  retries.length = 0;
  api.faults.push({
    route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
    status: 429,
    headers: { "retry-after": "0" },
  });
  api.faults.push({
    route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
    status: 403,
    headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "0" },
    body: { message: "API rate limit exceeded" },
  });
  await client(retries).comment(2, "x");
  assert.equal(retries.length, 2);

  retries.length = 0;
  api.faults.push({
    route: "POST /repos/{owner}/{repo}/pulls",
    status: 403,
    body: { message: "GitHub Actions is not permitted to create or approve pull requests." },
  });
  await assert.rejects(
    client(retries).createPullRequest({ title: "T", head: "fathom/2-y", base: "trunk", body: "" }),
    (e: GitHubApiError) => {
      assert.equal(e.status, 403);
      assert.match(
        e.message,
        /not permitted to create[\s\S]*permissions: contents: write, pull-requests: write, issues: write[\s\S]*Allow GitHub Actions to create and approve pull requests/,
      );
      return true;
    },
  );
  assert.equal(retries.length, 0);

  api.faults.push({ route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", status: 500, times: 10 });
  await assert.rejects(client(retries).comment(3, "x"), /GitHub answered 500[\s\S]*kept failing after several tries/);
  api.faults.length = 0;
});

test("an API that cannot be reached is a clear failure after the tries", async () => {
  const rest = new GitHubRest({
    apiUrl: "http://127.0.0.1:9",
    token: "t",
    repository: "o/r",
    retryBaseMs: 1,
    attempts: 2,
  });
  await assert.rejects(rest.comment(1, "x"), /could not be reached \(POST \/repos\/o\/r\/issues\/1\/comments\)/);
});
