// Issue 34: when the OS sandbox cannot start on a runner, the action's log names the workflow
// step that fixes it, and every example workflow carries that step.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { RUNNER_SANDBOX_STEP, runnerSandboxUnavailableLine } from "../../../src/action/runnerSandbox";
import { startScriptedModelServer } from "../../support/scriptedModelServer";
import { startGitHubApiStandIn } from "../../support/githubApiStandIn";
import { GITHUB_TOKEN, MODEL_KEY, makeCheckout, runActionAsRunner, type Checkout } from "./actionHarness";
import { webhookPayload } from "./webhookPayloads";

const ROOT = path.resolve(__dirname, "../../..");
const commands = RUNNER_SANDBOX_STEP.slice(2).map((line) => line.trim());
const checkouts: Checkout[] = [];
after(() => {
  for (const c of checkouts) rmSync(c.scratch, { recursive: true, force: true });
});

test("on Linux the line says what is lost and gives the step: install bubblewrap and socat, lift AppArmor's user-namespace restriction", () => {
  const line = runnerSandboxUnavailableLine("bwrap: setting up uid map: Permission denied", "linux");
  assert.match(
    line,
    /^The OS sandbox cannot run on this runner \(bwrap: setting up uid map: Permission denied\); the task may read and write files but no command will run\./,
  );
  assert.match(line, /add this step before the Fathom step/);
  assert.ok(line.includes("sudo apt-get install -y -qq bubblewrap socat"));
  assert.ok(line.includes("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"));
  assert.match(line, /AppArmor profile that gives \/usr\/bin\/bwrap "userns"/);
});

test("elsewhere the line says to use a Linux runner", () => {
  const line = runnerSandboxUnavailableLine("The OS sandbox does not run on Windows yet.", "win32");
  assert.match(line, /runs-on: ubuntu-latest/);
  assert.ok(!line.includes("apt-get"));
});

test("every example workflow that runs Fathom's tasks has the sandbox step's commands", () => {
  const dir = path.join(ROOT, "examples/github");
  // A review runs no command (read-only tools), so its workflow needs no sandbox and says so.
  const reviewOnly = new Set(["fathom-review.yml"]);
  const workflows = readdirSync(dir).filter((f) => /^fathom-.*\.ya?ml$/.test(f) && !reviewOnly.has(f));
  assert.ok(workflows.length >= 3);
  for (const file of reviewOnly)
    assert.match(
      readFileSync(path.join(dir, file), "utf8"),
      /no command runs/,
      `${file} says why it has no sandbox step`,
    );
  for (const file of workflows) {
    const text = readFileSync(path.join(dir, file), "utf8");
    for (const command of commands) assert.ok(text.includes(command), `${file} lacks "${command}"`);
  }
});

test(
  "a runner without bubblewrap: the action logs the fix and still finishes the task",
  { timeout: 60_000 },
  async () => {
    // A PATH with git and nothing else, so the sandbox's programs are not found.
    const c = makeCheckout();
    checkouts.push(c);
    const bin = path.join(c.scratch, "bin");
    mkdirSync(bin);
    symlinkSync(execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim(), path.join(bin, "git"));
    const model = await startScriptedModelServer([{ text: "greet.js needs no change." }]);
    const payload = webhookPayload("issue_comment", "created");
    payload.comment.body = "@fathom look at greet.js";
    const api = await startGitHubApiStandIn({ repository: payload.repository.full_name });
    try {
      const run = await runActionAsRunner(c, {
        event: "issue_comment",
        payload,
        repository: payload.repository.full_name,
        apiUrl: api.url,
        inputs: {
          "api-key": MODEL_KEY,
          "github-token": GITHUB_TOKEN,
          provider: "anthropic",
          "base-url": model.baseUrlAnthropic,
        },
        env: { PATH: bin },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(
        run.stdout,
        /The OS sandbox cannot run on this runner \(The OS sandbox cannot start \([^\n]*bubblewrap[^\n]*\); the task may read and write files but no command will run\. To run commands, add this step before the Fathom step/,
      );
      for (const command of commands) assert.ok(run.stdout.includes(command), `the log lacks "${command}"`);
      assert.match(api.comments[0]?.body ?? "", /without changing any file/);
    } finally {
      await model.close();
      await api.close();
    }
  },
);
