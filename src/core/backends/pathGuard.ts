import { promises as fsp, constants as fsc } from "node:fs";
import * as nodePath from "node:path";

/** Longest path accepted, in characters (Linux PATH_MAX is 4096 bytes). */
export const MAX_PATH_LENGTH = 4096;
/** Longest single name accepted, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;

/** `O_NOFOLLOW` where the platform has it (not on Windows). */
export const O_NOFOLLOW: number = (fsc as { O_NOFOLLOW?: number }).O_NOFOLLOW ?? 0;

export type Checked<T> = T | { error: string };

const HINT = "Use a path inside the workspace, such as /src/index.ts (/ is the workspace root).";

/**
 * Turns what the model wrote into a normalised virtual path (`/a/b`), refusing anything that
 * could name a place outside the root. Pure string work; symlinks are checked by `resolveInRoot`.
 * `realRoots` are real absolute spellings of the root that are accepted and stripped.
 */
export function normalizeVirtualPath(input: unknown, realRoots: readonly string[] = []): Checked<string> {
  if (typeof input !== "string") return { error: `Path must be a string. ${HINT}` };
  let p = input;
  if (p.length > MAX_PATH_LENGTH) {
    return { error: `Path is too long (${p.length} characters; the limit is ${MAX_PATH_LENGTH}).` };
  }
  if (p.includes("\0")) return { error: `Path contains a NUL byte, which is not allowed. ${HINT}` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0001-\u001f\u007f]/.test(p)) {
    return { error: `Path contains control characters, which are not allowed. ${HINT}` };
  }
  if (/%(25)*(2e|2f|5c|00)/i.test(p)) {
    return { error: `Path contains URL-encoded '.', '/', '\\' or NUL; write the path plainly. ${HINT}` };
  }
  if (/^[\\/]{2}/.test(p)) return { error: `UNC and network paths (//server/share) are not allowed. ${HINT}` };
  if (/^[a-zA-Z]:/.test(p) || /^[\\/][a-zA-Z]:([\\/]|$)/.test(p)) {
    return { error: `Drive-letter paths (C:\\...) are not allowed. ${HINT}` };
  }
  p = p.replace(/\\/g, "/");
  if (p === "~" || p.startsWith("~")) {
    return { error: `Home-directory paths (~) are not allowed. ${HINT}` };
  }
  // A real absolute path inside the root is accepted: strip the root.
  for (const root of realRoots) {
    const r = root.replace(/\\/g, "/").replace(/\/+$/, "");
    if (r && (p === r || p.startsWith(r + "/"))) {
      p = p.slice(r.length) || "/";
      break;
    }
  }
  const parts: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") return { error: `Path '${input}' contains '..', which is not allowed. ${HINT}` };
    if (Buffer.byteLength(seg) > MAX_NAME_BYTES) {
      return { error: `A name in the path is longer than ${MAX_NAME_BYTES} bytes.` };
    }
    parts.push(seg);
  }
  return "/" + parts.join("/");
}

/** True when `child` (absolute, real) is `root` or lies below it. */
export function isInside(root: string, child: string): boolean {
  if (child === root) return true;
  const rel = nodePath.relative(root, child);
  // `..` as a whole segment only: `..eslintrc.json.tmp` is a file inside.
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(rel);
}

export interface Resolved {
  /** Real absolute path with every symlink resolved (or, for a missing tail, its real parent + tail). */
  real: string;
  /** Whether the full path exists. */
  exists: boolean;
}

/**
 * Maps a normalised virtual path to a real path inside `realRoot` (which must itself be real).
 * Every symlink on the way is resolved and the result checked; a link leaving the root, a loop or
 * a dangling link is refused. A missing tail is allowed (for writes) if no part of it is a link.
 */
export async function resolveInRoot(realRoot: string, virtualPath: string): Promise<Checked<Resolved>> {
  const rel = virtualPath.replace(/^\/+/, "");
  const candidate = rel ? nodePath.join(realRoot, ...rel.split("/")) : realRoot;
  const outside = {
    error: `Path '${virtualPath}' leads outside the workspace (through a symbolic link), which is not allowed.`,
  };
  try {
    const real = await fsp.realpath(candidate);
    if (!isInside(realRoot, real)) return outside;
    return { real, exists: true };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { error: `Path '${virtualPath}' goes through a symbolic link loop.` };
    if (code === "ENOTDIR") return { error: `Path '${virtualPath}' treats a file as a folder.` };
    if (code === "EACCES") return { error: `Permission denied for '${virtualPath}'.` };
    if (code === "ENAMETOOLONG") return { error: `Path '${virtualPath}' is too long.` };
    if (code !== "ENOENT") return { error: `Cannot resolve '${virtualPath}': ${code ?? String(e)}.` };
  }
  // Find the deepest existing ancestor, resolve it, then make sure the missing tail holds no links.
  const segs = rel ? rel.split("/") : [];
  let i = segs.length;
  let base = realRoot;
  while (i > 0) {
    i--;
    const prefix = nodePath.join(realRoot, ...segs.slice(0, i));
    try {
      base = await fsp.realpath(prefix);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ELOOP") return { error: `Path '${virtualPath}' goes through a symbolic link loop.` };
      if (code !== "ENOENT") return { error: `Cannot resolve '${virtualPath}': ${code ?? String(e)}.` };
    }
  }
  if (!isInside(realRoot, base)) return outside;
  let cur = base;
  for (const seg of segs.slice(i)) {
    cur = nodePath.join(cur, seg);
    try {
      const st = await fsp.lstat(cur);
      if (st.isSymbolicLink()) {
        return {
          error: `Path '${virtualPath}' goes through a symbolic link that points nowhere or outside the workspace.`,
        };
      }
      if (!st.isDirectory()) return { error: `Path '${virtualPath}' treats a file as a folder.` };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue;
      if (code === "ENOTDIR") return { error: `Path '${virtualPath}' treats a file as a folder.` };
      return { error: `Cannot resolve '${virtualPath}': ${code ?? String(e)}.` };
    }
  }
  return { real: cur, exists: false };
}

/**
 * After opening a file, checks where the descriptor really points (Linux: /proc/self/fd), so a
 * folder swapped for a symlink between the check and the open cannot escape the root.
 * Returns false only when the descriptor is known to be outside.
 */
export async function fdIsInside(realRoot: string, fd: number): Promise<boolean> {
  if (process.platform !== "linux") return true;
  try {
    const target = await fsp.readlink(`/proc/self/fd/${fd}`);
    if (!target.startsWith("/")) return true; // not a path (pipe:[...]) — cannot judge
    return isInside(realRoot, target.replace(/ \(deleted\)$/, ""));
  } catch {
    return true;
  }
}

/** Virtual path for a real path inside the root. */
export function toVirtual(realRoot: string, real: string): string {
  const rel = nodePath.relative(realRoot, real).split(nodePath.sep).join("/");
  return "/" + rel;
}
