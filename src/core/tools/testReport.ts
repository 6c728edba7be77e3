/**
 * A test run's output made short for a model: the counts, then for each failure its test, where
 * it failed, the failing line and the assertion's message — a few hundred characters instead of
 * pytest's whole report. A small model fixes code from "expected 'GIMP', got 'G'" next to the
 * call that failed; it loses that line in three screens of tracebacks. Output this does not know
 * (a crash before the report) keeps its last lines. Node's test runner, jest, vitest, go test and
 * cargo test are read by testRunnerOutput.ts.
 */

import { runnerSummary, type TestCounts, type TestFailure } from "./testRunnerOutput";

export type { TestCounts, TestFailure } from "./testRunnerOutput";

export interface TestReport {
  /** Whether the run passed (exit code 0). */
  passed: boolean;
  /** Counts from the runner's summary line, when it printed one. */
  counts?: TestCounts;
  /** The failing tests read from the output (none when it was not understood). */
  failures?: TestFailure[];
  /** The short text for the model. */
  text: string;
}

const MAX_FAILURES = 6;
const MAX_CHARS = 3_000;
const TAIL_LINES = 30;
/** `____ LeapTest.test_x ____` or `____ ERROR collecting leap_test.py ____`: one failure's section in pytest's report. */
const SECTION = /^_{3,} (.+?) _{3,}$/;
/** `leap_test.py:14: AssertionError`: where a pytest failure happened. */
const LOCATION = /^([\w./\\-]+\.py):(\d+): \w/;

export function testReport(command: string, output: string, exitCode: number | undefined): TestReport {
  const passed = exitCode === 0;
  const lines = output.replace(/\r\n?/g, "\n").split("\n");
  const other = runnerSummary(lines);
  const counts = other ? other.counts : summaryCounts(lines);
  const sections = other ? [] : pytestFailures(lines);
  const failures = other ? other.failures : sections.map((s) => s.failure);
  const head = `\`${command}\`: ${counts ? countWords(counts) : passed ? "passed" : "failed"} (exit code ${exitCode ?? "unknown"}).`;
  const facts = { passed, ...(counts ? { counts } : {}), ...(failures.length ? { failures } : {}) };
  if (passed) return { ...facts, text: head };
  if (failures.length === 0) {
    const tail = lines.filter((l) => l.trim()).slice(-TAIL_LINES);
    return { ...facts, text: capped([head, "Its last lines:", ...tail].join("\n")) };
  }
  const shown = other
    ? failures.slice(0, MAX_FAILURES).map(failureText)
    : sections.slice(0, MAX_FAILURES).map((f) => f.lines.join("\n"));
  const more = failures.length - shown.length;
  const text = [head, ...shown, ...(more > 0 ? [`(${more} more failures not shown)`] : [])].join("\n");
  return { ...facts, text: capped(text) };
}

/** A failure as the model reads it: `- name (file:line)` and the message's lines, indented. */
function failureText(f: TestFailure): string {
  const lines = [`- ${f.name}${f.location ? ` (${f.location})` : ""}`];
  for (const line of f.message?.split("\n") ?? []) lines.push(`    ${line}`);
  return lines.join("\n");
}

/** Counts from a pytest-style summary line ("2 failed, 24 passed in 0.03s"). */
function summaryCounts(lines: readonly string[]): TestCounts | undefined {
  const line = lines.findLast((l) => /\b\d+ (passed|failed|errors?)\b.* in [\d.]+s\b/.test(l));
  if (!line) return undefined;
  const count = (word: RegExp) => Number(word.exec(line)?.[1] ?? 0);
  return { passed: count(/(\d+) passed/), failed: count(/(\d+) failed/), errors: count(/(\d+) errors?\b/) };
}

function countWords(c: TestCounts): string {
  const parts = [
    c.failed ? `${c.failed} failed` : "",
    c.errors ? `${c.errors} error${c.errors === 1 ? "" : "s"}` : "",
    `${c.passed} passed`,
  ];
  return parts.filter(Boolean).join(", ");
}

/** Each failure (or collection error) of pytest's report as a few lines, and as facts. */
function pytestFailures(lines: readonly string[]): { lines: string[]; failure: TestFailure }[] {
  const failures: { lines: string[]; failure: TestFailure }[] = [];
  let name: string | undefined;
  let body: string[] = [];
  const flush = () => {
    if (name !== undefined) failures.push(describe(name, body));
    name = undefined;
    body = [];
  };
  for (const line of lines) {
    const section = SECTION.exec(line);
    if (section) {
      flush();
      name = section[1]!;
    } else if (/^=+ .* =+$/.test(line) || /^=+$/.test(line)) flush();
    else if (name !== undefined) body.push(line);
  }
  flush();
  return failures;
}

function describe(name: string, body: readonly string[]): { lines: string[]; failure: TestFailure } {
  const location = body.map((l) => LOCATION.exec(l)).findLast((m) => m !== null);
  // The failing statement: pytest marks its first line with ">"; an assertion written over
  // several lines continues until the "E" lines.
  const at = body.findLastIndex((l) => l.startsWith(">"));
  const statement: string[] = [];
  for (let i = at; at >= 0 && i < body.length && statement.length < 6; i++) {
    const line = i === at ? body[i]!.slice(1) : body[i]!;
    if (i > at && (/^E\s/.test(line) || !line.trim())) break;
    statement.push(line.trim());
  }
  let errors = body.filter((l) => /^E\s/.test(l)).map((l) => l.slice(1).trim());
  // unittest's "- got / + expected / ? marks" repeats what its "'a' != 'b'" line says.
  if (errors.some((e) => / != /.test(e))) errors = errors.filter((e) => !/^[-+?] /.test(e));
  const where = location ? ` (${location[1]}:${location[2]})` : "";
  const out = [`- ${name}${where}`];
  if (statement.length) out.push(`    ${statement.join(" ").replace(/\( /g, "(").replace(/ \)/g, ")")}`);
  for (const e of errors.slice(0, 4)) out.push(`    ${e}`);
  if (errors.length > 4) out.push(`    (${errors.length - 4} more lines)`);
  const failure: TestFailure = {
    name,
    ...(location ? { location: `${location[1]}:${location[2]}` } : {}),
    ...(errors.length ? { message: errors.slice(0, 4).join("\n") } : {}),
  };
  return { lines: out, failure };
}

function capped(text: string): string {
  return text.length <= MAX_CHARS ? text : `${text.slice(0, MAX_CHARS)}\n(cut here: the report is longer)`;
}
