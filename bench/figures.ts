// The real host's figures, each compared with the last ones kept in the repository
// (bench/last-figures.json): the bench prints which hop moved, and by how much.
// `npm run bench -- vscode --save` writes this run's figures there.
import * as fs from "node:fs";
import * as path from "node:path";
import { percentile } from "./latencyStats";

const LAST_FILE = path.join(import.meta.dirname, "last-figures.json");

export interface Figure {
  /** What is measured (also the key in last-figures.json). */
  name: string;
  /** The median, or the single value. */
  value: number;
  p95?: number;
  n?: number;
  unit: "ms" | "KB" | "MiB" | "chars" | "tokens";
  /** The goal, as printed ("≤ 35 ms"); `limit` is its number, when there is one. */
  target?: string;
  limit?: number;
}

/** Figures of one run; `print` shows each beside the last kept run's. */
export class Figures {
  private readonly list: Figure[] = [];

  samples(name: string, xs: number[], o: { target?: string; limit?: number } = {}): void {
    this.list.push({
      name,
      value: Math.round(percentile(xs, 50)),
      p95: Math.round(percentile(xs, 95)),
      n: xs.length,
      unit: "ms",
      ...o,
    });
  }

  single(name: string, value: number, unit: Figure["unit"], o: { target?: string; limit?: number } = {}): void {
    this.list.push({ name, value: Math.round(value * 10) / 10, unit, ...o });
  }

  /** This run's value of `name` (the median, or the single value), if it was measured. */
  value(name: string): number | undefined {
    return this.list.find((f) => f.name === name)?.value;
  }

  print(): void {
    const last = readLast();
    console.log(
      `  ${"figure".padEnd(62)} ${"this run (p50 / p95)".padStart(24)} ${"last kept".padStart(12)} ${"moved".padStart(10)}   target`,
    );
    for (const f of this.list) {
      const now =
        f.p95 !== undefined
          ? `${f.value} / ${f.p95} ${f.unit}${f.n ? ` (n=${f.n})` : ""}`
          : `${f.value.toLocaleString("en")} ${f.unit}`;
      const before = last[f.name];
      const moved = before === undefined || !Number.isFinite(f.value) ? "" : describeMove(before, f.value, f.unit);
      const met = f.limit === undefined ? "" : f.value <= f.limit ? " ✓" : " ✗";
      console.log(
        `  ${f.name.padEnd(62)} ${now.padStart(24)} ${before === undefined ? "—".padStart(12) : `${before} ${f.unit}`.padStart(12)} ${moved.padStart(10)}   ${f.target ?? "—"}${met}`,
      );
    }
    const movedMost = this.list
      .filter((f) => last[f.name] !== undefined && last[f.name]! > 0 && f.unit === "ms")
      .map((f) => ({ name: f.name, ratio: f.value / last[f.name]! }))
      .sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)))[0];
    if (movedMost && Math.abs(movedMost.ratio - 1) > 0.2)
      console.log(
        `  moved most since the last kept run: ${movedMost.name} (${movedMost.ratio > 1 ? "+" : ""}${Math.round((movedMost.ratio - 1) * 100)}%)`,
      );
    if (process.argv.includes("--save")) {
      fs.writeFileSync(
        LAST_FILE,
        `${JSON.stringify({ ...last, ...Object.fromEntries(this.list.map((f) => [f.name, f.value])) }, null, 2)}\n`,
      );
      console.log(`  saved as the last kept figures: ${path.relative(process.cwd(), LAST_FILE)}`);
    }
  }
}

function describeMove(before: number, now: number, unit: string): string {
  const delta = Math.round((now - before) * 10) / 10;
  if (delta === 0) return "=";
  return `${delta > 0 ? "+" : ""}${delta} ${unit}`;
}

export function readLast(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(LAST_FILE, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}
