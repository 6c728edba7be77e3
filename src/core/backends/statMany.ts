import { promises as fsp, lstatSync, type Stats } from "node:fs";
import { mapLimit } from "./search/collect";

/**
 * `lstat` of many paths (null where it fails), for the size and date of the files `glob`
 * returns. A cached `lstat` is a syscall of a few microseconds, while the async call costs
 * about 20 µs of main-thread CPU in thread-pool and promise overhead (profiled: most of glob's
 * own CPU time for 1,000 files). So this stats synchronously in small slices, yielding to the
 * event loop between slices, and hands the rest to the async calls as soon as a slice is slow
 * (network drives, cold caches): the event loop is never blocked for long.
 */
const FIRST_SLICE = 8;
const MAX_SLICE = 256;
/** A slice slower than this means the file system is not answering from a cache. */
const SLOW_SLICE_MS = 4;

export async function lstatMany(paths: readonly string[]): Promise<(Stats | null)[]> {
  const out = new Array<Stats | null>(paths.length).fill(null);
  let i = 0;
  let slice = FIRST_SLICE;
  while (i < paths.length) {
    const t0 = performance.now();
    const end = Math.min(paths.length, i + slice);
    for (; i < end; i++) {
      try {
        out[i] = lstatSync(paths[i] as string, { throwIfNoEntry: false }) ?? null;
      } catch {
        /* unreadable: left null */
      }
    }
    if (i >= paths.length) break;
    if (performance.now() - t0 > SLOW_SLICE_MS) {
      const from = i;
      const rest = await mapLimit(paths.slice(from), 32, (p) => fsp.lstat(p).catch(() => null));
      rest.forEach((s, j) => (out[from + j] = s));
      break;
    }
    slice = Math.min(slice * 2, MAX_SLICE);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}
