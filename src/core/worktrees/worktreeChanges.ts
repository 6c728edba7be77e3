import { copyFileSync, lstatSync, rmSync } from "node:fs";
import * as path from "node:path";
import { git, runGit } from "./git";
import type { TaskWorktree } from "./worktreeRecords";

export interface ChangedFile {
  /** From the repository's top, with `/`. */
  path: string;
  status: "added" | "modified" | "deleted";
}

export type ApplyResult =
  { ok: true; files: ChangedFile[]; message: string } | { ok: false; message: string; conflicts: string[] };

/**
 * How Fathom runs git in a task's worktree: through its admin folder in the repository's `.git`
 * (which sandboxed commands cannot write), never through the worktree's own `.git` file, which
 * the task could point at a repository of its making whose config runs programs (a clean
 * filter, say) when Fathom runs `git add` with the person's rights.
 */
export function inWorktree(
  wt: TaskWorktree,
  env: Record<string, string> = {},
): { cwd: string; env: Record<string, string> } {
  return { cwd: wt.path, env: { GIT_DIR: wt.adminDir, GIT_WORK_TREE: wt.path, ...env } };
}

const STATUS: Record<string, ChangedFile["status"]> = { A: "added", M: "modified", D: "deleted", T: "modified" };

/**
 * The worktree as it is now, as a git tree: its files read into a throwaway index (so the
 * worktree's own index, and the branch, are left alone), as `git add -A` sees them (ignored
 * files left out). Whatever the task committed on its branch is in it too.
 */
async function snapshotTree(wt: TaskWorktree): Promise<string> {
  const index = path.join(wt.adminDir, `fathom-index-${process.pid}`);
  const at = inWorktree(wt, { GIT_INDEX_FILE: index });
  try {
    // A copy of the worktree's own index: its file stats let `git add` hash only what changed
    // (a fresh index would hash every file of a large repository).
    try {
      copyFileSync(path.join(wt.adminDir, "index"), index);
    } catch {
      await git(["read-tree", wt.base], at);
    }
    await git(["add", "-A", "--", "."], at);
    return (await git(["write-tree"], at)).trim();
  } finally {
    rmSync(index, { force: true });
  }
}

/** The files that differ between two commits or trees, read by git run `at`. */
export async function diffFiles(
  at: { cwd: string; env?: Record<string, string> },
  from: string,
  to: string,
): Promise<ChangedFile[]> {
  const out = await git(["diff", "--name-status", "--no-renames", "-z", from, to], at);
  const parts = out.split("\0").filter((p) => p !== "");
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2)
    files.push({ path: parts[i + 1]!, status: STATUS[parts[i]!.charAt(0)] ?? "modified" });
  return files;
}

export async function changedFiles(wt: TaskWorktree): Promise<ChangedFile[]> {
  if (!wt.exists) return [];
  return diffFiles(inWorktree(wt), wt.base, await snapshotTree(wt));
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies the task's changes to the working tree at `topLevel` (not its index, not its branch),
 * all or nothing (see `applyTreeToWorkingTree`).
 */
export async function applyToWorkingTree(wt: TaskWorktree, topLevel: string): Promise<ApplyResult> {
  if (!wt.exists)
    return {
      ok: false,
      message: `The worktree folder ${wt.path} is gone, so there is nothing to apply. Discard the task to clean up.`,
      conflicts: [],
    };
  const tree = await snapshotTree(wt);
  return applyTreeToWorkingTree(
    {
      base: wt.base,
      tree,
      at: inWorktree(wt),
      files: await diffFiles(inWorktree(wt), wt.base, tree),
      what: "the task",
      openHint: "open the worktree and take what you need",
    },
    topLevel,
  );
}

/** A change to apply: from `base` to `tree`, both readable by git run `at`. */
export interface TreeChange {
  base: string;
  tree: string;
  at: { cwd: string; env?: Record<string, string> };
  files: ChangedFile[];
  /** Who made it, in the messages ("the task", "fathom/12-fix"). */
  what: string;
  /** What the person can do instead when git refuses it. */
  openHint: string;
}

/**
 * Applies a change to the working tree at `topLevel` as uncommitted changes, all or nothing:
 * first every file the change touches is checked to be as it was at the change's base in the
 * person's tree (`git diff` of the base against their files covers staged and unstaged edits and
 * commits made since), and a file the change adds must not exist there, even untracked or
 * ignored; then `git apply`, which itself applies all or none.
 */
export async function applyTreeToWorkingTree(change: TreeChange, topLevel: string): Promise<ApplyResult> {
  const { files } = change;
  if (files.length === 0)
    return {
      ok: false,
      message: `${change.what.charAt(0).toUpperCase()}${change.what.slice(1)} changed no files, so there is nothing to apply.`,
      conflicts: [],
    };
  const paths = files.map((f) => f.path);
  const changedByPerson = new Set(
    (await git(["diff", "--name-only", "--no-renames", "-z", change.base, "--", ...paths], { cwd: topLevel }))
      .split("\0")
      .filter(Boolean),
  );
  for (const f of files) if (f.status === "added" && exists(path.join(topLevel, f.path))) changedByPerson.add(f.path);
  const conflicts = paths.filter((p) => changedByPerson.has(p));
  if (conflicts.length > 0) {
    return {
      ok: false,
      conflicts,
      message: `Not applied, nothing was changed: ${conflicts.length === 1 ? "this file has" : "these files have"} changes of yours (or changed since ${change.what} started): ${conflicts.join(", ")}. Commit, stash or revert ${conflicts.length === 1 ? "it" : "them"}, then Apply again; or ${change.openHint}.`,
    };
  }
  const patch = await git(["diff", "--binary", "--full-index", "--no-renames", change.base, change.tree], change.at);
  const applied = await runGit(["apply", "--binary", "--whitespace=nowarn", "-"], { cwd: topLevel, input: patch });
  if (applied.code !== 0)
    return {
      ok: false,
      conflicts: [],
      message: `Not applied, nothing was changed: git apply refused the change (${applied.stderr.trim().split("\n")[0]}). ${change.openHint.charAt(0).toUpperCase()}${change.openHint.slice(1)}.`,
    };
  return {
    ok: true,
    files,
    message: `Applied ${files.length} file${files.length === 1 ? "" : "s"} to your working tree as uncommitted changes: ${paths.join(", ")}.`,
  };
}
