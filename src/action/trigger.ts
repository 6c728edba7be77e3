/**
 * Which events start a task, who may start one, and the task's prompt and branch. The
 * payload's text is a stranger's (an issue body, a comment): it becomes the prompt, never a
 * setting. Every event is parsed with a schema of only the fields used, so a payload GitHub
 * extends still parses and one missing a field is ignored with a reason, not a crash.
 */
import { z } from "zod";

export const DEFAULT_ALLOWED_ASSOCIATIONS = ["OWNER", "MEMBER", "COLLABORATOR"] as const;
const ASSOCIATIONS = [
  "OWNER",
  "MEMBER",
  "COLLABORATOR",
  "CONTRIBUTOR",
  "FIRST_TIME_CONTRIBUTOR",
  "FIRST_TIMER",
  "MANNEQUIN",
  "NONE",
] as const;

export interface TriggerSettings {
  /** The label that starts a task on `issues` labeled. */
  label: string;
  /** `author_association` values whose comments start a task. */
  allowedAssociations: readonly string[];
  /** workflow_dispatch's `prompt` input. */
  prompt: string;
}

/** What to work on, from whom. `issue` is absent for a run started by hand without one. */
export interface TaskTrigger {
  kind: "run";
  event: string;
  prompt: string;
  branch: string;
  title: string;
  issue?: { number: number; url: string; isPullRequest: boolean };
  /** Said in the log: for example that the issue had no body. */
  notes: string[];
}

/** A pull request to review (`pull_request` opened, pushed to, reopened or marked ready). */
export interface ReviewTrigger {
  kind: "review";
  event: "pull_request";
  pull: { number: number; url: string; title: string; headSha: string; baseRef: string };
  notes: string[];
}

export type TriggerDecision = TaskTrigger | ReviewTrigger | { kind: "ignore"; reason: string };

/** The `pull_request` actions that put new code in front of a reviewer. */
const REVIEWED_ACTIONS = ["opened", "synchronize", "reopened", "ready_for_review"];

const Issue = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  pull_request: z.unknown().optional(),
});
const Comment = z.object({
  body: z.string(),
  author_association: z.string(),
  user: z.object({ login: z.string() }).nullish(),
});

const IssuesEvent = z.object({ action: z.string(), issue: Issue, label: z.object({ name: z.string() }).nullish() });
const IssueCommentEvent = z.object({ action: z.string(), issue: Issue, comment: Comment });
const ReviewCommentEvent = z.object({
  action: z.string(),
  comment: Comment,
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    body: z.string().nullish(),
    html_url: z.string(),
  }),
});
const PullRequestEvent = z.object({
  action: z.string(),
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    html_url: z.string(),
    draft: z.boolean().nullish(),
    author_association: z.string(),
    user: z.object({ login: z.string() }).nullish(),
    head: z.object({ sha: z.string().regex(/^[0-9a-f]{40}$/) }),
    base: z.object({ ref: z.string().min(1) }),
  }),
});
const DispatchEvent = z.object({ inputs: z.record(z.string(), z.unknown()).nullish() });

/** `@fathom` or `/fathom` at the very start of a comment, then the request. */
const MENTION = /^\s*[@/]fathom\b[:,]?/i;

export function parseAssociations(value: string): string[] | { error: string } {
  if (value.trim() === "") return [...DEFAULT_ALLOWED_ASSOCIATIONS];
  const names = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((n) => n.toUpperCase());
  const unknown = names.filter((n) => !(ASSOCIATIONS as readonly string[]).includes(n));
  if (unknown.length)
    return {
      error: `allowed-associations: ${unknown.join(", ")} is not an author association. Use some of ${ASSOCIATIONS.join(", ")} (default: ${DEFAULT_ALLOWED_ASSOCIATIONS.join(", ")}).`,
    };
  return names;
}

export function decideTrigger(eventName: string, payload: unknown, settings: TriggerSettings): TriggerDecision {
  switch (eventName) {
    case "issues":
      return fromLabel(payload, settings);
    case "issue_comment":
      return fromComment(payload, settings, "issue_comment");
    case "pull_request_review_comment":
      return fromComment(payload, settings, "pull_request_review_comment");
    case "workflow_dispatch":
      return fromDispatch(payload, settings);
    case "pull_request":
      return fromPullRequest(payload, settings);
    case "pull_request_target":
      return {
        kind: "ignore",
        reason:
          "Fathom does not run on pull_request_target: that event runs with the repository's secrets, and a task started from it would work on a stranger's code. Use issue_comment (\"@fathom …\") on the pull request instead.",
      };
    default:
      return {
        kind: "ignore",
        reason: `The event ${eventName || "(none)"} is not one Fathom handles (issues labeled, issue_comment, pull_request_review_comment, workflow_dispatch, pull_request): nothing to do.`,
      };
  }
}

function fromLabel(payload: unknown, s: TriggerSettings): TriggerDecision {
  const parsed = IssuesEvent.safeParse(payload);
  if (!parsed.success)
    return { kind: "ignore", reason: "The issues event has no issue in its payload: nothing to do." };
  const { action, issue, label } = parsed.data;
  if (action !== "labeled")
    return { kind: "ignore", reason: `Issue #${issue.number} was ${action}, not labeled: nothing to do.` };
  if (label?.name.toLowerCase() !== s.label.toLowerCase())
    return {
      kind: "ignore",
      reason: `Issue #${issue.number} was labeled "${label?.name ?? ""}", not "${s.label}": nothing to do.`,
    };
  // Only people with triage access or more can label, so GitHub has already checked who did.
  const notes: string[] = [];
  const body = (issue.body ?? "").trim();
  if (!body) notes.push(`Issue #${issue.number} has no body: its title is the whole task.`);
  return task(
    "issues",
    issue.title,
    issueText(issue.title, body),
    { number: issue.number, url: issue.html_url, isPullRequest: issue.pull_request !== undefined },
    notes,
  );
}

