/**
 * `fathom review [--staged | --base REF | --pr N]`: the core's review of a diff (a read-only task,
 * findings as structured items), printed for people or, with `--json`, for machines. Progress and
 * the context each part takes go to stderr; the findings to stdout. The exit code says whether the
 * review found something (see REVIEW_USAGE).
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import { findingPlace, REVIEW_SEVERITIES, type ReviewSeverity } from "../core/review/finding";
import { withCommitFiles } from "../core/review/reviewCheckout";
import { readReviewDiff, type ReviewTarget } from "../core/review/reviewSource";
import { runReview, type ReviewPart, type ReviewResult } from "../core/review/runReview";
import {
  commandModel,
  HELP_OPTION,
  MODEL_OPTIONS,
  parseCommandArgs,
  runAsProcess,
  SERVER_OPTIONS,
  type CommandIo,
} from "./commandArgs";
import { EXIT } from "./exitCodes";

export const REVIEW_USAGE = `Usage: fathom review [--staged | --base REF | --pr N [--remote NAME]] [--cwd DIR] [--json]
                     [--fail-on bug|risk|nit] [--max-steps N]
                     [--provider NAME] [--model ID] [--base-url URL] [--context-window N]

Reviews a change and prints what is wrong in it: each finding with its file:line, severity
(bug, risk, nit), title, why, and a fix when it is small. The model reads the diff (in parts
its context holds) and the repository's files, read-only: nothing is written, no command runs.
.github/fathom-review.md (or the "review" section of AGENTS.md) says what to look for.

What to review (one of; default --staged):
  --staged              the staged changes
  --base REF            what HEAD adds since it left REF (git diff REF...HEAD)
  --pr N                pull request N, fetched from the remote as refs/pull/N/head and
                        compared with the remote's default branch (or --base REF)
  --remote NAME         the remote --pr fetches from (default: origin)

Options:
  --cwd DIR             a folder of the repository (default: the current directory)
  --json                print one JSON object (findings, skipped files, parts, context)
  --fail-on SEVERITY    which findings make the exit code 3: bug, risk, or nit (default: nit, any)
  --max-steps N         most model calls per part of the diff (default 30)
  --provider, --model, --base-url, --context-window   as for fathom run
Keys come from OPENAI_API_KEY or ANTHROPIC_API_KEY.
Exit codes: 0 reviewed, no findings at --fail-on or above (or nothing to review); 3 reviewed,
with such findings; 1 the review could not be made or finished (a base that is no commit, a
missing pull request, a diff too large, the model failed; the reason is on stderr); 2 usage
error; 130 cancelled.`;

export class ReviewUsageError extends Error {}

/** Findings at `--fail-on` or above: the review's exit code 3. */
export const EXIT_FINDINGS = 3;

function target(values: { staged?: boolean; base?: string; pr?: string; remote?: string }): ReviewTarget {
  const chosen = [
    values.staged && "--staged",
    values.base !== undefined && values.pr === undefined && "--base",
    values.pr !== undefined && "--pr",
  ].filter(Boolean);
  if (chosen.length > 1)
    throw new ReviewUsageError(`Give one of --staged, --base REF and --pr N (got ${chosen.join(" and ")}).`);
  if (values.remote !== undefined && values.pr === undefined) throw new ReviewUsageError("--remote goes with --pr N.");
  if (values.pr !== undefined) {
    const number = Number(values.pr);
    if (!Number.isInteger(number) || number < 1)
      throw new ReviewUsageError(`--pr takes a pull request's number (got "${values.pr}").`);
    return {
      kind: "pr",
      number,
      ...(values.remote ? { remote: values.remote } : {}),
      ...(values.base ? { base: values.base } : {}),
    };
  }
  if (values.base !== undefined) return { kind: "base", ref: values.base };
  return { kind: "staged" };
}

