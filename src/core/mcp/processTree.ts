import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * A process and everything it started, so that stopping an MCP server leaves no orphan: `npx`
 * starts a shell that starts node, and the sandbox wraps the command in `sh` and `bwrap`, so
 * killing only the spawned process would leave the real server running. Each process is
 * identified by pid and start time, so a pid reused in the meantime is never signalled.
 */
export interface ProcessRef {
  pid: number;
  /** Start time from /proc (Linux); undefined elsewhere. */
  started?: string;
}

interface Entry {
  pid: number;
  ppid: number;
  started?: string;
}

function linuxTable(): Entry[] {
  const out: Entry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name (field 2) may hold spaces and parentheses: fields are read after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.push({ pid: Number(name), ppid: Number(fields[1]), started: fields[19] });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function psTable(): Entry[] {
  try {
    return execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8", timeout: 2_000 })
      .split("\n")
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter((f): f is [number, number] => f.length === 2 && f.every(Number.isInteger))
      .map(([pid, ppid]) => ({ pid, ppid }));
  } catch {
    return [];
  }
}

function table(): Entry[] {
  return process.platform === "linux" ? linuxTable() : process.platform === "win32" ? [] : psTable();
}

/** `root` and its descendants, root first. */
export function processTree(root: number): ProcessRef[] {
  const entries = table();
  const children = new Map<number, Entry[]>();
  for (const e of entries) children.set(e.ppid, [...(children.get(e.ppid) ?? []), e]);
  const self = entries.find((e) => e.pid === root);
  // Gone already (and its pid perhaps reused): nothing to signal.
  if (!self && process.platform !== "win32") return [];
  const tree: ProcessRef[] = [{ pid: root, ...(self?.started ? { started: self.started } : {}) }];
  for (let i = 0; i < tree.length && tree.length < 10_000; i++) {
    for (const child of children.get(tree[i]!.pid) ?? [])
      tree.push({ pid: child.pid, ...(child.started ? { started: child.started } : {}) });
  }
  return tree;
}

/** Whether the very process `ref` names is still running. */
export function isAlive(ref: ProcessRef): boolean {
  if (ref.started !== undefined) {
    try {
      const stat = readFileSync(`/proc/${ref.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return fields[19] === ref.started && fields[0] !== "Z";
    } catch {
      return false;
    }
  }
  try {
    process.kill(ref.pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals every process of `tree` that still runs (synchronous: usable in an exit handler). */
export function signalTree(tree: readonly ProcessRef[], signal: NodeJS.Signals): void {
  if (process.platform === "win32" && tree[0]) {
    try {
      execFileSync("taskkill", ["/pid", String(tree[0].pid), "/T", "/F"], { stdio: "ignore", timeout: 5_000 });
    } catch {
      // already gone
    }
    return;
  }
  for (const ref of tree) {
    if (!isAlive(ref)) continue;
    try {
      process.kill(ref.pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}

/** Waits up to `ms` for every process of `tree` to end; returns those still running. */
export async function waitForExit(tree: readonly ProcessRef[], ms: number): Promise<ProcessRef[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = tree.filter(isAlive);
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((r) => setTimeout(r, 25));
  }
}
