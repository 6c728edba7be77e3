import {
  DiffIndex,
  findingPlace,
  newRunState,
  readReviewDiff,
  runReview,
  withCommitFiles,
  type AgentEvent,
  type ChatModel,
  type DoneEvent,
  type ReviewFinding,
  type ReviewPart,
  type ReviewResult,
  type RunState,
  type ReviewTarget,
} from "../../core";
import type { ReviewFindingView } from "../../protocol";
import { severityLabel } from "./findingThread";
import { reviewTargetLabel } from "./reviewArgs";

export interface PanelReviewOptions {
  target: ReviewTarget;
  /** The folder whose repository is reviewed (the workspace's). */
  dir: string;
  model: ChatModel;
  secretFiles: readonly string[];
  signal: AbortSignal;
  /** The task's conversation so far: the review's request and summary are added to it. */
  state: RunState | null;
  /** The task's message that asked for the review (kept in the conversation). */
  request: string;
  /** Each part's events, as a task's: its cards, answer and context meter show in the chat. */
  onEvent(event: AgentEvent): void;
  notice(level: "info" | "warning", text: string): void;
  /** A file of the repository as the chat names it (`/src/a.ts`), or undefined outside the workspace. */
  virtualPath(root: string, file: string): string | undefined;
}

export interface PanelReviewOutcome {
  /** The run's one `done` (each part's own are not passed on). */
  done: DoneEvent;
  /** The repository and findings with the lines they were on as reviewed (absent when nothing was reviewed). */
  findings?: { root: string; items: { finding: ReviewFinding; reviewed?: string }[] };
  /** The summary's findings for the chat (file:line links). */
  view: ReviewFindingView[];
}

const percent = (share: number) => (share < 0.01 ? "under 1%" : `${Math.round(share * 100)}%`);

/** How a part of the diff starts, in the chat: what it holds and how much of the context it takes. */
export function partNotice(part: ReviewPart): string {
  const of = part.total > 1 ? `part ${part.index + 1} of ${part.total}: ` : "";
  const files = `${part.files.length} file${part.files.length === 1 ? "" : "s"}, ${part.changedLines} changed line${part.changedLines === 1 ? "" : "s"}`;
  return `Reviewing ${of}${files}. The diff takes about ${part.diffTokens.toLocaleString("en-US")} tokens, ${percent(part.contextShare)} of the model's ${part.contextWindow.toLocaleString("en-US")}-token context.`;
}

/**
 * The review's closing message: how many findings of which kind, and why it stopped early if it
 * did. `listed` (the conversation's copy, which the model reads later) adds each finding's place
 * and the parts' closing words; the chat shows those already (the answers, the links under it).
 */
export function reviewSummary(
  label: string,
  result: Pick<ReviewResult, "findings" | "summaries" | "status" | "message">,
  listed: boolean,
): string {
  const n = result.findings.length;
  const counts = (["bug", "risk", "nit"] as const)
    .map((s) => [s, result.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, c]) => c > 0)
    .map(([s, c]) => `${c} ${s}${c === 1 ? "" : "s"}`)
    .join(", ");
  const head = `**Review of ${label}: ${n === 0 ? "no findings" : `${n} finding${n === 1 ? "" : "s"} (${counts})`}.**`;
  const list = result.findings.map(
    (f, i) =>
      `${i + 1}. **${severityLabel(f.severity)}** \`${findingPlace(f)}\`: ${f.title}${f.fix !== undefined ? " (fix suggested)" : ""}`,
  );
  const stopped = result.status === "incomplete" || result.status === "cancelled" ? (result.message ?? "") : "";
  if (!listed) return [head, stopped].filter(Boolean).join("\n\n");
  const after =
    n > 0 ? "Each finding is a comment on its lines in the editor, with Apply fix where a fix is suggested." : "";
  return [head, list.join("\n"), result.summaries.join("\n\n"), stopped, after].filter(Boolean).join("\n\n");
}

/**
 * `/review` as a task's run: the diff read from git, reviewed part by part by the core's
 * read-only review (`runReview`), each part's events shown as a task's; it ends with one summary
 * message and one `done` whose conversation holds the request and the summary (so the task can
 * go on about the findings).
 */
export async function reviewInPanel(o: PanelReviewOptions): Promise<PanelReviewOutcome> {
  const label = reviewTargetLabel(o.target);
  const diff = await readReviewDiff(o.dir, o.target);
  if ("error" in diff) return { done: reviewRefused(o.state, diff.error), view: [] };
  const state = o.state ? structuredClone(o.state) : newRunState();
  const end = (reason: DoneEvent["reason"], text: string, message?: string): DoneEvent => {
    state.messages.push({ role: "user", content: o.request }, { role: "assistant", content: text });
    return { type: "done", reason, finalText: text, ...(message ? { message } : {}), state };
  };
  const review = (root: string) =>
    runReview({
      model: o.model,
      root,
      files: diff.files,
      label: diff.label,
      secretFiles: o.secretFiles,
      signal: o.signal,
      onPart: (part) => o.notice("info", partNotice(part)),
      onEvent: (event) => {
        if (event.type !== "done") o.onEvent(event);
      },
    });
  // A pull request's files are not the work tree's: the model reads them from a checkout of its head (as the CLI's).
  const result =
    o.target.kind === "pr" && diff.headSha
      ? await withCommitFiles(diff.root, diff.headSha, review, (why) => o.notice("warning", `Review: ${why}.`))
      : await review(diff.root);
  state.costUsd += result.costUsd;
  if (result.skipped.length > 0)
    o.notice(
      "info",
      `Not reviewed: ${result.skipped
        .slice(0, 20)
        .map((s) => `${s.path} (${s.reason})`)
        .join(", ")}${result.skipped.length > 20 ? ` and ${result.skipped.length - 20} more` : ""}.`,
    );
  const summary = (listed: boolean) =>
    result.status === "nothing_to_review"
      ? `Nothing to review in ${label}: ${result.message ?? "no changed lines"}.`
      : reviewSummary(label, result, listed);
  // A message of its own, after the last part's answer.
  o.onEvent({ type: "step_started", step: 1 });
  o.onEvent({ type: "text_delta", text: summary(false) });
  const index = new DiffIndex(diff.files);
  const items = result.findings.map((finding) => {
    const reviewed = index.newText(finding.file, finding.startLine, finding.endLine);
    return { finding, ...(reviewed !== undefined ? { reviewed } : {}) };
  });
  const view = result.findings.map((f): ReviewFindingView => {
    const path = o.virtualPath(diff.root, f.file);
    return {
      place: findingPlace(f),
      line: f.startLine,
      severity: f.severity,
      title: f.title,
      fix: f.fix !== undefined,
      ...(path ? { path } : {}),
    };
  });
  const reason =
    result.status === "cancelled"
      ? "cancelled"
      : result.status === "incomplete" && result.findings.length === 0
        ? "error"
        : "completed";
  return {
    done: end(reason, summary(true), reason === "completed" ? undefined : result.message),
    findings: { root: diff.root, items },
    view,
  };
}

/** A review that could not start (no repository, a base that is no commit): the run fails with why, the conversation unchanged. */
export function reviewRefused(state: RunState | null, why: string): DoneEvent {
  return { type: "done", reason: "error", finalText: "", message: why, state: state ?? newRunState() };
}
