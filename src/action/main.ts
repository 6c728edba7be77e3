/**
 * The GitHub Action's entry point (action.yml runs dist/action.js, built from here): read the
 * event and inputs as the runner gives them, decide whether to start, run the task on its
 * branch, then commit, push, open or update the pull request and comment. Every way a run ends
 * is one clear outcome: ignored (exit 0, a log line), no change (a comment), done (a pull
 * request and a comment), or failed (a comment with the reason; never a half-made pull request).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { readRepositoryChanges } from "../core/commitMessage/repositoryChanges";
import { writeCommitMessage } from "../core/commitMessage/writeCommitMessage";
import { runGit } from "../core/worktrees/git";
import {
  BranchError,
  commitAndPush,
  prepareBranch,
  removeStoredCredentials,
  stageChanges,
  type RemoteAuth,
} from "./branchWork";
import { GitHubRest } from "./githubRest";
import { readActionInputs, type ActionInputs } from "./actionInputs";
import {
  doneComment,
  failureComment,
  noChangeComment,
  pullRequestBody,
  pullRequestTitle,
  type RunFacts,
} from "./report";
import { reviewPullRequest } from "./reviewPullRequest";
import { runTask } from "./runTask";
import { redactSecrets, runnerLog, scrubEnvironment, setOutput } from "./runnerIo";
import { decideTrigger, type TaskTrigger } from "./trigger";

export async function runAction(env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<number> {
  let secrets: string[] = [];
  const log = runnerLog(write, () => secrets);
  const inputs = readActionInputs(env);
  if ("error" in inputs) {
    log.error(inputs.error);
    return 1;
  }
  secrets = [inputs.githubToken, inputs.model.apiKey].filter((s) => s.length > 0);
  for (const secret of secrets) log.mask(secret);
  // From here on no child process (git, the agent's commands) can inherit a credential.
  scrubEnvironment(env, secrets);

  const eventName = env.GITHUB_EVENT_NAME ?? "";
  let payload: unknown = {};
  try {
    if (env.GITHUB_EVENT_PATH) payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8"));
  } catch (error) {
    log.error(
      `The event payload at ${env.GITHUB_EVENT_PATH} could not be read: ${(error as Error).message}. Is this running as a step of a workflow?`,
    );
    return 1;
  }
  const trigger = decideTrigger(eventName, payload, {
    label: inputs.label,
    allowedAssociations: inputs.allowedAssociations,
    prompt: inputs.prompt,
  });
  if (trigger.kind === "ignore") {
    log.info(`fathom: ${trigger.reason}`);
    return 0;
  }
  for (const note of trigger.notes) log.info(`fathom: ${note}`);

  const repository = env.GITHUB_REPOSITORY ?? "";
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    log.error(`GITHUB_REPOSITORY is "${repository}", not owner/name: run Fathom as a step of a workflow.`);
    return 1;
  }
  const retryBase = Number(env.FATHOM_RETRY_BASE_DELAY_MS);
  const api = new GitHubRest({
    apiUrl: env.GITHUB_API_URL || "https://api.github.com",
    token: inputs.githubToken,
    repository,
    ...(Number.isFinite(retryBase) && retryBase >= 0 ? { retryBaseMs: retryBase } : {}),
    onRetry: (m) => log.info(`fathom: ${m}`),
  });
  const serverUrl = env.GITHUB_SERVER_URL || "https://github.com";
  const runUrl = env.GITHUB_RUN_ID ? `${serverUrl}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` : undefined;
  if (trigger.kind === "review") {
    const noKey = missingKey(inputs);
    if (noKey) {
      log.error(`Fathom could not review #${trigger.pull.number}: ${noKey}`);
      return 1;
    }
    return reviewPullRequest({
      env,
      inputs,
      trigger,
      api,
      root: path.resolve(env.GITHUB_WORKSPACE || process.cwd()),
      auth: { serverUrl, token: inputs.githubToken },
      secrets,
      ...(runUrl ? { runUrl } : {}),
      info: (line) => log.info(line),
      error: (line) => log.error(line),
    });
  }
  const facts: RunFacts = {
    taskId: `gh-${env.GITHUB_RUN_ID ?? "local"}-${randomBytes(3).toString("hex")}`,
    ...(runUrl ? { runUrl } : {}),
  };
  setOutput(env, "task-id", facts.taskId);
  setOutput(env, "branch", trigger.branch);
  const artifactDir = path.join(
    env.RUNNER_TEMP || path.join(env.GITHUB_WORKSPACE || process.cwd(), ".."),
    "fathom",
    facts.taskId,
  );
  setOutput(env, "artifact-dir", artifactDir);
  log.info(
    `fathom: task ${facts.taskId} on branch ${trigger.branch}${trigger.issue ? ` for #${trigger.issue.number}` : ""}; transcript and recording in ${artifactDir}`,
  );

  const fail = async (what: string, reason: string, tail: string[] = []): Promise<number> => {
    const clean = redactSecrets(reason, secrets);
    log.error(`Fathom could not finish: ${what}: ${clean}`);
    if (trigger.issue) {
      await api
        .comment(trigger.issue.number, redactSecrets(failureComment({ what, reason: clean, tail, facts }), secrets))
        .catch((e: unknown) =>
          log.error(
            `The failure could not be reported on #${trigger.issue?.number} either: ${redactSecrets((e as Error).message, secrets)}`,
          ),
        );
    }
    return 1;
  };

  const noKey = missingKey(inputs);
  if (noKey) return fail("no model key", noKey);
  const root = path.resolve(env.GITHUB_WORKSPACE || process.cwd());
  const auth: RemoteAuth = { serverUrl, token: inputs.githubToken };
  try {
    const removed = await removeStoredCredentials(root);
    if (removed.length)
      log.info(
        `fathom: removed the token actions/checkout kept in .git/config (${removed.join(", ")}) so no command of the task can read it; set persist-credentials: false to skip this.`,
      );
  } catch (error) {
    return fail("the repository's git config could not be read", (error as Error).message);
  }
  return runOnBranch({
    env,
    inputs,
    trigger,
    api,
    root,
    auth,
    facts,
    artifactDir,
    secrets,
    log: (l) => log.info(l),
    fail,
  });
}

/** Why the model cannot be asked without a key, or undefined when it has one (or needs none). */
function missingKey(inputs: ActionInputs): string | undefined {
  if (inputs.model.apiKey || inputs.model.provider === "openai-compatible") return undefined;
  return `The input api-key is empty: store your ${inputs.model.provider} key as a repository secret and pass it, for example api-key: \${{ secrets.${inputs.model.provider === "anthropic" ? "ANTHROPIC" : "OPENAI"}_API_KEY }}.`;
}

