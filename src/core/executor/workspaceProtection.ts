import { lstatSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";

/**
 * Files in the workspace that make other programs run code outside the sandbox: git runs
 * `core.fsmonitor` from a repository's config and its hooks (VS Code's git view runs `git
 * status` by itself, in nested repositories too), editors act on .vscode and .idea, and
 * .fathomignore decides what the agent may see. Sandboxed commands may not write them. Only
 * those that exist: a missing one would need an empty stand-in created in the person's
 * workspace while the command runs.
 */
const AT_ROOT = [".vscode", ".idea", ".gitmodules", ".fathomignore"];
/** Folders not looked into for nested repositories (big, and never one). */
const SKIP = new Set([
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  "dist",
  "build",
  "out",
  "target",
  ".venv",
  "venv",
  "__pycache__",
  ".next",
  ".cache",
]);
/** Nested repositories are looked for this deep (submodules, a monorepo's packages). */
const NESTED_DEPTH = 2;
/** At most this many folders are read per command, so a huge tree costs little. */
const MAX_FOLDERS = 400;

function exists(file: string): "file" | "dir" | undefined {
  try {
    const st = lstatSync(file);
    return st.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

/** A repository's git files at `dir`: its config and hooks, or a `.git` file (a pointer) itself. */
function gitFiles(dir: string): string[] {
  const git = nodePath.join(dir, ".git");
  const kind = exists(git);
  if (kind === "file") return [git];
  if (kind !== "dir") return [];
  return [nodePath.join(git, "config"), nodePath.join(git, "hooks")].filter((f) => exists(f) !== undefined);
}

/** Folders below `root` (to NESTED_DEPTH) that hold a repository. */
function nestedRepositories(root: string): string[] {
  const found: string[] = [];
  let read = 0;
  let level = [root];
  for (let depth = 1; depth <= NESTED_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (read++ >= MAX_FOLDERS) return found;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (!entry.isDirectory() || SKIP.has(entry.name)) continue;
        const sub = nodePath.join(dir, entry.name);
        if (exists(nodePath.join(sub, ".git"))) found.push(sub);
        next.push(sub);
      }
    }
    level = next;
  }
  return found;
}

/** The paths in workspace `root` sandboxed commands may not write. */
export function protectedInWorkspace(root: string): string[] {
  return [
    ...gitFiles(root),
    ...AT_ROOT.map((rel) => nodePath.join(root, rel)).filter((f) => exists(f) !== undefined),
    ...nestedRepositories(root).flatMap(gitFiles),
  ];
}
