// Issue 34: `npm run release:action` makes the commit `uses: OWNER/fathom@v1` checks out. In a
// clone of this repository (its committed state plus the working tree's changes, so the test
// checks what is about to be committed) with a bare repository as origin, the script releases
// and pushes; then, as the runner does, a depth-1 clone of v1 with no node_modules runs
// action.yml's runs.main against the scripted model and the GitHub REST stand-in.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  appendFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { startGitHubApiStandIn, type GitHubApiStandIn } from "../../support/githubApiStandIn";
import { GITHUB_TOKEN, MODEL_KEY, git, makeCheckout, runActionAsRunner, type Checkout } from "./actionHarness";
import { webhookPayload } from "./webhookPayloads";

const ROOT = path.resolve(__dirname, "../../..");
const scratch = mkdtempSync(path.join(tmpdir(), "fathom-release-test-"));
const source = path.join(scratch, "source");
const origin = path.join(scratch, "origin.git");
let model: ScriptedModelServer | undefined;
let api: GitHubApiStandIn | undefined;
let checkout: Checkout | undefined;

/** The repository as it would be committed: HEAD, plus tracked changes and new files not ignored. */
function cloneWorkingState(): void {
  git(scratch, "clone", "-q", "--no-hardlinks", ROOT, source);
  // Exactly ROOT's commit, whatever its HEAD is (CI checks out a detached one).
  git(source, "-c", "advice.detachedHead=false", "checkout", "-q", git(ROOT, "rev-parse", "HEAD").trim());
  const diff = execFileSync("git", ["diff", "HEAD", "--binary"], { cwd: ROOT });
  if (diff.length > 0) execFileSync("git", ["apply", "--whitespace=nowarn", "-"], { cwd: source, input: diff });
  for (const rel of git(ROOT, "ls-files", "--others", "--exclude-standard", "-z")
    .split("\0")
    .filter((f) => f && statSync(path.join(ROOT, f)).isFile())) {
    mkdirSync(path.dirname(path.join(source, rel)), { recursive: true });
    copyFileSync(path.join(ROOT, rel), path.join(source, rel));
  }
  git(source, "config", "user.name", "Release Test");
  git(source, "config", "user.email", "release-test@example.com");
  git(source, "add", "-A");
  if (git(source, "status", "--porcelain").trim()) git(source, "commit", "-qm", "The working tree under test");
  // The build needs the dependencies; the link is not part of the tree (nor of the release).
  symlinkSync(path.join(ROOT, "node_modules"), path.join(source, "node_modules"));
  appendFileSync(path.join(source, ".git/info/exclude"), "/node_modules\n");
  // Releases start from this repository's own tags: none of the real ones.
  for (const tag of git(source, "tag", "--list").split("\n").filter(Boolean)) git(source, "tag", "-d", tag);
  // origin stands for GitHub, which has the source commit already (CI's clone may be shallow).
  git(scratch, "clone", "-q", "--bare", "--no-hardlinks", source, origin);
  git(source, "remote", "set-url", "origin", origin);
}

