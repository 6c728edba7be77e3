import { createHash } from "node:crypto";
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, realpathSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { CompositeBackend } from "../backends/composite";
import { FilesystemBackend } from "../backends/filesystem";
import type { BackendProtocol, PreparedChange, WriteResult } from "../backends/protocol";

/**
 * Memory: what Fathom learned that lasts across tasks, as plain markdown files outside the
 * repository, in Fathom's data folder (`$XDG_DATA_HOME/fathom/memories/`): `projects/<hash>/`
 * for one workspace (the agent's `/memories/`) and `user/` for the person across projects
 * (`/memories/user/`). The agent reaches them through its ordinary file tools, as a route of
 * the backend, so the path guard, atomic writes and the stale-write guard apply.
 */

export const MEMORY_PREFIX = "/memories";
export const USER_MEMORY_PREFIX = "/memories/user";
/** One memory file holds at most this much; a memory is a note, not a document. */
export const MAX_MEMORY_FILE_BYTES = 16 * 1024;
/** All memory files of a workspace and the person together. */
export const MAX_MEMORY_TOTAL_BYTES = 256 * 1024;

export interface MemoryFolders {
  /** This workspace's memories. */
  project: string;
  /** The person's, across workspaces. */
  user: string;
}

export function memoryFolders(workspaceRoot: string, env: NodeJS.ProcessEnv = process.env): MemoryFolders {
  const base = nodePath.join(env.XDG_DATA_HOME || nodePath.join(os.homedir(), ".local", "share"), "fathom", "memories");
  let real = workspaceRoot;
  try {
    real = realpathSync(workspaceRoot);
  } catch {
    // A folder that is gone still has its memories under the path it had.
  }
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 16);
  return { project: nodePath.join(base, "projects", hash), user: nodePath.join(base, "user") };
}

/** Whether a virtual path is in memory (`/memories/…`). */
export function isMemoryPath(path: string): boolean {
  const p = path.replace(/\\/g, "/");
  return p === MEMORY_PREFIX || p.startsWith(`${MEMORY_PREFIX}/`);
}

export interface MemoryFile {
  /** Virtual path: `/memories/style.md`, `/memories/user/tone.md`. */
  path: string;
  size: number;
  /** Its first line (its summary), cut to 200 characters. */
  firstLine: string;
  /** Over the per-file cap (planted by hand): said wherever it is shown. */
  overCap: boolean;
  modifiedMs: number;
}

/** Shapes of secrets memory must never hold: provider keys, tokens, private keys. */
const SECRET_SHAPES: readonly [RegExp, string][] = [
  [/\b(?:sk-ant|sk-proj|sk)-[A-Za-z0-9_-]{16,}/, "an API key"],
  [/\b(?:ghp|gho|ghu|ghs|github_pat)_[A-Za-z0-9_]{20,}/, "a GitHub token"],
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key"],
  [/\bxox[abpr]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key"],
  [/\bBearer\s+[A-Za-z0-9._~+/-]{20,}/, "a bearer token"],
];

/** What kind of secret `text` seems to hold, if any. */
export function secretIn(text: string): string | undefined {
  return SECRET_SHAPES.find(([shape]) => shape.test(text))?.[1];
}

/** A memory folder's backend: a filesystem backend whose writes keep to the size caps. */
class CappedMemoryBackend extends FilesystemBackend {
  constructor(
    private readonly dir: string,
    private readonly folders: MemoryFolders,
  ) {
    super({ rootDir: dir, ripgrepPath: null });
  }

  private check(change: PreparedChange): PreparedChange | { error: string } {
    const secret = secretIn(change.after);
    if (secret)
      return {
        error: `Not written: the text holds what looks like ${secret}, and memory must never hold keys, passwords or tokens (every later task reads it). Leave the secret out.`,
      };
    const bytes = Buffer.byteLength(change.after, "utf8");
    if (bytes > MAX_MEMORY_FILE_BYTES) {
      return {
        error: `Not written: a memory file holds at most ${MAX_MEMORY_FILE_BYTES / 1024} KB (this would be ${Math.ceil(bytes / 1024)} KB). Keep memories short: one fact per line, or split it into files.`,
      };
    }
    const others = listMemories(this.folders).filter((f) => !sameFile(f, this.dir, change.path, this.folders));
    const total = others.reduce((n, f) => n + f.size, 0) + bytes;
    if (total > MAX_MEMORY_TOTAL_BYTES) {
      return {
        error: `Not written: memory holds at most ${MAX_MEMORY_TOTAL_BYTES / 1024} KB in all, and this would make ${Math.ceil(total / 1024)} KB. Shorten or merge memory files (or ask the person to delete some).`,
      };
    }
    return change;
  }

  override async prepareWrite(path: string, content: string): Promise<PreparedChange | { error: string }> {
    const prepared = await super.prepareWrite(path, content);
    return "error" in prepared ? prepared : this.check(prepared);
  }

  override async prepareEdit(
    path: string,
    oldString: string,
    newString: string,
    replaceAll = false,
  ): Promise<PreparedChange | { error: string }> {
    const prepared = await super.prepareEdit(path, oldString, newString, replaceAll);
    return "error" in prepared ? prepared : this.check(prepared);
  }

  override async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    const checked = this.check({ path, before, after });
    return "error" in checked ? checked : super.commitChange(path, before, after);
  }
}

