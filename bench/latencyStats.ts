// Percentiles, the machine's load while a bench runs, and the host's latency marks per step
// (the `latency <id> <step> @<ms>` lines Fathom logs at debug level), for bench/realHost.ts.
import * as os from "node:os";
import { parseLatencyMarks, type LatencyMark } from "../src/host/latency";

/** The nearest-rank percentile (p in 0..100) of the samples; NaN for none. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** "p50 N ms / p95 M ms (n = K)" */
export function p50p95(samples: number[]): string {
  return `${Math.round(percentile(samples, 50))} / ${Math.round(percentile(samples, 95))} ms (n=${samples.length})`;
}

/** Samples the 1-minute load average every second while a bench runs. */
export class LoadSampler {
  private readonly readings: number[] = [];
  private readonly timer = setInterval(() => this.readings.push(os.loadavg()[0]!), 1000);

  constructor() {
    this.timer.unref();
    this.readings.push(os.loadavg()[0]!);
  }

  /** Stops sampling; mean and highest 1-minute load, and the number of cores. */
  stop(): { mean: number; max: number; cores: number } {
    clearInterval(this.timer);
    const mean = this.readings.reduce((a, b) => a + b, 0) / this.readings.length;
    return { mean, max: Math.max(...this.readings), cores: os.cpus().length };
  }
}

/**
 * Time between consecutive host steps of each tool call, from the log's latency marks: for
 * every pair of steps seen in order (for example "model done → approval event"), the samples
 * across calls. Steps of a call are taken in the order they were logged.
 */
export function stepGaps(logText: string, ids?: Set<string>): Map<string, number[]> {
  const byId = new Map<string, LatencyMark[]>();
  for (const mark of parseLatencyMarks(logText)) {
    if (ids && !ids.has(mark.id)) continue;
    const list = byId.get(mark.id) ?? [];
    list.push(mark);
    byId.set(mark.id, list);
  }
  const gaps = new Map<string, number[]>();
  for (const marks of byId.values()) {
    for (let i = 1; i < marks.length; i++) {
      const key = `${marks[i - 1]!.step} → ${marks[i]!.step}`;
      const list = gaps.get(key) ?? [];
      list.push(marks[i]!.at - marks[i - 1]!.at);
      gaps.set(key, list);
    }
  }
  return gaps;
}
