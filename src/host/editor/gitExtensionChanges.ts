/**
 * What a commit from the Source Control view would hold, read through VS Code's git extension:
 * the staged changes, or when nothing is staged all of them (VS Code then offers to commit
 * everything), untracked files included; and the latest subjects as the style to follow.
 */
import * as path from "node:path";
import {
  STYLE_EXAMPLES,
  parseGitDiff,
  readUntrackedFiles,
  subjectOf,
  type ChangeScope,
  type FileDiff,
} from "../../core";
import { UNTRACKED, type GitRepository } from "./gitRepositories";

export interface CommitChanges {
  scope: ChangeScope;
  files: FileDiff[];
  /** Newest first, merges left out. */
  subjects: string[];
}

export async function commitChangesOf(repository: GitRepository): Promise<CommitChanges | { error: string }> {
  const root = repository.rootUri.fsPath;
  // The extension's view of the files may be a moment old (a file saved just now).
  await repository.status().catch(() => undefined);
  try {
    const staged = parseGitDiff(await repository.diff(true));
    const subjects = await recentSubjects(repository);
    if (staged.length > 0) return { scope: "staged", files: staged, subjects };
    const tracked = parseGitDiff(await repository.diff(false));
    const state = repository.state;
    const untracked = [
      ...(state.untrackedChanges ?? []),
      ...state.workingTreeChanges.filter((c) => c.status === UNTRACKED),
    ].map((c) => path.relative(root, c.uri.fsPath));
    const added = await readUntrackedFiles(
      root,
      [...new Set(untracked)].filter((p) => p !== "" && !p.startsWith("..")),
    );
    return { scope: "all", files: [...tracked, ...added], subjects };
  } catch (error) {
    return {
      error: `git could not read the changes in ${root}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

async function recentSubjects(repository: GitRepository): Promise<string[]> {
  // Asks for more than needed: merge commits are left out, as `--no-merges` would.
  const commits = await repository.log({ maxEntries: STYLE_EXAMPLES * 2 }).catch(() => []);
  return commits
    .filter((c) => c.parents.length <= 1)
    .map((c) => subjectOf(c.message))
    .filter((s) => s !== "")
    .slice(0, STYLE_EXAMPLES);
}