function sameFile(f: MemoryFile, dir: string, innerPath: string, folders: MemoryFolders): boolean {
  const prefix = dir === folders.user ? USER_MEMORY_PREFIX : MEMORY_PREFIX;
  return f.path === `${prefix}${innerPath.startsWith("/") ? "" : "/"}${innerPath}`;
}

/** The workspace's backend with `/memories/` and `/memories/user/` routed to the memory folders. */
export function withMemory(workspace: BackendProtocol, folders: MemoryFolders): BackendProtocol {
  for (const dir of [folders.project, folders.user]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return new CompositeBackend(workspace, {
    [USER_MEMORY_PREFIX]: new CappedMemoryBackend(folders.user, folders),
    [MEMORY_PREFIX]: new CappedMemoryBackend(folders.project, folders),
  });
}

const MAX_LISTED = 500;
const FIRST_LINE_BYTES = 512;

/** Every memory file (the project's, then the person's), with its first line; a missing folder is empty. */
export function listMemories(folders: MemoryFolders): MemoryFile[] {
  return [...walk(folders.project, MEMORY_PREFIX, folders.user), ...walk(folders.user, USER_MEMORY_PREFIX)];
}

function walk(dir: string, prefix: string, skip?: string): MemoryFile[] {
  const out: MemoryFile[] = [];
  const visit = (folder: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length >= MAX_LISTED || name.startsWith(".fathom-tmp")) continue;
      const full = nodePath.join(folder, name);
      if (full === skip) continue;
      let st;
      try {
        st = lstatSync(full);
      } catch {
        continue;
      }
      if (st.isDirectory()) visit(full, `${rel}/${name}`);
      else if (st.isFile()) {
        out.push({
          path: `${prefix}${rel}/${name}`,
          size: st.size,
          firstLine: firstLineOf(full),
          overCap: st.size > MAX_MEMORY_FILE_BYTES,
          modifiedMs: st.mtimeMs,
        });
      }
    }
  };
  visit(dir, "");
  return out;
}

/** The first line of a file, reading only its first bytes (a 50 MB file planted by hand costs nothing). */
function firstLineOf(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(FIRST_LINE_BYTES);
    const n = readSync(fd, buf, 0, FIRST_LINE_BYTES, 0);
    const line =
      buf
        .subarray(0, n)
        .toString("utf8")
        .split(/\r?\n/)
        .find((l) => l.trim()) ?? "";
    return line
      .replace(/^#+\s*/, "")
      .replace(/\uFFFD+$/, "")
      .trim()
      .slice(0, 200);
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The real file behind a memory path, or an error that says which paths are memory. */
export function memoryFileOf(folders: MemoryFolders, path: string): { file: string } | { error: string } {
  const p = path.replace(/\\/g, "/");
  const [dir, rest] = p.startsWith(`${USER_MEMORY_PREFIX}/`)
    ? [folders.user, p.slice(USER_MEMORY_PREFIX.length + 1)]
    : p.startsWith(`${MEMORY_PREFIX}/`)
      ? [folders.project, p.slice(MEMORY_PREFIX.length + 1)]
      : [undefined, ""];
  if (!dir || !rest || rest.split("/").some((s) => s === "" || s === "." || s === "..")) {
    return {
      error: `${path} is not a memory file; memory paths look like /memories/style.md or /memories/user/tone.md (see fathom memories).`,
    };
  }
  return { file: nodePath.join(dir, ...rest.split("/")) };
}

/** Deletes one memory file. */
export function removeMemory(folders: MemoryFolders, path: string): { removed: string } | { error: string } {
  const target = memoryFileOf(folders, path);
  if ("error" in target) return target;
  try {
    if (!lstatSync(target.file).isFile()) return { error: `${path} is not a memory file.` };
  } catch {
    return { error: `There is no memory ${path} (see fathom memories).` };
  }
  rmSync(target.file, { force: true });
  return { removed: path };
}

/** Deletes every memory file of this workspace and the person's; returns how many. */
export function clearMemories(folders: MemoryFolders): number {
  const files = listMemories(folders);
  for (const f of files) {
    const target = memoryFileOf(folders, f.path);
    if ("file" in target) rmSync(target.file, { force: true });
  }
  return files.length;
}
