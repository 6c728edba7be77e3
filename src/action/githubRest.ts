/**
 * The REST calls the action makes (find, open and update its pull request; comment; list a pull
 * request's reviews and post one), on `fetch`. GitHub's rules for trying again are followed: 5xx and 429 are retried with backoff,
 * a 403 only when it is a rate limit (`retry-after`, or `x-ratelimit-remaining: 0`), waiting as
 * long as the answer says (up to a minute); anything else fails at once with a message that says
 * what to change.
 */
import { z } from "zod";

export interface GitHubRestOptions {
  apiUrl: string;
  token: string;
  /** owner/name */
  repository: string;
  fetch?: typeof fetch;
  /** First backoff between tries (doubles each time). */
  retryBaseMs?: number;
  attempts?: number;
  onRetry?: (message: string) => void;
}

export class GitHubApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const PullRequest = z.object({ number: z.number(), html_url: z.string() });
const Comment = z.object({ html_url: z.string() });
const Repository = z.object({ default_branch: z.string() });
const Review = z.object({ id: z.number(), body: z.string().nullish(), commit_id: z.string().nullish() });
export type ReviewRef = z.infer<typeof Review>;

/** A line comment of a review: on the new side (`RIGHT`), one line or `start_line`..`line`. */
export interface ReviewComment {
  path: string;
  line: number;
  side: "RIGHT";
  start_line?: number;
  start_side?: "RIGHT";
  body: string;
}

const REVIEWS_PER_PAGE = 100;
/** A pull request with more reviews than this is read only this far (GitHub lists oldest first). */
const MAX_REVIEW_PAGES = 10;
export type PullRequestRef = z.infer<typeof PullRequest>;

const MAX_WAIT_MS = 60_000;

export class GitHubRest {
  private readonly fetchFn: typeof fetch;
  private readonly owner: string;

  constructor(private readonly o: GitHubRestOptions) {
    this.fetchFn = o.fetch ?? fetch;
    this.owner = o.repository.split("/")[0] ?? "";
  }

  async defaultBranch(): Promise<string> {
    return Repository.parse(await this.call("GET", `/repos/${this.o.repository}`)).default_branch;
  }

  /** The open pull request from `branch`, if there is one (the one an earlier run opened). */
  async findOpenPullRequest(branch: string): Promise<PullRequestRef | undefined> {
    const list = z
      .array(PullRequest)
      .parse(
        await this.call(
          "GET",
          `/repos/${this.o.repository}/pulls?state=open&head=${encodeURIComponent(`${this.owner}:${branch}`)}&per_page=1`,
        ),
      );
    return list[0];
  }

  async createPullRequest(p: { title: string; head: string; base: string; body: string }): Promise<PullRequestRef> {
    return PullRequest.parse(
      await this.call("POST", `/repos/${this.o.repository}/pulls`, { ...p, maintainer_can_modify: true }),
    );
  }

  async updatePullRequest(number: number, p: { title: string; body: string }): Promise<PullRequestRef> {
    return PullRequest.parse(await this.call("PATCH", `/repos/${this.o.repository}/pulls/${number}`, p));
  }

  async comment(issue: number, body: string): Promise<string> {
    return Comment.parse(await this.call("POST", `/repos/${this.o.repository}/issues/${issue}/comments`, { body }))
      .html_url;
  }

  /** The pull request's reviews, oldest first. */
  async listReviews(pull: number): Promise<ReviewRef[]> {
    const all: ReviewRef[] = [];
    for (let page = 1; page <= MAX_REVIEW_PAGES; page++) {
      const batch = z
        .array(Review)
        .parse(
          await this.call(
            "GET",
            `/repos/${this.o.repository}/pulls/${pull}/reviews?per_page=${REVIEWS_PER_PAGE}&page=${page}`,
          ),
        );
      all.push(...batch);
      if (batch.length < REVIEWS_PER_PAGE) break;
    }
    return all;
  }

  /** Posts one review (a comment, neither approving nor requesting changes) with its line comments. */
  async createReview(
    pull: number,
    r: { commit_id: string; body: string; comments: ReviewComment[] },
  ): Promise<{ id: number; html_url: string }> {
    return z
      .object({ id: z.number(), html_url: z.string() })
      .parse(await this.call("POST", `/repos/${this.o.repository}/pulls/${pull}/reviews`, { ...r, event: "COMMENT" }));
  }

  private async call(method: string, route: string, body?: unknown): Promise<unknown> {
    const attempts = this.o.attempts ?? 4;
    const base = this.o.retryBaseMs ?? 1000;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchFn(`${this.o.apiUrl.replace(/\/+$/, "")}${route}`, {
          method,
          headers: {
            accept: "application/vnd.github+json",
            authorization: `Bearer ${this.o.token}`,
            "x-github-api-version": "2022-11-28",
            "user-agent": "fathom-action",
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
      } catch (error) {
        if (attempt < attempts) {
          this.o.onRetry?.(`${method} ${route}: ${(error as Error).message}; trying again.`);
          await sleep(base * 2 ** (attempt - 1));
          continue;
        }
        throw new GitHubApiError(
          0,
          `GitHub's API at ${this.o.apiUrl} could not be reached (${method} ${route}): ${(error as Error).message}.`,
        );
      }
      if (response.ok) return response.status === 204 ? undefined : response.json();
      const text = await response.text();
      const wait = retryWait(response, attempt, base);
      if (wait !== undefined && attempt < attempts) {
        this.o.onRetry?.(
          `${method} ${route} answered ${response.status}; trying again in ${Math.round(wait / 1000)} s.`,
        );
        await sleep(wait);
        continue;
      }
      throw new GitHubApiError(response.status, explain(method, route, response.status, text));
    }
  }
}

/** How long to wait before trying again, or undefined when this answer is not worth another try. */
function retryWait(response: Response, attempt: number, base: number): number | undefined {
  const retryAfter = Number(response.headers.get("retry-after"));
  const rateLimited = response.headers.get("x-ratelimit-remaining") === "0";
  if (response.status === 403 && !response.headers.has("retry-after") && !rateLimited) return undefined;
  if (response.status !== 403 && response.status !== 429 && response.status < 500) return undefined;
  if (response.headers.has("retry-after") && Number.isFinite(retryAfter))
    return Math.min(retryAfter * 1000, MAX_WAIT_MS);
  const reset = Number(response.headers.get("x-ratelimit-reset"));
  if (rateLimited && Number.isFinite(reset)) return Math.min(Math.max(0, reset * 1000 - Date.now()), MAX_WAIT_MS);
  return base * 2 ** (attempt - 1);
}

function explain(method: string, route: string, status: number, text: string): string {
  let detail = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as {
      message?: string;
      errors?: { message?: string; code?: string; field?: string }[];
    };
    detail = [
      parsed.message,
      ...(parsed.errors ?? []).map((e) => e.message ?? [e.field, e.code].filter(Boolean).join(" ")),
    ]
      .filter(Boolean)
      .join("; ");
  } catch {
    // not JSON: the text as it came
  }
  const what = `GitHub answered ${status} to ${method} ${route.split("?")[0]}${detail ? `: ${detail}` : ""}.`;
  if (status === 401)
    return `${what} The token was refused: pass the workflow's GITHUB_TOKEN (or a token with access to this repository) as github-token.`;
  if (status === 403 || status === 404)
    return `${what} The token may lack a permission: the workflow needs "permissions: contents: write, pull-requests: write, issues: write" (and, for pull requests, the repository setting "Allow GitHub Actions to create and approve pull requests").`;
  if (status >= 500) return `${what} GitHub kept failing after several tries; run the workflow again later.`;
  return what;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