export async function reviewCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      staged: { type: "boolean" },
      base: { type: "string" },
      pr: { type: "string" },
      remote: { type: "string" },
      cwd: { type: "string" },
      json: { type: "boolean" },
      "fail-on": { type: "string" },
      "max-steps": { type: "string" },
      ...SERVER_OPTIONS,
      ...MODEL_OPTIONS,
      ...HELP_OPTION,
    },
    ReviewUsageError,
    false,
  );
  if (values.help) {
    io.out.write(`${REVIEW_USAGE}\n`);
    return EXIT.done;
  }
  const what = target(values);
  const failOn = (values["fail-on"] ?? "nit") as ReviewSeverity;
  if (!REVIEW_SEVERITIES.includes(failOn))
    throw new ReviewUsageError(
      `--fail-on must be one of ${REVIEW_SEVERITIES.join(", ")} (got "${values["fail-on"]}").`,
    );
  let maxSteps: number | undefined;
  if (values["max-steps"] !== undefined) {
    maxSteps = Number(values["max-steps"]);
    if (!Number.isInteger(maxSteps) || maxSteps < 1)
      throw new ReviewUsageError(`--max-steps must be a whole number, at least 1 (got "${values["max-steps"]}").`);
  }
  const dir = path.resolve(io.cwd, values.cwd ?? ".");
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new ReviewUsageError(`--cwd ${dir} is not a directory.`);
  const { model, apiKey } = commandModel(
    values,
    io.env,
    ReviewUsageError,
    "VS Code's language models (provider vscode) can only be used inside VS Code: there, use /review in the Fathom panel. Here use --provider openai, anthropic or openai-compatible.",
  );
  const hide = (text: string) => (apiKey ? text.split(apiKey).join("[key]") : text);

  const diff = await readReviewDiff(dir, what);
  if ("error" in diff) {
    io.err.write(`fathom: ${hide(diff.error)}\n`);
    return EXIT.failed;
  }
  if (diff.files.length === 0) {
    const none =
      what.kind === "staged"
        ? `Nothing is staged in ${diff.root}, so there is nothing to review. Stage the change (git add PATH), or review a branch with --base REF.`
        : `${diff.label} changes nothing, so there is nothing to review.`;
    if (values.json)
      io.out.write(
        `${JSON.stringify({ status: "nothing_to_review", label: diff.label, findings: [], skipped: [], message: none })}\n`,
      );
    else io.err.write(`fathom: ${none}\n`);
    return EXIT.done;
  }
  const review = (root: string) =>
    runReview({
      model,
      root,
      files: diff.files,
      label: diff.label,
      ...(maxSteps ? { maxSteps } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      onPart: (part) => void io.err.write(`fathom: ${partLine(diff.label, part)}\n`),
    });
  // A pull request's files are not the work tree's: the model reads them from a checkout of its head.
  const result =
    what.kind === "pr" && diff.headSha
      ? await withCommitFiles(diff.root, diff.headSha, review, (why) => io.err.write(`fathom: ${hide(why)}\n`))
      : await review(diff.root);
  if (values.json)
    io.out.write(
      `${JSON.stringify({ ...result, ...(result.message ? { message: hide(result.message) } : {}), label: diff.label, ...(diff.headSha ? { headSha: diff.headSha } : {}) })}\n`,
    );
  else io.out.write(formatReview(result));
  if (result.context.peakTokens > 0)
    io.err.write(
      `fathom: context: at most ${result.context.peakTokens.toLocaleString("en-US")} of ${result.context.contextWindow.toLocaleString("en-US")} tokens in one request\n`,
    );
  if (result.status === "cancelled") return EXIT.cancelled;
  if (result.status === "incomplete") {
    io.err.write(`fathom: ${hide(result.message ?? "the review did not finish")}\n`);
    return EXIT.failed;
  }
  const rank = (s: ReviewSeverity) => REVIEW_SEVERITIES.indexOf(s);
  return result.findings.some((f) => rank(f.severity) <= rank(failOn)) ? EXIT_FINDINGS : EXIT.done;
}

function partLine(label: string, part: ReviewPart): string {
  const share = Math.max(1, Math.round(part.contextShare * 100));
  const which = part.total > 1 ? `, part ${part.index + 1} of ${part.total}` : "";
  return `reviewing ${label}${which}: ${part.files.length} file${part.files.length === 1 ? "" : "s"}, ${part.changedLines} changed lines, about ${part.diffTokens.toLocaleString("en-US")} tokens of diff (${share}% of the model's ${part.contextWindow.toLocaleString("en-US")})`;
}

/** The review as people read it in a terminal. */
export function formatReview(result: ReviewResult): string {
  const blocks = result.findings.map((f) => {
    const lines = [`${findingPlace(f)}  ${f.severity}  ${f.title}`, ...f.why.split("\n").map((l) => `  ${l}`)];
    if (f.fix !== undefined)
      lines.push("  Fix (replace those lines with):", ...f.fix.split("\n").map((l) => `    ${l}`));
    return lines.join("\n");
  });
  const out = [...blocks];
  if (result.skipped.length > 0)
    out.push(`Not reviewed:\n${result.skipped.map((s) => `  ${s.path}: ${s.reason}`).join("\n")}`);
  const counts = REVIEW_SEVERITIES.map((s) => [s, result.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n === 1 ? "" : "s"}`);
  const total = result.findings.length;
  out.push(
    total === 0
      ? result.status === "nothing_to_review"
        ? "Nothing to review: every changed file was skipped."
        : "No findings."
      : `${total} finding${total === 1 ? "" : "s"} (${counts.join(", ")}).`,
  );
  if (result.summaries.length > 0) out.push(result.summaries.join("\n"));
  return `${out.join("\n\n")}\n`;
}

/** `fathom review` as the process runs it: Ctrl+C cancels, a usage error exits 2. */
export function reviewMain(argv: readonly string[]): Promise<number> {
  return runAsProcess((io) => reviewCommand(argv, io), { error: ReviewUsageError, text: REVIEW_USAGE });
}
