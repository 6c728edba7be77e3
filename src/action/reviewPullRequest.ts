/**
 * The Action on `pull_request`: the core's review of the pull request's diff (fetched from
 * origin as `refs/pull/N/head` against its base branch), posted as one pull-request review with
 * a line comment per finding. Never more than one review per push: a review whose marker names
 * the commit is looked for before the model is asked and again before posting. The token reaches
 * git only as a header in its environment and the REST calls; every line logged or posted is
 * scrubbed of it and of the model key.
 */
import { readReviewDiff } from "../core/review/reviewSource";
import { runReview } from "../core/review/runReview";
import type { ActionInputs } from "./actionInputs";
import { authEnv, type RemoteAuth } from "./branchWork";
import { GitHubApiError, type GitHubRest } from "./githubRest";
import { findingComment, isReviewOf, reviewBody } from "./reviewReport";
import { redactSecrets, setOutput } from "./runnerIo";
import { createActionModel } from "./runTask";
import type { ReviewTrigger } from "./trigger";

export interface PullRequestReview {
  env: NodeJS.ProcessEnv;
  inputs: ActionInputs;
  trigger: ReviewTrigger;
  api: GitHubRest;
  root: string;
  auth: RemoteAuth;
  secrets: string[];
  runUrl?: string;
  info: (line: string) => void;
  error: (line: string) => void;
}

export async function reviewPullRequest(r: PullRequestReview): Promise<number> {
  const { pull } = r.trigger;
  const hide = (text: string) => redactSecrets(text, r.secrets);
  const fail = (what: string) => {
    r.error(hide(`Fathom could not review #${pull.number}: ${what}`));
    return 1;
  };
  const diff = await readReviewDiff(
    r.root,
    { kind: "pr", number: pull.number, baseBranch: pull.baseRef },
    { remoteEnv: authEnv(r.auth) },
  );
  if ("error" in diff) return fail(diff.error);
  const headSha = diff.headSha ?? pull.headSha;
  if (headSha !== pull.headSha)
    r.info(
      `fathom: #${pull.number} moved on to ${headSha.slice(0, 7)} since this event (${pull.headSha.slice(0, 7)}): reviewing ${headSha.slice(0, 7)}.`,
    );
  setOutput(r.env, "reviewed-sha", headSha);

  const alreadyReviewed = async () => (await r.api.listReviews(pull.number)).some((rv) => isReviewOf(rv.body, headSha));
  try {
    if (await alreadyReviewed()) {
      r.info(`fathom: #${pull.number} already has Fathom's review of ${headSha.slice(0, 7)}: nothing to do.`);
      return 0;
    }
  } catch (error) {
    return fail((error as Error).message);
  }

  const retryBase = Number(r.env.FATHOM_RETRY_BASE_DELAY_MS);
  const result = await runReview({
    model: createActionModel(
      r.inputs.model,
      Number.isFinite(retryBase) && retryBase >= 0 ? { retryBaseDelayMs: retryBase } : {},
    ),
    root: diff.root,
    files: diff.files,
    label: `pull request #${pull.number}, "${pull.title}"`,
    ...(r.inputs.maxSteps ? { maxSteps: r.inputs.maxSteps } : {}),
    ...(r.inputs.spendCapUsd ? { agent: { spendCapUsd: r.inputs.spendCapUsd } } : {}),
    onPart: (part) =>
      r.info(
        `fathom: reviewing #${pull.number}${part.total > 1 ? `, part ${part.index + 1} of ${part.total}` : ""}: ${part.files.length} file(s), ${part.changedLines} changed lines, ${Math.max(1, Math.round(part.contextShare * 100))}% of the model's context`,
      ),
  });
  setOutput(r.env, "cost", result.costUsd.toFixed(4));
  if (result.status === "incomplete" || result.status === "cancelled")
    return fail(`${result.message ?? "the review did not finish"} (no review was posted; run the workflow again).`);
  setOutput(r.env, "findings", String(result.findings.length));

  const post = async (inlineRefused?: string) =>
    r.api.createReview(pull.number, {
      commit_id: headSha,
      body: hide(
        reviewBody({
          result,
          headSha,
          ...(r.runUrl ? { runUrl: r.runUrl } : {}),
          ...(inlineRefused ? { inlineRefused } : {}),
        }),
      ),
      comments: inlineRefused
        ? []
        : result.findings.map((f) => {
            const c = findingComment(f);
            return { ...c, body: hide(c.body) };
          }),
    });
  try {
    // Another run for the same push may have posted while this one ran (a re-run, a second event).
    if (await alreadyReviewed()) {
      r.info(`fathom: another run posted Fathom's review of ${headSha.slice(0, 7)} meanwhile: not posting a second.`);
      return 0;
    }
    let posted;
    try {
      posted = await post();
    } catch (error) {
      // GitHub refuses every comment of a review when one line is not in its diff: fall back to the body.
      if (!(error instanceof GitHubApiError && error.status === 422) || result.findings.length === 0) throw error;
      r.info(
        hide(`fathom: GitHub refused the line comments (${error.message}); posting the findings in the review's body.`),
      );
      posted = await post("a line was not in its diff");
    }
    setOutput(r.env, "review-url", posted.html_url);
    r.info(
      `fathom: posted the review of ${headSha.slice(0, 7)} with ${result.findings.length} finding(s): ${posted.html_url}`,
    );
    return 0;
  } catch (error) {
    return fail((error as Error).message);
  }
}
