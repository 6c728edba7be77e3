import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import * as path from "node:path";
import { git, runGit } from "./git";
import { branchSlug, defaultWorktreesDir, worktreeSupport } from "./taskWorktrees";
import { applyTreeToWorkingTree, diffFiles, type ApplyResult, type ChangedFile } from "./worktreeChanges";

/** A `fathom/*` branch on a remote (pushed by the GitHub Action, another machine or a colleague). */
export interface RemoteBranch {
  remote: string;
  /** The branch's name on the remote, e.g. `fathom/12-fix-the-parser`. */
  branch: string;
  /** Where git keeps it here: `refs/remotes/<remote>/<branch>`. */
  ref: string;
  head: string;
  /** Where it left the person's history: the merge base with HEAD (what its changes are against). */
  base: string;
  /** Its last commit's subject. */
  subject: string;
  files: ChangedFile[];
}

export type FetchOutcome = { remote: string; ok: true } | { remote: string; ok: false; reason: string };

const BRANCH_PREFIX = "fathom/";
/** A remote's name as git allows it, and nothing a shell or a refspec would read otherwise. */
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const FETCH_TIMEOUT_MS = 60_000;

/** git's own reason (its first `fatal:` line), not the advice it prints after it. */
function fetchProblem(stderr: string, code: number): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = lines.find((l) => l.startsWith("fatal:"));
  return (fatal ? fatal.slice("fatal:".length).trim() : lines[0]) || `git fetch exited with ${code}`;
}

/**
 * The remote's `fathom/*` branches, reviewed like task worktrees: git is the transport (a fetch
 * of `refs/heads/fathom/*` only, into the usual remote-tracking refs; no API, no credentials of
 * Fathom's own), each branch's files against where it left HEAD's history, a file's two texts,
 * Apply into the working tree with the worktrees' all-or-nothing rules, and Check out as a
 * worktree of its own. Every git call runs without the repository's hooks or fsmonitor.
 */
export class RemoteBranches {
  constructor(private readonly o: { repoDir: string; worktreesDir?: string }) {}

  private async top(): Promise<string> {
    const support = await worktreeSupport(this.o.repoDir);
    if (!support.ok) throw new Error(support.reason);
    return support.topLevel;
  }

  /** The repository's remotes (none: nothing to fetch). */
  async remotes(): Promise<string[]> {
    const r = await runGit(["remote"], { cwd: this.o.repoDir });
    return r.code === 0 ? r.stdout.split("\n").filter((n) => REMOTE_NAME.test(n)) : [];
  }

  /**
   * Fetches every remote's `fathom/*` branches (and prunes the ones deleted there). A remote
   * that cannot be reached is said, not thrown: the others are still listed.
   */
  async fetch(): Promise<FetchOutcome[]> {
    const top = await this.top();
    return Promise.all(
      (await this.remotes()).map(async (remote): Promise<FetchOutcome> => {
        // BatchMode: an SSH remote that would ask for a password fails at once instead of waiting.
        const fetched = await runGit(
          [
            "fetch",
            "--no-tags",
            "--prune",
            "--no-write-fetch-head",
            remote,
            `+refs/heads/${BRANCH_PREFIX}*:refs/remotes/${remote}/${BRANCH_PREFIX}*`,
          ],
          {
            cwd: top,
            env: { GIT_SSH_COMMAND: "ssh -o BatchMode=yes" },
            timeoutMs: FETCH_TIMEOUT_MS,
          },
        );
        return fetched.code === 0
          ? { remote, ok: true }
          : { remote, ok: false, reason: fetchProblem(fetched.stderr, fetched.code) };
      }),
    );
  }

  /** The `fathom/*` branches git knows of on the remotes (after `fetch`, or the person's own fetches). */
  async list(): Promise<RemoteBranch[]> {
    const top = await this.top();
    const remotes = new Set(await this.remotes());
    const out = await git(["for-each-ref", "--format=%(refname)%00%(objectname)%00%(subject)", "refs/remotes/"], {
      cwd: top,
    });
    const branches: RemoteBranch[] = [];
    for (const line of out.split("\n")) {
      const [ref, head, subject] = line.split("\0");
      const match = ref ? /^refs\/remotes\/([^/]+)\/(fathom\/.+)$/.exec(ref) : null;
      if (!match || !remotes.has(match[1]!) || !head) continue;
      const base = await runGit(["merge-base", "HEAD", head], { cwd: top });
      if (base.code !== 0) continue; // No history in common: not a branch of this project's.
      const baseSha = base.stdout.trim();
      branches.push({
        remote: match[1]!,
        branch: match[2]!,
        ref: ref!,
        head,
        base: baseSha,
        subject: subject ?? "",
        files: await diffFiles({ cwd: top }, baseSha, head),
      });
    }
    return branches;
  }

  async get(ref: string): Promise<RemoteBranch> {
    const found = (await this.list()).find((b) => b.ref === ref);
    if (!found)
      throw new Error(
        `${ref.replace(/^refs\/remotes\//, "")} is no longer on the remote (or was never fetched): refresh the list.`,
      );
    return found;
  }

  /** A file's text at the branch's base and at its head (null: absent there). */
  async texts(
    ref: string,
    file: string,
  ): Promise<{ branch: RemoteBranch; before: string | null; after: string | null }> {
    const branch = await this.get(ref);
    if (!branch.files.some((f) => f.path === file))
      throw new Error(`${file} is not among the files ${branch.branch} changed.`);
    const top = await this.top();
    const show = async (commit: string) => {
      const r = await runGit(["show", `${commit}:${file}`], { cwd: top });
      return r.code === 0 ? r.stdout : null;
    };
    return { branch, before: await show(branch.base), after: await show(branch.head) };
  }

  /** Brings the branch's changes into the working tree as uncommitted changes, or refuses, changing nothing. */
  async apply(ref: string): Promise<ApplyResult> {
    const branch = await this.get(ref);
    const top = await this.top();
    return applyTreeToWorkingTree(
      {
        base: branch.base,
        tree: branch.head,
        at: { cwd: top },
        files: branch.files,
        what: branch.branch,
        openHint: "check it out as a worktree and take what you need",
      },
      top,
    );
  }

  /**
   * Makes a worktree of the branch on a local branch of the same name tracking it, in the same
   * folder as task worktrees (outside the workspace); returns its folder.
   */
  async checkOut(ref: string): Promise<{ path: string; branch: string }> {
    const branch = await this.get(ref);
    const top = await this.top();
    if ((await runGit(["show-ref", "--verify", "--quiet", `refs/heads/${branch.branch}`], { cwd: top })).code === 0) {
      throw new Error(
        `A local branch ${branch.branch} exists already (a task worktree of this machine's, or an earlier check-out): open or apply that one, or delete the local branch first.`,
      );
    }
    const realTop = realpathSync(top);
    const home = path.join(
      this.o.worktreesDir ?? defaultWorktreesDir(),
      `${branchSlug(path.basename(realTop))}-${createHash("sha256").update(realTop).digest("hex").slice(0, 8)}`,
    );
    mkdirSync(home, { recursive: true });
    const name = path.join(home, `${branch.remote}-${branchSlug(branch.branch.slice(BRANCH_PREFIX.length))}`);
    let folder = name;
    for (let n = 2; existsSync(folder); n++) folder = `${name}-${n}`;
    await git(["-c", "checkout.workers=0", "worktree", "add", "--track", "-b", branch.branch, folder, branch.ref], {
      cwd: top,
    });
    return { path: folder, branch: branch.branch };
  }
}
