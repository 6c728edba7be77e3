import { promises as fsp, constants as fsc, type Dirent, type Stats } from "node:fs";
import * as nodePath from "node:path";
import { O_NOFOLLOW, fdIsInside, isInside } from "../pathGuard";
import type { GrepResult } from "../protocol";

/**
 * Search results checked against the folder-swap race: between the path guard's check and the
 * walk (ripgrep's or ours), a folder inside the workspace can be replaced by a link to one
 * outside. `read_file` is safe because it checks the file it opened; these do the same for
 * what `ls`, `grep` and `glob` return, so no name or line from outside gets through.
 */

/** Whether the file or folder opened as `fd` is inside the root (Linux: by the descriptor). */
async function openedInside(realRoot: string, fd: number, path: string): Promise<boolean> {
  if (process.platform === "linux") return fdIsInside(realRoot, fd);
  try {
    return isInside(realRoot, await fsp.realpath(path));
  } catch {
    return false;
  }
}

/**
 * Lists a folder that is, as opened, inside the root. On Linux the listing is read through the
 * opened descriptor (`/proc/self/fd/N`), so a swap after the check cannot change what is listed.
 */
export async function readdirInside(realRoot: string, realDir: string): Promise<Dirent[] | { error: string }> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(realDir, fsc.O_RDONLY | fsc.O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return { error: "The folder changed into a link while it was being listed; try again." };
  }
  try {
    if (!(await openedInside(realRoot, handle.fd, realDir)))
      return { error: "The folder changed into a link outside the workspace while it was being listed." };
    const listed = process.platform === "linux" ? `/proc/self/fd/${handle.fd}` : realDir;
    return await fsp.readdir(listed, { withFileTypes: true });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Opens a file for reading only if, as opened, it is a regular file inside the root. */
async function openInside(realRoot: string, file: string): Promise<fsp.FileHandle | undefined> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, fsc.O_RDONLY | O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const st = await handle.stat().catch(() => undefined);
  if (st?.isFile() && (await openedInside(realRoot, handle.fd, file))) return handle;
  await handle.close().catch(() => undefined);
  return undefined;
}

/**
 * Keeps the matches that are really inside: each file is opened again through a checked
 * descriptor, and a line is kept only if the file, read that way, holds it at that line.
 * Costs one read of each matching file (not of every file searched).
 */
export async function verifyGrep(
  realRoot: string,
  result: GrepResult,
  maxFileBytes: number,
  withText: boolean,
): Promise<GrepResult> {
  if (result.error) return result;
  const files = [...new Set([...(result.matches ?? []).map((m) => m.path), ...Object.keys(result.counts ?? {})])];
  const lines = new Map<string, string[] | true>();
  await Promise.all(
    files.map(async (rel) => {
      const handle = await openInside(realRoot, nodePath.join(realRoot, rel));
      if (!handle) return;
      try {
        if (!withText) {
          lines.set(rel, true);
          return;
        }
        const st = await handle.stat();
        const buf = Buffer.alloc(Math.min(st.size, maxFileBytes));
        const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
        lines.set(rel, buf.subarray(0, bytesRead).toString("utf8").split("\n"));
      } catch {
        /* unreadable now: dropped */
      } finally {
        await handle.close().catch(() => undefined);
      }
    }),
  );
  const holds = (rel: string, line: number, text: string) => {
    const content = lines.get(rel);
    if (content === true) return true;
    const actual = content?.[line - 1]?.replace(/\r$/, "");
    return actual !== undefined && actual.startsWith(text.replace(/…$/, ""));
  };
  const out: GrepResult = {
    ...result,
    matches: (result.matches ?? []).filter((m) => lines.has(m.path) && (!withText || holds(m.path, m.line, m.text))),
  };
  if (result.counts) out.counts = Object.fromEntries(Object.entries(result.counts).filter(([rel]) => lines.has(rel)));
  return out;
}

/**
 * Stats the paths (root-relative) through their folders as opened and checked to be inside the
 * root: on Linux each folder is opened once (no link followed) and its files are stat'ed as
 * `/proc/self/fd/N/name`, so a name listed through a swapped-in link is looked up in the real
 * folder, where it is missing: null. Elsewhere the folder's real path is checked instead.
 */
export async function statThroughFolders(
  realRoot: string,
  rels: readonly string[],
  statMany: (paths: readonly string[]) => Promise<(Stats | null)[]>,
): Promise<(Stats | null)[]> {
  const dirs = new Map<string, Promise<{ path: string; close(): Promise<void> } | null>>();
  const open = (dir: string) => {
    let p = dirs.get(dir);
    if (!p) {
      p = openDirInside(realRoot, nodePath.join(realRoot, dir));
      dirs.set(dir, p);
    }
    return p;
  };
  const handles = await Promise.all(rels.map((rel) => open(nodePath.dirname(rel))));
  try {
    const paths = rels.map((rel, i) => (handles[i] ? nodePath.join(handles[i].path, nodePath.basename(rel)) : ""));
    const stats = await statMany(paths.filter(Boolean));
    let next = 0;
    return paths.map((p) => (p ? (stats[next++] ?? null) : null));
  } finally {
    for (const h of await Promise.all(dirs.values())) await h?.close();
  }
}

async function openDirInside(
  realRoot: string,
  realDir: string,
): Promise<{ path: string; close(): Promise<void> } | null> {
  if (process.platform !== "linux") {
    const real = await fsp.realpath(realDir).catch(() => "");
    return real === realDir && (real === realRoot || isInside(realRoot, real))
      ? { path: realDir, close: async () => undefined }
      : null;
  }
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(realDir, fsc.O_RDONLY | fsc.O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return null;
  }
  const close = () => handle.close().catch(() => undefined);
  if (!(await fdIsInside(realRoot, handle.fd))) {
    await close();
    return null;
  }
  return { path: `/proc/self/fd/${handle.fd}`, close };
}

/** A search's result with each path (relative to the root) as the model is shown it. */
export function withShownPaths(r: GrepResult, shown: (rel: string) => string): GrepResult {
  const out: GrepResult = {
    matches: (r.matches ?? []).map((m) => ({ ...m, path: shown(m.path) })),
    truncated: r.truncated ?? false,
  };
  if (r.counts) out.counts = Object.fromEntries(Object.entries(r.counts).map(([k, v]) => [shown(k), v]));
  return out;
}