function release(...args: string[]) {
  const r = spawnSync(process.execPath, ["scripts/release-action.mjs", ...args], {
    cwd: source,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const remoteTag = (name: string) => git(origin, "rev-parse", `refs/tags/${name}^{commit}`).trim();

before(() => cloneWorkingState());
after(async () => {
  await model?.close();
  await api?.close();
  rmSync(scratch, { recursive: true, force: true });
  if (checkout) rmSync(checkout.scratch, { recursive: true, force: true });
});

test(
  "a release pushed to origin: `uses: …@v1` checks out a tree whose runs.main opens the pull request with no node_modules",
  { timeout: 120_000 },
  async () => {
    const sourceCommit = git(source, "rev-parse", "HEAD").trim();
    const first = release("--version", "1.0.0", "--push");
    assert.equal(first.code, 0, first.out);
    assert.match(
      first.out,
      /tagged v1\.0\.0 and v1:[\s\S]*dist\/action\.js[\s\S]*Pushed v1\.0\.0 and v1 \(moved\) to origin/,
    );

    // The release commit: the source commit as parent, its tree plus dist/ and nothing else; the checkout untouched.
    const commit = remoteTag("v1");
    assert.equal(remoteTag("v1.0.0"), commit);
    assert.equal(git(origin, "rev-parse", `${commit}^`).trim(), sourceCommit);
    const added = git(origin, "diff", "--name-only", sourceCommit, commit).trim().split("\n");
    assert.ok(added.includes("dist/action.js"));
    assert.ok(
      added.every((f) => f.startsWith("dist/") && !f.includes("node_modules")),
      added.join(", "),
    );
    assert.match(
      git(origin, "cat-file", "-p", "v1.0.0"),
      new RegExp(`Fathom action 1\\.0\\.0, built from ${sourceCommit}`),
    );
    assert.equal(git(source, "rev-parse", "HEAD").trim(), sourceCommit);
    assert.equal(git(source, "status", "--porcelain").trim(), "");

    // What the runner does for `uses: OWNER/fathom@v1`.
    const action = path.join(scratch, "runner-actions", "fathom");
    git(
      scratch,
      "-c",
      "advice.detachedHead=false",
      "clone",
      "-q",
      "--depth",
      "1",
      "--branch",
      "v1",
      `file://${origin}`,
      action,
    );
    assert.equal(existsSync(path.join(action, "node_modules")), false);
    const manifest = parseYaml(readFileSync(path.join(action, "action.yml"), "utf8")) as {
      runs: { using: string; main: string };
    };
    const main = path.join(action, manifest.runs.main);
    assert.ok(statSync(main).size > 0, `${manifest.runs.main} is in the release`);
    const helper = path.join(
      action,
      "dist/vendor/seccomp",
      process.arch === "arm64" ? "arm64" : "x64",
      "apply-seccomp",
    );
    assert.ok((statSync(helper).mode & 0o111) !== 0, "the seccomp helper is executable in the checkout");

    model = await startScriptedModelServer([]);
    checkout = makeCheckout();
    const payload = webhookPayload("issue_comment", "created");
    payload.comment.body = "@fathom fix the typo in the greeting";
    payload.comment.author_association = "COLLABORATOR";
    const repository = payload.repository.full_name as string;
    api = await startGitHubApiStandIn({ repository });
    model.push(
      { toolCalls: [{ name: "read_file", arguments: { file_path: "/greet.js" } }] },
      {
        toolCalls: [
          { name: "edit_file", arguments: { file_path: "/greet.js", old_string: '"Helo"', new_string: '"Hello"' } },
        ],
      },
      { text: "Fixed the greeting's typo in greet.js (Helo → Hello)." },
      { text: "Fix the typo in the greeting" },
    );
    const run = await runActionAsRunner(checkout, {
      event: "issue_comment",
      payload,
      repository,
      apiUrl: api.url,
      inputs: {
        "api-key": MODEL_KEY,
        "github-token": GITHUB_TOKEN,
        provider: "anthropic",
        "base-url": model.baseUrlAnthropic,
        model: "claude-test",
      },
      entry: [main],
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const branch = `fathom/${payload.issue.number}-fix-the-typo-in-the-greeting`;
    assert.equal(git(checkout.origin, "show", `${branch}:greet.js`), 'module.exports = () => "Hello";\n');
    for (const r of api.requests) assert.deepEqual(r.problems, [], `${r.method} ${r.path}`);
    assert.deepEqual(
      api.requests.map((r) => r.operation),
      ["pulls/list", "pulls/create", "issues/create-comment"],
    );
    assert.equal((api.requests[1]!.body as { head: string }).head, branch);
    assert.equal(run.outputs["pull-request-url"], `https://github.com/${repository}/pull/100`);
  },
);

test(
  "refusals: a dirty tree, a version that is not semver, an existing tag, a failing build; nothing is tagged",
  { timeout: 60_000 },
  () => {
    const tagsBefore = git(origin, "tag", "--list").trim();
    writeFileSync(path.join(source, "notes.txt"), "not committed\n");
    const dirty = release("--version", "1.0.1");
    assert.equal(dirty.code, 1);
    assert.match(
      dirty.out,
      /release-action: The working tree has changes that are not committed \(notes\.txt\)\. A release is built from a commit: commit them, or set them aside with `git stash -u`/,
    );
    rmSync(path.join(source, "notes.txt"));

    assert.match(release("--version", "1.2").out, /"1\.2" is not a semantic version/);
    assert.match(release().out, /Say which version: npm run release:action -- --version 1\.2\.3/);

    const again = release("--version", "1.0.0");
    assert.equal(again.code, 1);
    assert.match(
      again.out,
      /The tag v1\.0\.0 already exists \(here, at [0-9a-f]{12}\)\. A released version never changes: release the next one \(e\.g\. 1\.0\.1\)/,
    );
    // A tag made elsewhere and only on the remote counts too.
    git(source, "tag", "-d", "v1.0.0");
    assert.match(
      release("--version", "1.0.0", "--push").out,
      /The tag v1\.0\.0 already exists \(on origin, at [0-9a-f]{12}\)/,
    );
    git(source, "fetch", "-q", "origin", "refs/tags/v1.0.0:refs/tags/v1.0.0");

    writeFileSync(
      path.join(source, "src/action/index.ts"),
      "import { nothing } from './no-such-module';\nnothing();\n",
    );
    git(source, "commit", "-qam", "Break the build");
    const broken = release("--version", "1.0.1", "--push");
    git(source, "reset", "-q", "--hard", "HEAD~1");
    assert.equal(broken.code, 1);
    assert.match(
      broken.out,
      /no-such-module[\s\S]*release-action: The action's build failed \(its output is above\)\. Fix it on the source branch, commit, and release again; nothing was tagged\./,
    );
    assert.equal(git(origin, "tag", "--list").trim(), tagsBefore);
    assert.equal(git(source, "tag", "--list", "v1.0.1").trim(), "");
  },
);

test("a newer release moves v1; an older one would move it backwards and is refused", { timeout: 60_000 }, () => {
  writeFileSync(
    path.join(source, "CHANGELOG.md"),
    `${readFileSync(path.join(source, "CHANGELOG.md"), "utf8")}\nA change after 1.0.0.\n`,
  );
  git(source, "commit", "-qam", "A change after 1.0.0");
  const second = release("--version", "1.2.0", "--push");
  assert.equal(second.code, 0, second.out);
  assert.equal(remoteTag("v1"), remoteTag("v1.2.0"));
  assert.notEqual(remoteTag("v1"), remoteTag("v1.0.0"));
  assert.equal(git(origin, "rev-parse", "v1^").trim(), git(source, "rev-parse", "HEAD").trim());

  const older = release("--version", "1.1.0", "--push");
  assert.equal(older.code, 1);
  assert.match(
    older.out,
    /v1 points at 1\.2\.0; 1\.1\.0 is older, and moving v1 to it would take every workflow that uses @v1 backwards\. Release a version above 1\.2\.0/,
  );
  assert.equal(remoteTag("v1"), remoteTag("v1.2.0"));
  assert.equal(git(source, "tag", "--list", "v1.1.0").trim(), "");
});
