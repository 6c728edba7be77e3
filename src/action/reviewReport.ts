/**
 * What a review posts on a pull request: the review's body (its marker names the commit it
 * reviewed, so a later run for the same push posts nothing) and one line comment per finding, a
 * small fix as GitHub's `suggestion` block, which replaces exactly the commented lines.
 */
import type { ReviewFinding } from "../core/review/finding";
import type { ReviewResult } from "../core/review/runReview";
import type { ReviewComment } from "./githubRest";

const MAX_BODY_CHARS = 60_000;

/** The hidden line a Fathom review's body starts with: which commit it reviewed. */
export function reviewMarker(headSha: string): string {
  return `<!-- fathom-review ${headSha} -->`;
}

/** Whether an existing review's body is Fathom's review of `headSha`. */
export function isReviewOf(body: string | null | undefined, headSha: string): boolean {
  return (body ?? "").includes(reviewMarker(headSha));
}

export function findingComment(f: ReviewFinding): ReviewComment {
  const fix = f.fix !== undefined ? ["", "```suggestion", f.fix.replace(/```/g, "'''"), "```"] : [];
  return {
    path: f.file,
    line: f.endLine,
    side: "RIGHT",
    ...(f.endLine > f.startLine ? { start_line: f.startLine, start_side: "RIGHT" as const } : {}),
    body: [`**${f.severity}: ${f.title}**`, "", f.why, ...fix].join("\n"),
  };
}

/** The findings written into the body (when GitHub would not take them as line comments). */
export function findingsAsText(findings: readonly ReviewFinding[]): string {
  return findings
    .map((f) => {
      const lines = f.endLine > f.startLine ? `${f.startLine}-${f.endLine}` : `${f.startLine}`;
      const fix =
        f.fix !== undefined ? `\n\n  Fix (replace those lines with):\n\n  \`\`\`\n${indent(f.fix)}\n  \`\`\`` : "";
      return `- \`${f.file}:${lines}\` **${f.severity}: ${f.title}**\n\n  ${f.why.replace(/\n/g, "\n  ")}${fix}`;
    })
    .join("\n");
}

export function reviewBody(o: {
  result: ReviewResult;
  headSha: string;
  runUrl?: string;
  /** Set when the findings go in the body, and why. */
  inlineRefused?: string;
}): string {
  const { result } = o;
  const counts = ["bug", "risk", "nit"]
    .map((s) => [s, result.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n === 1 ? "" : "s"}`);
  const total = result.findings.length;
  const headline =
    result.status === "nothing_to_review"
      ? `Fathom had nothing to review in ${o.headSha.slice(0, 7)}: no changed file has lines to review.`
      : total === 0
        ? `Fathom reviewed ${o.headSha.slice(0, 7)} and found nothing to flag.`
        : `Fathom reviewed ${o.headSha.slice(0, 7)}: ${total} finding${total === 1 ? "" : "s"} (${counts.join(", ")})${o.inlineRefused ? "" : ", on the lines below"}.`;
  const parts = [reviewMarker(o.headSha), headline];
  if (result.summaries.length > 0) parts.push(result.summaries.join("\n\n"));
  if (o.inlineRefused && total > 0)
    parts.push(
      `GitHub did not take the findings as line comments (${o.inlineRefused}), so here they are:`,
      findingsAsText(result.findings),
    );
  if (result.skipped.length > 0)
    parts.push(
      `<details><summary>Not reviewed (${result.skipped.length})</summary>\n\n${result.skipped.map((s) => `- \`${s.path}\`: ${s.reason}`).join("\n")}\n\n</details>`,
    );
  const context = result.context.peakTokens
    ? `, at most ${result.context.peakTokens.toLocaleString("en-US")} of ${result.context.contextWindow.toLocaleString("en-US")} tokens of context`
    : "";
  parts.push(
    `<sub>${result.parts.length} part${result.parts.length === 1 ? "" : "s"}${context}, $${result.costUsd.toFixed(4)}${o.runUrl ? ` · [workflow run](${o.runUrl})` : ""}. Read-only: nothing was changed.</sub>`,
  );
  const body = parts.join("\n\n");
  return body.length > MAX_BODY_CHARS ? `${body.slice(0, MAX_BODY_CHARS)}\n\n…(cut)` : body;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `  ${l.replace(/```/g, "'''")}`)
    .join("\n");
}
