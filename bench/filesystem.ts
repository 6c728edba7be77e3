// Benchmark of the file tools (issue 3): grep and glob against raw ripgrep on a 100,000-file,
// ~1 GB tree, a 2,000-line window in the middle of a 1 GB file, and a replace_all edit of a
// 50 MB file. The tree is generated once under the OS temp dir and reused.
// Run alone: node --import tsx bench/filesystem.ts
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import { clearLineIndexes } from "../src/core/backends/readWindow";
import { findRipgrep } from "../src/core/backends/search/ripgrep";

export interface FilesystemBenchOptions {
  dir?: string;
  files?: number;
  runs?: number;
}

const RARE = "RARE_NEEDLE_7f3a";
const COMMON = "return computeTotal";

function fileBody(i: number): string {
  const lines: string[] = [];
  let len = 0;
  for (let k = 0; len < 10_400; k++) {
    lines.push(`export function handler${i}_${k}(input: Record<string, number>): number {`);
    lines.push(`  const items = Object.values(input).filter((n) => n > ${k}); // item ${i}.${k}`);
    lines.push(k === 3 ? `  ${COMMON}(items);` : `  return items.reduce((a, b) => a + b, ${k});`);
    lines.push("}");
    len += 200;
  }
  if (i % 10_000 === 1234) lines.push(`// ${RARE}`);
  return lines.join("\n") + "\n";
}

async function ensureTree(dir: string, files: number): Promise<void> {
  const marker = path.join(dir, ".complete");
  if (existsSync(marker)) return;
  console.log(`  generating ${files} files (~1 GB) and a 1 GB file under ${dir} (once)...`);
  rmSync(dir, { recursive: true, force: true });
  const exts = ["ts", "md", "txt", "js"];
  for (let i = 0; i < files; i++) {
    const d = path.join(dir, "tree", `d${String(Math.floor(i / 1000)).padStart(3, "0")}`);
    if (i % 1000 === 0) mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, `f${i}.${exts[i % 4]}`), fileBody(i));
  }
  const big = createWriteStream(path.join(dir, "big-1gb.log"));
  const line = (n: number): string =>
    `${String(n).padStart(9, "0")} INFO request served in ${n % 997} ms by worker ${n % 13} for /api/v1/items\n`;
  let n = 0;
  let bytes = 0;
  while (bytes < 1024 ** 3) {
    let chunk = "";
    for (let k = 0; k < 10_000; k++) chunk += line(n++);
    bytes += chunk.length;
    if (!big.write(chunk)) await once(big, "drain");
  }
  big.end();
  await once(big, "finish");
  writeFileSync(marker, String(n));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/**
 * CPU time (ms) used so far by this process and its finished children (rg), or NaN where
 * /proc is missing. Unlike wall time it hardly depends on what else runs on the machine.
 */
function cpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // f[0] is field 3 (state)
    const ticks = Number(f[13]) + Number(f[14]); // cutime + cstime (children), clock ticks of 10 ms
    const self = process.cpuUsage();
    return (self.user + self.system) / 1000 + ticks * 10;
  } catch {
    return NaN;
  }
}

/**
 * Times two commands alternately (ours, then raw rg, `runs` times each, after one warm-up of
 * each), so that load from other jobs on the machine hits both alike; returns both medians.
 */
async function timePair(
  runs: number,
  a: () => unknown,
  b: () => unknown,
): Promise<{ wall: [number, number]; cpu: [number, number] }> {
  await a(); // warm the caches
  await b();
  const ta: number[] = [];
  const tb: number[] = [];
  const ca: number[] = [];
  const cb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let c = cpuMs();
    let t = performance.now();
    await a();
    ta.push(performance.now() - t);
    ca.push(cpuMs() - c);
    c = cpuMs();
    t = performance.now();
    await b();
    tb.push(performance.now() - t);
    cb.push(cpuMs() - c);
  }
  return { wall: [median(ta), median(tb)], cpu: [median(ca), median(cb)] };
}

