import { execFile } from "node:child_process";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Options every git call of Fathom's carries: a repository is a stranger's, and `git worktree
 * add`, `checkout` or `status` would otherwise run its hooks and fsmonitor program with the
 * person's rights. Paths are taken literally (a file named `*` is that file).
 */
const SAFE_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.quotePath=false",
  "--literal-pathspecs",
];

/** Variables that would point git at another repository, index or work tree than the one asked. */
const REDIRECTING_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_NAMESPACE",
  "GIT_CEILING_DIRECTORIES",
  "GIT_PREFIX",
];

/** Runs git (no shell) in `cwd`; never throws: a missing git is code 127 with a message. */
export function runGit(
  args: readonly string[],
  o: { cwd: string; env?: Record<string, string>; input?: string | Buffer; maxBytes?: number; timeoutMs?: number },
): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...o.env };
  for (const name of REDIRECTING_ENV) if (!o.env?.[name]) delete env[name];
  return new Promise((resolve) => {
    const child = execFile(
      "git",
      [...SAFE_CONFIG, ...args],
      {
        cwd: o.cwd,
        env,
        maxBuffer: o.maxBytes ?? 256 * 1024 * 1024,
        encoding: "utf8",
        ...(o.timeoutMs ? { timeout: o.timeoutMs } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const err = error as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
        if (err.killed && o.timeoutMs)
          return resolve({
            code: 124,
            stdout: stdout ?? "",
            stderr: `no answer in ${Math.round(o.timeoutMs / 1000)} s`,
          });
        if (err.code === "ENOENT")
          return resolve({ code: 127, stdout: "", stderr: "git is not installed (or not on PATH)." });
        resolve({
          code: typeof err.code === "number" ? err.code : 1,
          stdout: stdout ?? "",
          stderr: stderr || err.message,
        });
      },
    );
    if (o.input !== undefined) child.stdin?.end(o.input);
  });
}

/** Like `runGit`, but a failure throws an Error saying which git command failed and why. */
export async function git(args: readonly string[], o: Parameters<typeof runGit>[1]): Promise<string> {
  const r = await runGit(args, o);
  if (r.code !== 0)
    throw new Error(
      `git ${args
        .filter((a) => !a.startsWith("-"))
        .slice(0, 2)
        .join(" ")} failed: ${r.stderr.trim() || `exit ${r.code}`}`,
    );
  return r.stdout;
}