interface BranchRun {
  env: NodeJS.ProcessEnv;
  inputs: ActionInputs;
  trigger: TaskTrigger;
  api: GitHubRest;
  root: string;
  auth: RemoteAuth;
  facts: RunFacts;
  artifactDir: string;
  secrets: string[];
  log: (line: string) => void;
  fail: (what: string, reason: string, tail?: string[]) => Promise<number>;
}

async function runOnBranch(r: BranchRun): Promise<number> {
  const { trigger, api, root, facts, inputs } = r;
  let base: string;
  try {
    base = inputs.baseBranch || (await checkedOutBranch(root, r.env)) || (await api.defaultBranch());
  } catch (error) {
    return r.fail("the base branch is unknown", `${(error as Error).message} Set the input base-branch.`);
  }
  let prepared;
  try {
    prepared = await prepareBranch(root, trigger.branch, r.auth);
  } catch (error) {
    return r.fail(`the branch ${trigger.branch} could not be made`, (error as Error).message);
  }
  if (prepared.continued)
    r.log(
      `fathom: ${trigger.branch} exists on the remote (an earlier run's): the task continues on it, and its pull request is updated.`,
    );

  const retryBase = Number(r.env.FATHOM_RETRY_BASE_DELAY_MS);
  const outcome = await runTask({
    root,
    prompt: trigger.prompt,
    model: inputs.model,
    ...(inputs.maxSteps ? { maxSteps: inputs.maxSteps } : {}),
    ...(inputs.spendCapUsd ? { spendCapUsd: inputs.spendCapUsd } : {}),
    allowDomains: inputs.allowDomains,
    artifactDir: r.artifactDir,
    secrets: r.secrets,
    log: r.log,
    ...(Number.isFinite(retryBase) && retryBase >= 0 ? { retryBaseDelayMs: retryBase } : {}),
  });
  const withState: RunFacts = { ...facts, ...(outcome.state ? { state: outcome.state } : {}) };
  setOutput(r.env, "cost", (outcome.state?.costUsd ?? 0).toFixed(4));
  if (outcome.reason !== "completed") {
    return r.fail(
      `the task stopped (${outcome.reason.replace(/_/g, " ")})`,
      outcome.message || outcome.finalText || "It ended before its final answer.",
      outcome.tail,
    );
  }

  let files;
  try {
    files = await stageChanges(root);
  } catch (error) {
    return r.fail("its changes could not be read", (error as Error).message, outcome.tail);
  }
  if (files.length === 0) {
    r.log("fathom: the task changed no file: no pull request.");
    if (trigger.issue)
      await api.comment(
        trigger.issue.number,
        redactSecrets(noChangeComment({ summary: outcome.finalText, facts: withState }), r.secrets),
      );
    return 0;
  }

  const message = await commitMessage(root, outcome.model, trigger, outcome.finalText, r.log);
  try {
    await commitAndPush(root, trigger.branch, redactSecrets(message, r.secrets), r.auth);
  } catch (error) {
    return r.fail(
      error instanceof BranchError ? "its commit could not be pushed" : "its changes could not be committed",
      (error as Error).message,
      outcome.tail,
    );
  }
  r.log(`fathom: pushed ${files.length} changed file(s) to ${trigger.branch}.`);

  const body = redactSecrets(
    pullRequestBody({
      summary: outcome.finalText,
      files,
      ...(trigger.issue ? { issue: trigger.issue } : {}),
      facts: withState,
      notes: outcome.sandboxed ? [] : ["The OS sandbox could not run on the runner, so no command ran."],
    }),
    r.secrets,
  );
  const title = redactSecrets(pullRequestTitle(trigger.title), r.secrets);
  let pr;
  let updated: boolean;
  try {
    const existing = await api.findOpenPullRequest(trigger.branch);
    updated = existing !== undefined;
    pr = existing
      ? await api.updatePullRequest(existing.number, { title, body })
      : await api.createPullRequest({ title, head: trigger.branch, base, body });
  } catch (error) {
    const compare = `${r.auth.serverUrl}/${r.env.GITHUB_REPOSITORY}/compare/${encodeURIComponent(base)}...${encodeURIComponent(trigger.branch)}`;
    return r.fail(
      "the pull request could not be opened",
      `${(error as Error).message}\nThe commit is on ${trigger.branch}; open the pull request by hand: ${compare}`,
      outcome.tail,
    );
  }
  setOutput(r.env, "pull-request-url", pr.html_url);
  r.log(`fathom: ${updated ? "updated" : "opened"} ${pr.html_url}`);
  if (trigger.issue) {
    try {
      await api.comment(
        trigger.issue.number,
        doneComment({ prUrl: pr.html_url, updated, files: files.length, facts: withState }),
      );
    } catch (error) {
      r.log(
        `fathom: the pull request is open, but the comment on #${trigger.issue.number} failed: ${redactSecrets((error as Error).message, r.secrets)}`,
      );
    }
  }
  return 0;
}

