/**
 * The diff a review reads, from git: the staged changes, a branch against a base (`git diff
 * BASE...HEAD`: what HEAD adds since it left BASE), or a pull request fetched from a remote
 * (`refs/pull/N/head`, which GitHub and most hosts publish). git runs as everywhere in Fathom
 * (no hooks, no external diff programs); nothing in the work tree or the index is changed. Bad
 * input is a value with a message for the person: a base that is no commit, a missing pull
 * request, a diff too large to read.
 */
import { DIFF_FLAGS } from "../commitMessage/repositoryChanges";
import { parseGitDiff, type FileDiff } from "../commitMessage/fileDiffs";
import { runGit } from "../worktrees/git";

export type ReviewTarget =
  /** The work tree's changes to tracked files against HEAD, staged or not (VS Code's `/review`). */
  | { kind: "uncommitted" }
  | { kind: "staged" }
  | { kind: "base"; ref: string }
  /**
   * What the pull request is compared with: `base`, a commit here; else `baseBranch`, a branch of
   * the remote, fetched; else the remote's default branch.
   */
  | { kind: "pr"; number: number; remote?: string; base?: string; baseBranch?: string };

export interface ReviewDiff {
  /** The repository's top folder: the review reads files only under it. */
  root: string;
  files: FileDiff[];
  /** What was compared, for people: "the staged changes", "HEAD against main", "pull request #4". */
  label: string;
  /** The commit reviewed (not for staged changes). */
  headSha?: string;
  baseSha?: string;
}

/** A diff larger than this is refused rather than read (a review of it would be no review). */
export const MAX_DIFF_BYTES = 16 * 1024 * 1024;

/** Reads the diff `target` names in the repository holding `dir`. */
export async function readReviewDiff(
  dir: string,
  target: ReviewTarget,
  /** `remoteEnv`: variables for git's talks with the remote only (the Action's token as a header). */
  o: { maxBytes?: number; remoteEnv?: Record<string, string> } = {},
): Promise<ReviewDiff | { error: string }> {
  const top = await runGit(["rev-parse", "--show-toplevel"], { cwd: dir });
  if (top.code === 127) return { error: top.stderr };
  if (top.code !== 0)
    return {
      error: /not a git repository/i.test(top.stderr)
        ? `${dir} is not in a git repository.`
        : `git could not read the repository at ${dir}: ${top.stderr.trim()}`,
    };
  const root = top.stdout.trim();
  const maxBytes = o.maxBytes ?? MAX_DIFF_BYTES;
  if (target.kind === "staged") {
    const files = await diffFiles(root, ["--cached"], maxBytes);
    return "error" in files ? files : { root, files, label: "the staged changes" };
  }
  if (target.kind === "uncommitted") {
    if ("error" in (await commitOf(root, "HEAD")))
      return {
        error: "HEAD is not a commit yet (a repository with no commits): commit first, or review the staged changes.",
      };
    const files = await diffFiles(root, ["HEAD"], maxBytes);
    return "error" in files ? files : { root, files, label: "the uncommitted changes" };
  }
  let base: string;
  let head: string;
  let label: string;
  if (target.kind === "base") {
    const baseSha = await commitOf(root, target.ref);
    if ("error" in baseSha) return baseSha;
    const headSha = await commitOf(root, "HEAD");
    if ("error" in headSha)
      return { error: "HEAD is not a commit yet (a repository with no commits): commit first, or review --staged." };
    [base, head, label] = [baseSha.sha, headSha.sha, `HEAD against ${target.ref}`];
  } else {
    const fetched = await fetchPullRequest(root, target, o.remoteEnv);
    if ("error" in fetched) return fetched;
    [base, head, label] = [fetched.base, fetched.head, `pull request #${target.number}`];
  }
  const files = await diffFiles(root, [`${base}...${head}`], maxBytes);
  return "error" in files ? files : { root, files, label, headSha: head, baseSha: base };
}

async function diffFiles(
  root: string,
  range: readonly string[],
  maxBytes: number,
): Promise<FileDiff[] | { error: string }> {
  const diff = await runGit(["diff", ...DIFF_FLAGS, ...range], { cwd: root, maxBytes });
  if (diff.code !== 0) {
    if (/maxBuffer/i.test(diff.stderr))
      return {
        error: `The diff is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, too large to review. Review a narrower range (a closer --base, or stage part of the change).`,
      };
    if (/no merge base/i.test(diff.stderr))
      return {
        error: `The change and its base share no history in this clone (a shallow one?), so what it adds cannot be told. Fetch the whole history (actions/checkout: fetch-depth: 0; else git fetch --unshallow).`,
      };
    return { error: `git diff failed: ${diff.stderr.trim()}` };
  }
  return parseGitDiff(diff.stdout);
}

/** The commit `ref` names, or why it names none. */
export async function commitOf(root: string, ref: string): Promise<{ sha: string } | { error: string }> {
  if (ref.trim() === "" || ref.startsWith("-"))
    return { error: `"${ref}" is not a commit: give a branch, tag or commit id.` };
  const r = await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { cwd: root });
  if (r.code !== 0)
    return {
      error: `"${ref}" is not a commit in ${root}: give a branch, tag or commit id it has (git fetch first if it is a remote's).`,
    };
  return { sha: r.stdout.trim() };
}

/** Fetches the pull request's head (and its base, unless given) from the remote; objects and FETCH_HEAD only. */
async function fetchPullRequest(
  root: string,
  target: Extract<ReviewTarget, { kind: "pr" }>,
  env?: Record<string, string>,
): Promise<{ head: string; base: string } | { error: string }> {
  const remote = target.remote ?? "origin";
  if (!Number.isInteger(target.number) || target.number < 1)
    return { error: `--pr takes a pull request's number (got ${target.number}).` };
  const fetchOne = async (ref: string): Promise<{ sha: string } | { error: string }> => {
    const r = await runGit(["fetch", "--no-tags", "--quiet", "--end-of-options", remote, ref], {
      cwd: root,
      timeoutMs: 120_000,
      ...(env ? { env } : {}),
    });
    if (r.code !== 0) return { error: r.stderr.trim() || `exit ${r.code}` };
    const sha = await runGit(["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"], { cwd: root });
    return sha.code === 0 ? { sha: sha.stdout.trim() } : { error: "FETCH_HEAD is not a commit" };
  };
  const head = await fetchOne(`refs/pull/${target.number}/head`);
  if ("error" in head)
    return {
      error: /couldn't find remote ref|not our ref|no such ref/i.test(head.error)
        ? `Pull request #${target.number} was not found on ${remote} (it has no refs/pull/${target.number}/head). Check the number and the remote.`
        : `Could not fetch pull request #${target.number} from ${remote}: ${head.error}`,
    };
  if (target.base) {
    const base = await commitOf(root, target.base);
    return "error" in base ? base : { head: head.sha, base: base.sha };
  }
  let branch = target.baseBranch ? `refs/heads/${target.baseBranch}` : undefined;
  if (!branch) {
    const symref = await runGit(["ls-remote", "--symref", "--end-of-options", remote, "HEAD"], {
      cwd: root,
      timeoutMs: 60_000,
      ...(env ? { env } : {}),
    });
    branch = /^ref: (refs\/heads\/\S+)\tHEAD$/m.exec(symref.stdout)?.[1];
  }
  if (!branch)
    return {
      error: `Could not tell ${remote}'s default branch to compare pull request #${target.number} with: pass --base REF.`,
    };
  const base = await fetchOne(branch);
  if ("error" in base) return { error: `Could not fetch ${branch} from ${remote}: ${base.error}` };
  return { head: head.sha, base: base.sha };
}
