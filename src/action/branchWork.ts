/**
 * The task's branch in the checked-out repository: made (or, when an earlier run pushed it,
 * continued), then committed and pushed. git runs as everywhere in Fathom (no hooks, no
 * fsmonitor: core/worktrees/git.ts); the token reaches only `git ls-remote`, `fetch` and `push`,
 * as a header in their environment, never in argv, the repository's config or the agent's
 * commands.
 */
import { runGit } from "../core/worktrees/git";

/** git's own identity for a workflow's commits. */
const BOT = { name: "github-actions[bot]", email: "41898282+github-actions[bot]@users.noreply.github.com" };

export interface RemoteAuth {
  serverUrl: string;
  token: string;
}

/** Variables that give one git process the token as an HTTP header (git ≥ 2.31). */
export function authEnv(auth: RemoteAuth | undefined): Record<string, string> {
  if (!auth?.token) return {};
  const basic = Buffer.from(`x-access-token:${auth.token}`).toString("base64");
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: `http.${auth.serverUrl.replace(/\/+$/, "")}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}

export class BranchError extends Error {}

async function must(args: string[], cwd: string, env?: Record<string, string>): Promise<string> {
  const r = await runGit(args, { cwd, ...(env ? { env } : {}) });
  if (r.code !== 0) throw new BranchError(`git ${args[0]} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  return r.stdout;
}

/**
 * actions/checkout keeps the token in `.git/config` unless told `persist-credentials: false`;
 * there any command in the workspace could read it, so it goes before the task starts. Returns
 * the keys removed.
 */
export async function removeStoredCredentials(root: string): Promise<string[]> {
  const found = await runGit(["config", "--local", "--name-only", "--get-regexp", "^http\\..*\\.extraheader$"], {
    cwd: root,
  });
  const keys = [
    ...new Set(
      found.stdout
        .split("\n")
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
  for (const key of keys) await must(["config", "--local", "--unset-all", key], root);
  return keys;
}

export interface PreparedBranch {
  branch: string;
  /** The commit the task starts from. */
  base: string;
  /** True when an earlier run's branch was fetched and the task continues on it. */
  continued: boolean;
}

export async function prepareBranch(root: string, branch: string, auth?: RemoteAuth): Promise<PreparedBranch> {
  const status = await must(["status", "--porcelain", "--untracked-files=all"], root);
  if (status.trim())
    throw new BranchError(
      `The checked-out repository has uncommitted changes before the task started (${status.trim().split("\n").length} files): run Fathom right after actions/checkout, before steps that change files.`,
    );
  const env = authEnv(auth);
  const remote = await runGit(["ls-remote", "--exit-code", "--heads", "origin", `refs/heads/${branch}`], {
    cwd: root,
    env,
  });
  if (remote.code === 0) {
    await must(["fetch", "--no-tags", "origin", `+refs/heads/${branch}:refs/remotes/origin/${branch}`], root, env);
    await must(["checkout", "-B", branch, `refs/remotes/origin/${branch}`], root);
    return { branch, base: (await must(["rev-parse", "HEAD"], root)).trim(), continued: true };
  }
  if (remote.code !== 2)
    throw new BranchError(
      `git could not read the remote's branches: ${remote.stderr.trim() || `exit ${remote.code}`}. Check that origin is reachable with the token.`,
    );
  await must(["checkout", "-B", branch], root);
  return { branch, base: (await must(["rev-parse", "HEAD"], root)).trim(), continued: false };
}

export interface ChangedFile {
  status: string;
  path: string;
}

/** Stages everything the task changed and lists it (empty when it wrote nothing). */
export async function stageChanges(root: string): Promise<ChangedFile[]> {
  await must(["add", "--all"], root);
  const out = await must(["diff", "--cached", "--name-status", "--no-renames", "-z"], root);
  const parts = out.split("\0").filter((p) => p !== "");
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) files.push({ status: parts[i]!, path: parts[i + 1]! });
  return files;
}

/** Commits what is staged and pushes it; a rejected push says why (a protected branch, a race). */
export async function commitAndPush(root: string, branch: string, message: string, auth?: RemoteAuth): Promise<string> {
  await runGit(
    [
      "-c",
      `user.name=${BOT.name}`,
      "-c",
      `user.email=${BOT.email}`,
      "commit",
      "--no-verify",
      "--no-gpg-sign",
      "-F",
      "-",
    ],
    { cwd: root, input: message },
  ).then((r) => {
    if (r.code !== 0) throw new BranchError(`git commit failed: ${r.stderr.trim() || r.stdout.trim()}`);
  });
  const commit = (await must(["rev-parse", "HEAD"], root)).trim();
  const push = await runGit(["push", "--porcelain", "origin", `HEAD:refs/heads/${branch}`], {
    cwd: root,
    env: authEnv(auth),
  });
  if (push.code !== 0) {
    const why = `${push.stderr}\n${push.stdout}`.trim();
    const hint = /protected|GH006|declined|pre-receive/i.test(why)
      ? `The branch ${branch} is protected or a rule refused the push: let the workflow push to fathom/* branches.`
      : /non-fast-forward|fetch first|stale info|rejected/i.test(why)
        ? `${branch} changed on the remote while the task ran: run it again.`
        : /403|denied|Authentication|could not read Username/i.test(why)
          ? 'The token may not push: give the workflow "permissions: contents: write".'
          : "Check that origin accepts pushes from the workflow.";
    throw new BranchError(`git push of ${branch} was refused: ${lastLines(why, 6)}\n${hint}`);
  }
  return commit;
}

function lastLines(text: string, n: number): string {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .slice(-n)
    .join("\n");
}