/** The branch the workflow checked out: the local branch, else GITHUB_REF's. */
async function checkedOutBranch(root: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const head = await runGit(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd: root });
  if (head.code === 0 && head.stdout.trim() && !head.stdout.trim().startsWith("fathom/")) return head.stdout.trim();
  const ref = env.GITHUB_REF ?? "";
  return ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : undefined;
}

/** The commit-message generator's message from the staged change; the task's summary when it cannot write one. */
async function commitMessage(
  root: string,
  model: Parameters<typeof writeCommitMessage>[0]["model"],
  trigger: TaskTrigger,
  summary: string,
  log: (l: string) => void,
): Promise<string> {
  const trailer = trigger.issue ? `\n\nFathom's task for #${trigger.issue.number}.` : "";
  const changes = await readRepositoryChanges(root);
  if (!("error" in changes)) {
    const written = await writeCommitMessage({
      model,
      files: changes.files,
      scope: changes.scope,
      subjects: changes.subjects,
    });
    if (written.ok) return `${written.message}${trailer}`;
    log(`fathom: no commit message from the model (${written.message}); using the task's summary.`);
  }
  const lines = summary.trim().split("\n");
  const subject = (lines[0] ?? "").trim().slice(0, 72) || trigger.title.slice(0, 72) || "Fathom's change";
  const rest = lines.slice(1).join("\n").trim();
  return `${subject}${rest ? `\n\n${rest}` : ""}${trailer}`;
}
