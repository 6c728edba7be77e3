import { readFileSync } from "node:fs";
import { dirNames } from "../dirNames";

/**
 * Processes a sandboxed command left behind when it was stopped, found by the tag its command
 * line carries (`FATHOM_SANDBOX_RUN=<id>`), and killed.
 *
 * Why this is needed: bubblewrap starts the command in a new session and PID namespace, so
 * killing the executor's process group reaches only bwrap's outer process. What ties the rest
 * to it is `--die-with-parent`, and bwrap's inner process sets that only at the end of its
 * set-up (the mounts). A stop that lands during the set-up (a Ctrl+C right after the command
 * started, more likely on a loaded machine) kills the outer process and orphans the inner one,
 * which then runs the command with nothing left to stop it. Killing the inner process (the
 * namespace's init) ends everything in its namespace.
 */
export function sandboxTag(id: string): string {
  return `FATHOM_SANDBOX_RUN=${id}`;
}

/** Pids of this user's processes whose command line contains `tag` (Linux; elsewhere none). */
export function taggedProcesses(tag: string): number[] {
  if (process.platform !== "linux") return [];
  const entries = dirNames("/proc");
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      // NUL-separated arguments; the tag sits inside one of them.
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(tag)) found.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Kills (SIGKILL) every process still carrying `tag`, looking again until none is left (a
 * process caught mid-fork shows up on the next look). Returns how many were killed.
 */
export async function killSandboxLeftovers(
  tag: string,
  o: { rounds?: number; pauseMs?: number } = {},
): Promise<number> {
  let killed = 0;
  for (let round = 0; round < (o.rounds ?? 4); round++) {
    const pids = taggedProcesses(tag);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // Already gone, or not ours.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, o.pauseMs ?? 50));
  }
  return killed;
}