function fromComment(
  payload: unknown,
  s: TriggerSettings,
  event: "issue_comment" | "pull_request_review_comment",
): TriggerDecision {
  let parsed;
  if (event === "issue_comment") {
    const p = IssueCommentEvent.safeParse(payload);
    if (!p.success)
      return { kind: "ignore", reason: "The comment event has no issue or comment in its payload: nothing to do." };
    parsed = {
      action: p.data.action,
      comment: p.data.comment,
      issue: { ...p.data.issue, isPullRequest: p.data.issue.pull_request !== undefined },
    };
  } else {
    const p = ReviewCommentEvent.safeParse(payload);
    if (!p.success)
      return {
        kind: "ignore",
        reason: "The review comment event has no pull request or comment in its payload: nothing to do.",
      };
    parsed = { action: p.data.action, comment: p.data.comment, issue: { ...p.data.pull_request, isPullRequest: true } };
  }
  const { action, comment, issue } = parsed;
  if (action !== "created")
    return { kind: "ignore", reason: `A comment on #${issue.number} was ${action}, not created: nothing to do.` };
  if (!MENTION.test(comment.body))
    return {
      kind: "ignore",
      reason: `The comment on #${issue.number} does not start with @fathom or /fathom: nothing to do.`,
    };
  const who = comment.user?.login ?? "someone";
  if (!s.allowedAssociations.includes(comment.author_association.toUpperCase())) {
    return {
      kind: "ignore",
      reason: `${who} (${comment.author_association}) asked on #${issue.number}, but only ${s.allowedAssociations.join(", ")} may start Fathom (input allowed-associations): nothing done.`,
    };
  }
  const request = comment.body.replace(MENTION, "").trim();
  const notes: string[] = [];
  const body = (issue.body ?? "").trim();
  if (!request)
    notes.push(
      `The comment asks nothing after the mention: the ${issue.isPullRequest ? "pull request" : "issue"}'s title and body are the task.`,
    );
  const prompt = request
    ? `${request}\n\nThis was asked in a comment by ${who} on ${issue.isPullRequest ? "pull request" : "issue"} #${issue.number} (${issue.html_url}), "${issue.title}".${body ? `\n\nIts description:\n${body}` : ""}`
    : issueText(issue.title, body);
  return task(
    event,
    request ? firstLine(request) : issue.title,
    prompt,
    { number: issue.number, url: issue.html_url, isPullRequest: issue.isPullRequest },
    notes,
  );
}

function fromDispatch(payload: unknown, s: TriggerSettings): TriggerDecision {
  const parsed = DispatchEvent.safeParse(payload);
  const fromEvent =
    parsed.success && typeof parsed.data.inputs?.prompt === "string" ? parsed.data.inputs.prompt.trim() : "";
  const prompt = s.prompt || fromEvent;
  if (!prompt)
    return {
      kind: "ignore",
      reason:
        "workflow_dispatch was started without a prompt: give the workflow a `prompt` input and pass it to the action's `prompt`.",
    };
  return task("workflow_dispatch", firstLine(prompt), prompt, undefined, []);
}

/**
 * A pull request to review: only when new code arrived (not a label or an assignee), not while it
 * is a draft, and only from an author the inputs allow, since each review is paid for.
 */
function fromPullRequest(payload: unknown, s: TriggerSettings): TriggerDecision {
  const parsed = PullRequestEvent.safeParse(payload);
  if (!parsed.success)
    return { kind: "ignore", reason: "The pull_request event has no pull request in its payload: nothing to do." };
  const { action, pull_request: pr } = parsed.data;
  if (!REVIEWED_ACTIONS.includes(action))
    return {
      kind: "ignore",
      reason: `Pull request #${pr.number} was ${action.replace(/_/g, " ")}: Fathom reviews when it is ${REVIEWED_ACTIONS.join(", ").replace(/_/g, " ")}; nothing to do.`,
    };
  if (pr.draft)
    return {
      kind: "ignore",
      reason: `Pull request #${pr.number} is a draft: Fathom reviews it when it is marked ready for review.`,
    };
  if (!s.allowedAssociations.includes(pr.author_association.toUpperCase()))
    return {
      kind: "ignore",
      reason: `Pull request #${pr.number} is by ${pr.user?.login ?? "someone"} (${pr.author_association}), but only ${s.allowedAssociations.join(", ")} get a review (input allowed-associations): nothing done.`,
    };
  return {
    kind: "review",
    event: "pull_request",
    pull: { number: pr.number, url: pr.html_url, title: pr.title, headSha: pr.head.sha, baseRef: pr.base.ref },
    notes: [],
  };
}

function issueText(title: string, body: string): string {
  return body ? `${title}\n\n${body}` : title;
}

function task(event: string, title: string, prompt: string, issue: TaskTrigger["issue"], notes: string[]): TaskTrigger {
  const full = issue
    ? `${prompt}\n\n(GitHub ${issue.isPullRequest ? "pull request" : "issue"} #${issue.number}: ${issue.url})`
    : prompt;
  const branch = `fathom/${issue ? issue.number : "manual"}-${slugify(title)}`;
  return {
    kind: "run",
    event,
    prompt: full,
    branch,
    title: firstLine(title).slice(0, 120),
    ...(issue ? { issue } : {}),
    notes,
  };
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/)[0]?.trim() ?? "";
}

/** Lower-case ASCII words joined by `-`, at most 40 characters; "task" when nothing is left. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return slug || "task";
}
