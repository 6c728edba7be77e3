import { promises as fsp, constants as fsc } from "node:fs";
import { randomBytes } from "node:crypto";
import * as nodePath from "node:path";
import { O_NOFOLLOW, fdIsInside, isInside } from "./pathGuard";

/**
 * Writes `data` to `realTarget` atomically: a temp file in the same folder (created exclusively,
 * never through a link), flushed, given the old file's mode, then renamed over the target.
 * Readers see the old content or the new, never a half-written file. Returns an error message
 * or null.
 */
export async function atomicWrite(realRoot: string, realTarget: string, data: Buffer): Promise<string | null> {
  const dir = nodePath.dirname(realTarget);
  let mode: number | undefined;
  try {
    const st = await fsp.lstat(realTarget);
    if (st.isDirectory()) return "That path is a folder, not a file.";
    if (!st.isFile()) return "That path is not a regular file (a link, device, pipe or socket); it cannot be written.";
    mode = st.mode & 0o7777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") return `Cannot write: ${describe(e)}.`;
  }
  await removeStaleTempFiles(dir);
  // The writer's pid is in the name, so a write killed with its process is cleaned up at once.
  const tmp = nodePath.join(
    dir,
    `.${nodePath.basename(realTarget).slice(0, 100)}.fathom-${process.pid}-${randomBytes(6).toString("hex")}.tmp`,
  );
  let fh: fsp.FileHandle | undefined;
  let created = false;
  try {
    fh = await fsp.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | O_NOFOLLOW, 0o666);
    created = true;
    if (!(await fdIsInside(realRoot, fh.fd))) {
      await fh.close();
      fh = undefined;
      await fsp.unlink(tmp).catch(() => undefined);
      created = false;
      return "The folder changed into a link outside the workspace while writing; nothing was written.";
    }
    if (mode !== undefined) await fh.chmod(mode);
    let off = 0;
    while (off < data.length) {
      const { bytesWritten } = await fh.write(data, off, data.length - off, off);
      off += bytesWritten;
    }
    await fh.sync();
    await fh.close();
    fh = undefined;
    // Re-check the folder right before the rename (it must still be the real folder inside the root).
    const realDir = await fsp.realpath(dir);
    if (realDir !== dir || !isInside(realRoot, realDir)) {
      throw Object.assign(new Error("folder moved"), { code: "EMOVED" });
    }
    await fsp.rename(tmp, realTarget);
    created = false;
    return null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EMOVED") return "The folder changed while writing; nothing was written.";
    return `Cannot write: ${describe(e)}. Nothing was changed.`;
  } finally {
    if (fh) await fh.close().catch(() => undefined);
    if (created) await fsp.unlink(tmp).catch(() => undefined);
  }
}

/**
 * Creates the missing folders of `realDir` one at a time (never through a link), checking after
 * each that it is still inside the root. Returns an error message or null.
 */
export async function mkdirInside(
  realRoot: string,
  realDir: string,
): Promise<{ created: string[] } | { error: string }> {
  if (!isInside(realRoot, realDir)) return { error: "That folder is outside the workspace." };
  const rel = nodePath.relative(realRoot, realDir);
  const created: string[] = [];
  const fail = async (error: string) => {
    await removeEmptyFolders(created);
    return { error };
  };
  let cur = realRoot;
  for (const seg of rel ? rel.split(nodePath.sep) : []) {
    cur = nodePath.join(cur, seg);
    try {
      await fsp.mkdir(cur);
      created.push(cur);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") return fail(`Cannot create folder: ${describe(e)}.`);
    }
    try {
      const st = await fsp.lstat(cur);
      if (!st.isDirectory()) return fail(`Cannot create folder: '${seg}' exists and is not a folder.`);
    } catch (e) {
      return fail(`Cannot create folder: ${describe(e)}.`);
    }
  }
  return { created };
}

/** Undoes `mkdirInside` after a failed write: removes the folders it made, deepest first, if still empty. */
export async function removeEmptyFolders(created: readonly string[]): Promise<void> {
  for (const dir of [...created].reverse()) {
    try {
      await fsp.rmdir(dir);
    } catch {
      return; // not empty (someone else wrote there) or gone: leave it and its parents
    }
  }
}

/** Our temp files: `.<name>.fathom-<pid>-<12 hex>.tmp` (and the pid-less names of older versions). */
const TEMP_NAME = /^\..*\.fathom-(?:(\d+)-)?[0-9a-f]{12}\.tmp$/;
/** A temp file this old was left by a killed write (a live write finishes in well under this). */
const STALE_TEMP_MS = 60_000;

/** Whether process `pid` is gone (then a temp file it was writing is abandoned). */
function processGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Removes temp files a killed Fathom left in `dir`: those of a process that is gone, and any of
 * ours older than a minute (a pid may have been reused). Called before each write to that
 * folder; costs one readdir.
 */
export async function removeStaleTempFiles(dir: string, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (!match) continue;
    const file = nodePath.join(dir, name);
    const st = await fsp.lstat(file).catch(() => null);
    if (!st?.isFile()) continue;
    const abandoned = match[1] !== undefined && processGone(Number(match[1]));
    if (abandoned || now - st.mtimeMs > STALE_TEMP_MS) await fsp.unlink(file).catch(() => undefined);
  }
}

export function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOSPC":
      return "the disk is full";
    case "EROFS":
      return "the file system is read-only";
    case "EISDIR":
      return "it is a folder";
    case "ENOENT":
      return "it does not exist";
    case "ELOOP":
      return "a symbolic link is in the way";
    default:
      return err.code ?? String(err.message ?? e);
  }
}
