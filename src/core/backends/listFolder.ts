import { promises as fsp } from "node:fs";
import * as nodePath from "node:path";
import { describe } from "./atomicWrite";
import { resolveInRoot } from "./pathGuard";
import type { FileInfo, LsResult } from "./protocol";
import { readdirInside } from "./search/verifyInside";

/**
 * `ls` of a folder already checked by the path guard. The names come from the folder as opened
 * and checked inside the root (a swap to a link after the check lists nothing from outside);
 * links are shown where they lead when that is inside, as bare names otherwise.
 */
export async function listFolder(
  root: string,
  t: { real: string; rel: string; shown: string },
  isHidden: (rel: string, isDir: boolean) => boolean | Promise<boolean>,
  shownOf: (rel: string) => string,
): Promise<LsResult> {
  try {
    const st = await fsp.stat(t.real);
    if (!st.isDirectory()) return { error: `${t.shown} is a file, not a folder. Use read_file to read it.` };
    const files: FileInfo[] = [];
    const entries = await readdirInside(root, t.real);
    if ("error" in entries) return { error: `${entries.error} (${t.shown})` };
    for (const e of entries) {
      const rel = t.rel ? `${t.rel}/${e.name}` : e.name;
      if (await isHidden(rel, e.isDirectory())) continue;
      const shown = shownOf(rel);
      let real = nodePath.join(t.real, e.name);
      if (e.isSymbolicLink()) {
        const r = await resolveInRoot(root, "/" + rel);
        if ("error" in r || !r.exists) {
          files.push({ path: shown });
          continue;
        }
        real = r.real;
      }
      try {
        const s = await fsp.stat(real);
        files.push(
          s.isDirectory()
            ? { path: shown + "/", is_dir: true, modified_at: s.mtime.toISOString() }
            : { path: shown, is_dir: false, size: s.size, modified_at: s.mtime.toISOString() },
        );
      } catch {
        files.push({ path: shown });
      }
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files };
  } catch (e) {
    return { error: `Cannot list ${t.shown}: ${describe(e)}.` };
  }
}
