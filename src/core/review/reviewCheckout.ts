/**
 * A commit's files to review against, when the work tree holds another commit (a pull request
 * fetched by `--pr`): a detached worktree of that commit in a temporary folder outside the
 * repository, removed when the review ends, however it ends. git runs as everywhere in Fathom
 * (git.ts: no hooks, no fsmonitor); the person's work tree, index and branches are not touched.
 */
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runGit } from "../worktrees/git";

/** Runs `use` with a folder holding `sha`'s files, or with `root` itself when that cannot be made (`onFallback` says why). */
export async function withCommitFiles<T>(
  root: string,
  sha: string,
  use: (folder: string) => Promise<T>,
  onFallback?: (why: string) => void,
): Promise<T> {
  const parent = mkdtempSync(path.join(os.tmpdir(), "fathom-review-"));
  const folder = path.join(parent, "tree");
  const added = await runGit(["worktree", "add", "--detach", "--quiet", "--end-of-options", folder, sha], {
    cwd: root,
  });
  if (added.code !== 0) {
    rmSync(parent, { recursive: true, force: true });
    onFallback?.(
      `the files of ${sha.slice(0, 7)} could not be checked out (${added.stderr.trim()}); the review reads the work tree's`,
    );
    return use(root);
  }
  try {
    return await use(folder);
  } finally {
    await runGit(["worktree", "remove", "--force", folder], { cwd: root });
    rmSync(parent, { recursive: true, force: true });
    await runGit(["worktree", "prune"], { cwd: root });
  }
}
