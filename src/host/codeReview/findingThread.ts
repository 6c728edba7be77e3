import { findingPlace, type ReviewFinding } from "../../core";

/** How a finding shows as a comment thread in the editor (no `vscode` here: the host turns it into one). */
export interface FindingThreadView {
  /** 0-based, inclusive: the editor's lines the thread spans. */
  startLine: number;
  endLine: number;
  /** The thread's header. */
  label: string;
  /** The comment: severity and title, why, and the suggested fix as a diff (markdown). */
  body: string;
  /** What the thread's menus key on: "Apply fix" is offered only where there is a fix. */
  contextValue: typeof WITH_FIX | typeof WITHOUT_FIX;
}

export const WITH_FIX = "fathomFindingWithFix";
export const WITHOUT_FIX = "fathomFinding";

const SEVERITY_LABEL: Record<ReviewFinding["severity"], string> = { bug: "Bug", risk: "Risk", nit: "Nit" };

/** A fence longer than any run of backticks in `text`, so the fix's own code cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** The suggested fix as a diff of the reviewed lines (when known) against their replacement. */
export function fixAsDiff(reviewed: string | undefined, fix: string): string {
  const removed = reviewed === undefined ? [] : reviewed.split("\n").map((line) => `-${line}`);
  const added = fix === "" ? [] : fix.split("\n").map((line) => `+${line}`);
  const diff = [...removed, ...added].join("\n");
  const fence = fenceFor(diff);
  return `${fence}diff\n${diff}\n${fence}`;
}

export function severityLabel(severity: ReviewFinding["severity"]): string {
  return SEVERITY_LABEL[severity];
}

/**
 * A finding as its comment thread: on its lines, its severity and title in bold, why (the model's
 * markdown), and the fix shown as a diff of the lines it replaces (`reviewed`: those lines as the
 * review saw them).
 */
export function findingThreadView(finding: ReviewFinding, reviewed: string | undefined): FindingThreadView {
  const fix =
    finding.fix === undefined
      ? ""
      : `\n\n**Suggested fix** (${findingPlace(finding)}; "Apply fix" proposes it as an edit to approve):\n\n${fixAsDiff(reviewed, finding.fix)}`;
  return {
    startLine: finding.startLine - 1,
    endLine: finding.endLine - 1,
    label: `Fathom Review: ${SEVERITY_LABEL[finding.severity]}`,
    body: `**${SEVERITY_LABEL[finding.severity]}: ${finding.title.replace(/\*/g, "\\*")}**\n\n${finding.why}${fix}`,
    contextValue: finding.fix === undefined ? WITHOUT_FIX : WITH_FIX,
  };
}