function rawRg(rg: string, cwd: string, args: string[]): () => void {
  const base = ["--no-config", "--hidden", "--no-require-git", "--glob", "!.git"];
  return () => {
    const r = spawnSync(rg, [...base, ...args], { cwd, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
    if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.status}`);
  };
}

export async function runFilesystemBench(opts: FilesystemBenchOptions = {}): Promise<Record<string, number | string>> {
  console.log("\n## Filesystem tools (issue 3)");
  const dir = opts.dir ?? path.join(tmpdir(), "fathom-bench-fs-v1");
  // Median of this many runs each (the machine is shared: single runs vary by ±30% or more).
  const runs = opts.runs ?? (Number(process.env.FATHOM_BENCH_RUNS) || 7);
  await ensureTree(dir, opts.files ?? 100_000);
  const rg = findRipgrep(undefined);
  if (!rg) throw new Error("ripgrep (rg) is needed on PATH for the comparison");
  const tree = path.join(dir, "tree");
  const b = new FilesystemBackend({ rootDir: tree, maxFileSizeMb: 10 });
  const out: Record<string, number | string> = {};

  const treeBytes = Number(spawnSync("du", ["-sb", tree], { encoding: "utf8" }).stdout.split("\t")[0]);
  out.treeFiles = opts.files ?? 100_000;
  out.treeMB = Math.round(treeBytes / 1048576);

  out.runs = runs;
  const cmp = async (name: string, ours: () => Promise<unknown>, raw: () => void): Promise<void> => {
    const {
      wall: [a, r],
      cpu: [ca, cr],
    } = await timePair(runs, ours, raw);
    out[`${name}_ms`] = Math.round(a);
    out[`${name}_rg_ms`] = Math.round(r);
    out[`${name}_ratio`] = Number((a / r).toFixed(2));
    out[`${name}_cpu_ms`] = Math.round(ca);
    out[`${name}_rg_cpu_ms`] = Math.round(cr);
    out[`${name}_cpu_ratio`] = Number((ca / cr).toFixed(2));
    console.log(
      `  ${name.padEnd(32)} ours ${a.toFixed(0).padStart(6)} ms   rg ${r.toFixed(0).padStart(6)} ms   ratio ${(a / r).toFixed(2)}   (CPU incl. rg: ${ca.toFixed(0)} vs ${cr.toFixed(0)} ms, ${(ca / cr).toFixed(2)})`,
    );
  };
  const check = async (p: Promise<{ error?: string }>): Promise<void> => {
    const r = await p;
    if (r.error) throw new Error(r.error);
  };
  await cmp(
    "grep rare (files_with_matches)",
    () => check(b.grep(RARE, "/", undefined, { outputMode: "files_with_matches" })),
    rawRg(rg, tree, ["-F", "-l", "--null", RARE, "./"]),
  );
  await cmp(
    "grep rare (content)",
    () => check(b.grep(RARE, "/", undefined, { outputMode: "content" })),
    rawRg(rg, tree, ["-F", "-n", RARE, "./"]),
  );
  await cmp(
    "grep common (files_with_matches)",
    () => check(b.grep(COMMON, "/", undefined, { outputMode: "files_with_matches", maxResults: 500 })),
    rawRg(rg, tree, ["-F", "-l", "--null", COMMON, "./"]),
  );
  await cmp(
    "grep common (content)",
    () => check(b.grep(COMMON, "/", undefined, { outputMode: "content", maxResults: 300 })),
    rawRg(rg, tree, ["-F", "-n", COMMON, "./"]),
  );
  await cmp("glob **/*.ts", () => check(b.glob("**/*.ts", "/")), rawRg(rg, tree, ["--files", "-g", "*.ts", "./"]));

  // A 2,000-line window in the middle of a 1 GB file. "First" = no line index yet (the scan
  // from the start of the file); "later" = another window once the index exists.
  const lines = Number(readFileSync(path.join(dir, ".complete"), "utf8"));
  const mid = Math.floor(lines / 2);
  const big = "/big-1gb.log";
  await new FilesystemBackend({ rootDir: dir }).read(big, 0, 10); // warm-up (code paths, not the index)
  global.gc?.();
  const m0 = process.memoryUsage();
  let peak = m0.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const firsts: number[] = [];
  const laters: number[] = [];
  const others: number[] = [];
  for (let i = 0; i < runs; i++) {
    clearLineIndexes();
    const bigRoot = new FilesystemBackend({ rootDir: dir });
    let t = performance.now();
    const first = await bigRoot.read(big, mid, 2000);
    firsts.push(performance.now() - t);
    t = performance.now();
    const later = await bigRoot.read(big, mid + 7000, 2000);
    laters.push(performance.now() - t);
    if (!first.content?.startsWith(String(mid + 1).padStart(6)) || !later.content)
      throw new Error(first.error ?? later.error ?? "wrong window");
    t = performance.now();
    await new FilesystemBackend({ rootDir: dir }).read(big, mid - 3000, 2000);
    others.push(performance.now() - t);
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const [coldMs, warmMs, warm2Ms] = [median(firsts), median(laters), median(others)];
  out.window_file_MB = Math.round(statSync(path.join(dir, "big-1gb.log")).size / 1048576);
  out.window_first_ms = Math.round(coldMs);
  out.window_later_ms = Number(warmMs.toFixed(1));
  out.window_later_other_backend_ms = Number(warm2Ms.toFixed(1));
  out.window_peak_rss_growth_MB = Math.round((peak - m0.rss) / 1048576);
  console.log(
    `  window (2,000 lines at line ${mid} of a ${out.window_file_MB} MB file): first ${coldMs.toFixed(0)} ms (builds the line index; runs ${firsts.map(Math.round).join(", ")}), later ${warmMs.toFixed(1)} ms / ${warm2Ms.toFixed(1)} ms; peak RSS growth ${out.window_peak_rss_growth_MB} MB`,
  );

  // replace_all on a 50 MB file (rewritten before each run).
  const editDir = path.join(dir, "edit");
  mkdirSync(editDir, { recursive: true });
  const line = "const value = computeTotal(items); // keep the rest of this line as it is\n";
  const edits: number[] = [];
  let occurrences = 0;
  for (let i = 0; i < runs; i++) {
    writeFileSync(path.join(editDir, "big.ts"), line.repeat(Math.ceil((50 * 1048576) / line.length)));
    spawnSync("sync"); // flush the generated file so the edit's own fsync is what gets timed
    const eb = new FilesystemBackend({ rootDir: editDir, maxFileSizeMb: 64 });
    const t = performance.now();
    const er = await eb.edit("/big.ts", "computeTotal", "computeSum", true);
    edits.push(performance.now() - t);
    if (er.error) throw new Error(er.error);
    occurrences = er.occurrences ?? 0;
  }
  const editMs = median(edits);
  out.edit_50MB_ms = Math.round(editMs);
  out.edit_occurrences = occurrences;
  console.log(
    `  replace_all on a 50 MB file: ${editMs.toFixed(0)} ms (${occurrences} occurrences; runs ${edits.map(Math.round).join(", ")})`,
  );
  return out;
}

if (/bench[\\/]filesystem\.ts$/.test(process.argv[1] ?? "")) {
  runFilesystemBench().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
