/**
 * A review run's one feature: the `report_finding` tool, the reviewer's instructions, and Plan
 * mode's guard (only tools that change nothing are offered or run). A finding is checked where it
 * enters: its fields against the schema, its place against the diff; what is wrong goes back to
 * the model as a tool error saying what to fix, and nothing is recorded.
 */
import { changeNothingGuard } from "../middleware/planMode";
import { toolError, type Middleware } from "../middleware/types";
import { defineTool, type Tool } from "../tools/tool";
import type { DiffIndex } from "./diffLines";
import { findingFromArgs, ReportFindingArgsSchema, type ReviewFinding } from "./finding";

export const REPORT_FINDING = "report_finding";
/** One review records at most this many findings: past it, the rest are noise. */
export const MAX_FINDINGS = 50;

const REVIEW_PROMPT = `# Review
You review a change (a diff) to this repository. Find what is wrong in the changed lines: bugs first (wrong behaviour, crashes, broken edge cases), then risks (security, data loss, races, missing error handling), then only clear nits. Read the surrounding code with the read-only tools when the diff alone does not tell; nothing may be changed, and nothing outside the repository can be read.
Report each problem with report_finding, on the lines the diff shows (numbered as shown, new side). Give a fix only when it is small and certain: the exact replacement text of those lines. Do not report what is fine, and do not report the same problem twice.
When you have reported everything, answer with one or two sentences summing up the change's state. If nothing is wrong, report nothing and say so.`;

export interface ReviewMiddlewareOptions {
  index: DiffIndex;
  /** Findings so far (of earlier parts too): a new one is appended, a repeated one refused. */
  findings: ReviewFinding[];
  onFinding?: (finding: ReviewFinding) => void;
  /** The run's tools by name, for the guard (filled once the agent is built). */
  tools: () => ReadonlyMap<string, Tool>;
  maxFindings?: number;
}

export function reviewMiddleware(o: ReviewMiddlewareOptions): Middleware {
  const max = o.maxFindings ?? MAX_FINDINGS;
  const reportFinding = defineTool({
    name: REPORT_FINDING,
    description:
      "Records one problem found in the diff under review: the changed file, its line (and last line) as the diff numbers them, severity, a one-line title, why, and optionally the exact replacement text as a fix. Returns whether it was recorded.",
    schema: ReportFindingArgsSchema,
    kind: "other",
    run(args) {
      const read = findingFromArgs(args);
      if ("error" in read) return Promise.resolve(toolError(read.error));
      const finding = read.finding;
      const misplaced = o.index.refusal(finding);
      if (misplaced) return Promise.resolve(toolError(`Finding not recorded: ${misplaced}`));
      if (o.findings.length >= max)
        return Promise.resolve(
          toolError(
            `Finding not recorded: this review already has ${max} findings, the most it keeps. Stop reporting and give your summary.`,
          ),
        );
      const same = o.findings.find(
        (f) =>
          f.file === finding.file &&
          f.startLine === finding.startLine &&
          f.title.toLowerCase() === finding.title.toLowerCase(),
      );
      if (same)
        return Promise.resolve(
          toolError(
            `Finding not recorded: "${same.title}" at ${same.file}:${same.startLine} is already reported. Go on with the next problem.`,
          ),
        );
      o.findings.push(finding);
      o.onFinding?.(finding);
      const range =
        finding.endLine > finding.startLine ? `${finding.startLine}-${finding.endLine}` : `${finding.startLine}`;
      return Promise.resolve({
        content: `Recorded (${finding.severity}) at ${finding.file}:${range}.`,
        details: { finding },
      });
    },
  });
  return {
    name: "review",
    tools: [reportFinding],
    systemPrompt: (ctx) => (ctx.subagentType === undefined ? REVIEW_PROMPT : undefined),
    ...changeNothingGuard({
      tools: o.tools,
      active: () => true,
      refusal: (name) =>
        `Not run: a review changes nothing, so ${name} is not available. Read what you need, report findings with ${REPORT_FINDING}, then give your summary.`,
    }),
  };
}
