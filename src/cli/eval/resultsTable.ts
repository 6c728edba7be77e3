/**
 * The results as a Markdown table (readable in a terminal, pasteable into a README or an
 * issue), with edit precision and the failed trials under it.
 */
import * as path from "node:path";
import type { Comparison, EvalResults } from "./results";
import type { TrialRecord } from "./runTrial";
import { describePrecision } from "./trialMetrics";

const tokens = (n: number) =>
  n >= 10_000 ? `${(n / 1000).toFixed(0)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(Math.round(n));
const fixed = (x: number, d = 2) => x.toFixed(d);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}`;
const dollars = (x: number) => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;

export function resultsTable(results: EvalResults): string {
  const k = results.trialsPerScenario;
  const many = k > 1;
  const head = [
    "scenario",
    "passed",
    "pass@1",
    ...(many ? [`pass@${k}`, `pass^${k}`] : []),
    "steps",
    "tokens in",
    "out",
    "cached",
    "cost",
    "time (s)",
    "tool failures",
    "edit failures",
  ];
  const rows: string[][] = [];
  const byName = new Map<string, TrialRecord[]>();
  for (const r of results.results) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  for (const s of results.scenarios) {
    const trials = byName.get(s.name) ?? [];
    const avg = (f: (t: TrialRecord) => number) => trials.reduce((a, t) => a + f(t), 0) / Math.max(1, trials.length);
    rows.push([
      s.name,
      `${s.passed}/${s.trials}`,
      fixed(s.passAtK["1"] ?? 0),
      // A shard (or an interrupted run) may hold fewer than k trials of a scenario.
      ...(many
        ? [
            s.passAtK[String(k)] === undefined ? "—" : fixed(s.passAtK[String(k)]!),
            s.passPowK[String(k)] === undefined ? "—" : fixed(s.passPowK[String(k)]!),
          ]
        : []),
      fixed(s.meanSteps, 1),
      tokens(avg((t) => t.inputTokens)),
      tokens(avg((t) => t.outputTokens)),
      tokens(avg((t) => t.cacheReadTokens)),
      dollars(s.meanCostUsd),
      seconds(s.meanDurationMs),
      String(s.toolFailures),
      String(s.editFailures),
    ]);
  }
  const n = Math.max(1, results.scenarios.length);
  const meanOf = (f: (s: EvalResults["scenarios"][number]) => number) =>
    results.scenarios.reduce((a, s) => a + f(s), 0) / n;
  const t = results.totals;
  rows.push([
    "**all**",
    `${t.passed}/${t.trials}`,
    fixed(meanOf((s) => s.passAtK["1"] ?? 0)),
    ...(many
      ? [fixed(meanOf((s) => s.passAtK[String(k)] ?? 0)), fixed(meanOf((s) => s.passPowK[String(k)] ?? 0))]
      : []),
    fixed(
      meanOf((s) => s.meanSteps),
      1,
    ),
    tokens(t.inputTokens / Math.max(1, t.trials)),
    tokens(t.outputTokens / Math.max(1, t.trials)),
    tokens(t.cacheReadTokens / Math.max(1, t.trials)),
    dollars(meanOf((s) => s.meanCostUsd)),
    seconds(t.durationMs / Math.max(1, t.trials)),
    String(results.scenarios.reduce((a, s) => a + s.toolFailures, 0)),
    String(results.scenarios.reduce((a, s) => a + s.editFailures, 0)),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${"-".repeat(w + 1)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  const perTrial = "Tokens, cost and time are per trial (means); steps are model calls.";
  const shard = results.shard
    ? `, shard ${results.shard.index}/${results.shard.count} (${results.shard.planned} of ${results.shard.suite.length * k} trials; merge the shards for the suite's figures)`
    : "";
  return [
    `${results.provider ? `${results.provider}/${results.model}` : results.model || "no model"}, ${k} trial${k === 1 ? "" : "s"} per scenario, ${results.mode}${results.mode === "replay" ? " (recorded sessions, no model)" : ""}${shard}`,
    "",
    line(head),
    rule,
    ...rows.map(line),
    "",
    perTrial,
    describePrecision(results.editPrecision),
  ].join("\n");
}

/** One line per trial that did not pass: why. */
export function failureLines(results: EvalResults): string[] {
  return results.results
    .filter((r) => !r.passed)
    .map((r) => {
      const why = r.divergence
        ? `the replay left its recording: ${(r.divergence.split("\n")[1] ?? r.divergence).trim()}`
        : r.error && r.reason !== "completed"
          ? `${r.reason}: ${r.error}`
          : `check failed (exit ${r.check.exitCode ?? "none"})${lastLine(r.check.output)}`;
      return `✗ ${r.name} #${r.trial}: ${why}${r.folder ? ` (files: ${r.folder})` : ""}`;
    });
}

function lastLine(text: string): string {
  const line = text.trim().split("\n").at(-1)?.trim();
  return line ? `: ${line.length > 160 ? `${line.slice(0, 159)}…` : line}` : "";
}

/** The table, the failures, each replay's divergence and the comparison with a baseline. */
export function printResults(
  out: NodeJS.WritableStream,
  results: EvalResults,
  where: { output: string; comparison?: Comparison; baseline?: string },
): void {
  out.write(`\n${resultsTable(results)}\n`);
  const failures = failureLines(results);
  if (failures.length) out.write(`\n${failures.join("\n")}\n`);
  for (const r of results.results) if (r.divergence) out.write(`\n${r.name} #${r.trial}:\n${r.divergence}\n`);
  const { comparison } = where;
  if (comparison) {
    const lines = [
      ...comparison.regressions.map((l) => `regressed: ${l}`),
      ...comparison.improvements.map((l) => `improved: ${l}`),
      ...comparison.notes,
    ];
    out.write(
      `\nAgainst ${where.baseline}: ${comparison.regressions.length} regression${comparison.regressions.length === 1 ? "" : "s"}.${lines.length ? `\n${lines.join("\n")}` : ""}\n`,
    );
  }
  out.write(`\nResults: ${where.output}\n`);
}

/** `file` relative to `cwd` when it is inside it. */
export function shortPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}
