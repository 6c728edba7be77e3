import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, rmdirSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { git, runGit } from "./git";
import { LOCK_PREFIX, readRecords, writeRecord, type RecordedStatus, type TaskWorktree } from "./worktreeRecords";
import { applyToWorkingTree, changedFiles, inWorktree, type ApplyResult, type ChangedFile } from "./worktreeChanges";

export type WorktreeSupport =
  { ok: true; topLevel: string; prefix: string; commonDir: string } | { ok: false; reason: string };

/**
 * Where task worktrees live: `$XDG_DATA_HOME/fathom-worktrees/<repo>-<hash>/<branch name>`.
 * Outside the workspace, so the person's watchers, searches and builds never see a second
 * copy; not beside the repository, whose parent folder may be shared or not the person's to
 * fill; not in VS Code's storage, which the CLI cannot reach; and not in Fathom's own data
 * folder, which sandboxed commands may not read (a task's commands run in its worktree). The
 * CLI and every window use the same folder, so each sees the others' worktrees.
 */
export function defaultWorktreesDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share"), "fathom-worktrees");
}

/** Whether `dir` can have task worktrees, or why not (said to the person as is). */
export async function worktreeSupport(dir: string): Promise<WorktreeSupport> {
  const info = await runGit(["rev-parse", "--is-bare-repository", "--is-inside-work-tree", "--git-common-dir"], {
    cwd: dir,
  });
  if (info.code === 127)
    return { ok: false, reason: "git is not installed (or not on PATH), so tasks cannot have their own worktree." };
  if (info.code !== 0)
    return { ok: false, reason: "This folder is not in a git repository, so tasks cannot have their own worktree." };
  const [bare, inside, common] = info.stdout.split("\n");
  const where =
    inside === "true" ? await runGit(["rev-parse", "--show-prefix", "--show-toplevel"], { cwd: dir }) : undefined;
  const [prefix, top] = where?.code === 0 ? where.stdout.split("\n") : [];
  if (bare === "true" || !top)
    return {
      ok: false,
      reason:
        "This is a bare git repository (or its .git folder), with no working tree, so tasks cannot have their own worktree.",
    };
  const version = /(\d+)\.(\d+)/.exec((await runGit(["--version"], { cwd: dir })).stdout);
  if (!version || Number(version[1]) * 100 + Number(version[2]) < 231)
    return {
      ok: false,
      reason: `git ${version?.[0] ?? "(unknown version)"} is too old for task worktrees: Fathom needs git 2.31 or later.`,
    };
  if ((await runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd: dir })).code !== 0) {
    return {
      ok: false,
      reason:
        "The repository has no commit yet: a task's worktree starts from HEAD. Commit once, then start the task in a worktree.",
    };
  }
  return { ok: true, topLevel: top, prefix: prefix ?? "", commonDir: path.resolve(dir, common ?? ".git") };
}

/** `fathom/<short title>`: lower case, words joined by dashes, at most 40 characters. */
export function branchSlug(text: string): string {
  const words = text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > 40) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, 40) || "task";
}

/**
 * A task's own git worktree: made on a new branch `fathom/<short title>` from HEAD, listed from
 * git's own records, its changes reviewed against the commit it started from, applied to the
 * person's working tree as uncommitted changes (or refused, changing nothing), and discarded.
 * Every git call runs without the repository's hooks or fsmonitor.
 */
export class TaskWorktrees {
  private readonly worktreesDir: string;

  constructor(private readonly o: { repoDir: string; worktreesDir?: string; surface?: string }) {
    this.worktreesDir = o.worktreesDir ?? defaultWorktreesDir();
  }

  support(): Promise<WorktreeSupport> {
    return worktreeSupport(this.o.repoDir);
  }

  async list(): Promise<TaskWorktree[]> {
    const support = await this.support();
    return support.ok ? readRecords(support.commonDir) : [];
  }

  async get(taskId: string): Promise<TaskWorktree | undefined> {
    return (await this.list()).find((w) => w.taskId === taskId);
  }

