/**
 * A repository's changes and recent subjects read with git itself (the CLI's way; VS Code's
 * button goes through VS Code's git extension). git runs as everywhere in Fathom (git.ts: no
 * hooks, no fsmonitor), and the diff also without the repository's external diff programs and
 * text conversions, which its config could point at any command.
 */
import { lstat, open, readlink } from "node:fs/promises";
import * as path from "node:path";
import { runGit } from "../worktrees/git";
import { STYLE_EXAMPLES, type ChangeScope } from "./commitPrompt";
import { addedFileDiff, parseGitDiff, type FileDiff } from "./fileDiffs";

export interface RepositoryChanges {
  /** The repository's top folder. */
  root: string;
  scope: ChangeScope;
  files: FileDiff[];
  /** The latest commit subjects, newest first, merges left out. */
  subjects: string[];
}

/** How Fathom asks git for a diff: no external diff programs or text conversions, fixed prefixes. */
export const DIFF_FLAGS = [
  "--no-ext-diff",
  "--no-textconv",
  "--no-color",
  "--find-renames",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/**
 * The staged changes of the repository holding `dir`; with `all`, when nothing is staged, every
 * uncommitted change instead (tracked files and files git does not track yet). Errors are values.
 */
export async function readRepositoryChanges(
  dir: string,
  o: { all?: boolean } = {},
): Promise<RepositoryChanges | { error: string }> {
  const top = await runGit(["rev-parse", "--show-toplevel"], { cwd: dir });
  if (top.code === 127) return { error: top.stderr };
  if (top.code !== 0) {
    return {
      error: /not a git repository/i.test(top.stderr)
        ? `${dir} is not in a git repository.`
        : `git could not read the repository at ${dir}: ${top.stderr.trim()}`,
    };
  }
  const root = top.stdout.trim();
  const staged = await runGit(["diff", "--cached", ...DIFF_FLAGS], { cwd: root });
  if (staged.code !== 0) return { error: `git diff --cached failed: ${staged.stderr.trim()}` };
  let files = parseGitDiff(staged.stdout);
  let scope: ChangeScope = "staged";
  if (files.length === 0 && o.all) {
    scope = "all";
    const [tracked, others] = await Promise.all([
      runGit(["diff", ...DIFF_FLAGS], { cwd: root }),
      runGit(["ls-files", "--others", "--exclude-standard", "-z"], { cwd: root }),
    ]);
    if (tracked.code !== 0) return { error: `git diff failed: ${tracked.stderr.trim()}` };
    const untracked = others.code === 0 ? others.stdout.split("\0").filter((p) => p !== "") : [];
    files = [...parseGitDiff(tracked.stdout), ...(await readUntrackedFiles(root, untracked))];
  }
  return { root, scope, files, subjects: await recentSubjects(root) };
}

/** Newest first; none in a repository without commits. */
export async function recentSubjects(root: string, count = STYLE_EXAMPLES): Promise<string[]> {
  const log = await runGit(["log", `--max-count=${count}`, "--no-merges", "--no-show-signature", "--format=%s"], {
    cwd: root,
  });
  return log.code === 0 ? log.stdout.split("\n").filter((s) => s.trim() !== "") : [];
}

/** What is read of one untracked file, and of all of them together. */
export const UNTRACKED_LIMITS = { fileBytes: 1024 * 1024, totalBytes: 8 * 1024 * 1024 };

/**
 * Files git does not track yet, as diffs that add them (paths relative to `root`). A binary
 * file (a NUL byte in its first 8000 bytes, git's own test) is named as binary; a file too large
 * to read, a link or a folder is named with what it is.
 */
export async function readUntrackedFiles(
  root: string,
  paths: readonly string[],
  limits = UNTRACKED_LIMITS,
): Promise<FileDiff[]> {
  let total = 0;
  const files: FileDiff[] = [];
  for (const rel of paths) {
    const full = path.join(root, rel);
    const info = await lstat(full).catch(() => undefined);
    if (!info) continue;
    if (info.isSymbolicLink()) {
      const target = await readlink(full).catch(() => "?");
      files.push(addedFileDiff(rel, undefined, `a symbolic link to ${target}`));
    } else if (!info.isFile()) files.push(addedFileDiff(rel, undefined, "not a regular file"));
    else if (info.size > limits.fileBytes || total + info.size > limits.totalBytes)
      files.push(addedFileDiff(rel, undefined, `${formatBytes(info.size)}, too large to read`));
    else {
      total += info.size;
      const bytes = await readAll(full, info.size);
      if (!bytes) files.push(addedFileDiff(rel, undefined, "could not be read"));
      else files.push(addedFileDiff(rel, bytes.subarray(0, 8000).includes(0) ? undefined : bytes.toString("utf8")));
    }
  }
  return files;
}

async function readAll(file: string, size: number): Promise<Buffer | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}