  /** Makes the task's worktree (throws, saying why, when it cannot). */
  async create(taskId: string, title: string, name?: string): Promise<TaskWorktree> {
    const support = await this.support();
    if (!support.ok) throw new Error(support.reason);
    if (await this.get(taskId)) throw new Error(`Task ${taskId} already has a worktree.`);
    const base = (await git(["rev-parse", "--verify", "HEAD^{commit}"], { cwd: support.topLevel })).trim();
    const realTop = realpathSync(support.topLevel);
    const home = path.join(
      this.worktreesDir,
      `${branchSlug(path.basename(realTop))}-${createHash("sha256").update(realTop).digest("hex").slice(0, 8)}`,
    );
    mkdirSync(home, { recursive: true });
    const slug = branchSlug(name?.trim() || title);
    let branch = `fathom/${slug}`;
    let folder = path.join(home, slug);
    for (
      let n = 2;
      (await runGit(["show-ref", "--verify", "--quiet", `refs/heads/${branch}`], { cwd: support.topLevel })).code ===
        0 || existsSync(folder);
      n++
    ) {
      if (n > 200)
        throw new Error(
          `Too many branches named fathom/${slug}-N: discard some task worktrees (fathom worktrees lists them).`,
        );
      branch = `fathom/${slug}-${n}`;
      folder = path.join(home, `${slug}-${n}`);
    }
    // Locked at once with Fathom's reason: a crash after this still leaves a worktree Fathom knows is its own.
    // Parallel checkout (a worker per core): 2.5 s instead of 9 s for 10,000 files on the 2-core bench machine.
    await git(
      [
        "-c",
        "checkout.workers=0",
        "worktree",
        "add",
        "--lock",
        "--reason",
        `${LOCK_PREFIX}${taskId}`,
        "-b",
        branch,
        folder,
        base,
      ],
      { cwd: support.topLevel },
    );
    const adminDir = (await git(["rev-parse", "--absolute-git-dir"], { cwd: folder })).trim();
    const record = {
      version: 1 as const,
      taskId,
      title: title.slice(0, 200),
      branch,
      base,
      path: folder,
      prefix: support.prefix,
      createdAt: Date.now(),
      status: "running" as const,
      pid: process.pid,
      ...(this.o.surface ? { surface: this.o.surface } : {}),
    };
    writeRecord(adminDir, record);
    return { ...record, state: "running", adminDir, root: path.join(folder, support.prefix), exists: true };
  }

  /** Records how the task stands (`running` takes this process as its runner). */
  async setStatus(taskId: string, status: RecordedStatus): Promise<void> {
    const found = await this.get(taskId);
    if (!found || found.base === "0".repeat(40)) return;
    const { state: _state, adminDir, root: _root, exists: _exists, pid: _pid, ...record } = found;
    writeRecord(adminDir, { ...record, status, ...(status === "running" ? { pid: process.pid } : {}) });
  }

  /** The files the task changed against the commit it started from (paths from the repository's top). */
  async changes(taskId: string): Promise<ChangedFile[]> {
    return changedFiles(await this.require(taskId));
  }

  /** A file's text at the task's base commit (null: it did not exist there). */
  async baseText(taskId: string, file: string): Promise<string | null> {
    const wt = await this.require(taskId);
    const r = await runGit(["show", `${wt.base}:${file}`], inWorktree(wt));
    return r.code === 0 ? r.stdout : null;
  }

  /**
   * Brings the task's changes into the person's working tree as uncommitted changes. Refuses,
   * changing nothing, when a file it would touch has changes of the person's (or was changed
   * since the task started), or exists untracked where the task adds one.
   */
  async apply(taskId: string): Promise<ApplyResult> {
    const support = await this.support();
    if (!support.ok) return { ok: false, message: support.reason, conflicts: [] };
    const result = await applyToWorkingTree(await this.require(taskId), support.topLevel);
    if (result.ok) await this.setStatus(taskId, "applied");
    return result;
  }

  /** Removes the task's worktree folder and its branch: only what Fathom made for that task. */
  async discard(taskId: string): Promise<void> {
    const wt = await this.require(taskId);
    const support = await this.support();
    if (!support.ok) throw new Error(support.reason);
    if (wt.state === "running")
      throw new Error(
        `Task ${taskId} is still running${wt.surface ? ` (in ${wt.surface === "cli" ? "the CLI" : "VS Code"})` : ""}. Stop it first, then discard its worktree.`,
      );
    await git(["worktree", "unlock", wt.path], { cwd: support.topLevel });
    await git(["worktree", "remove", "--force", wt.path], { cwd: support.topLevel });
    const branch = await runGit(["branch", "-D", wt.branch], { cwd: support.topLevel });
    if (branch.code !== 0 && !/not found/.test(branch.stderr))
      throw new Error(`The worktree is removed, but its branch ${wt.branch} was not: ${branch.stderr.trim()}`);
    try {
      rmdirSync(path.dirname(wt.path));
    } catch {
      // Other tasks' worktrees are still in it.
    }
  }

  private async require(taskId: string): Promise<TaskWorktree> {
    const found = await this.get(taskId);
    if (!found)
      throw new Error(`No Fathom worktree for task ${taskId} in this repository ("fathom worktrees" lists them).`);
    return found;
  }
}
