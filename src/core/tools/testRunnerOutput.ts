/**
 * The counts and failing tests other runners print, read from their usual (non-verbose) output:
 * Node's test runner (TAP and spec reporters), jest, vitest, `go test` and `cargo test`. Each
 * reader answers only for output it knows; what none knows keeps testReport's last lines.
 */

export interface TestCounts {
  passed: number;
  failed: number;
  errors: number;
}

/** One failing test: its name, where it failed (`file:line`), and the assertion's message. */
export interface TestFailure {
  name: string;
  location?: string;
  message?: string;
}

export interface RunnerSummary {
  runner: string;
  counts?: TestCounts;
  failures: TestFailure[];
}

const MESSAGE_LINES = 4;
/** `file.ts:12:5` in a stack line or a marker (not Node's own `node:` files, not node_modules). */
const JS_PLACE = /(?:file:\/\/)?((?:[\w.@~-]*\/)*[\w.@-]+\.[cm]?[jt]sx?):(\d+):\d+/;

export function runnerSummary(lines: readonly string[]): RunnerSummary | undefined {
  for (const read of [cargo, goTest, jest, vitest, nodeTap, nodeSpec]) {
    const summary = read(lines);
    if (summary) return summary;
  }
  return undefined;
}

const num = (text: string, word: RegExp): number => Number(word.exec(text)?.[1] ?? 0);
const message = (lines: readonly string[]): string | undefined =>
  lines
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, MESSAGE_LINES)
    .join("\n") || undefined;
/** `{ message }` from a failure's lines, or nothing. */
const said = (lines: readonly string[]): { message?: string } => {
  const text = message(lines);
  return text ? { message: text } : {};
};
const jsPlace = (lines: readonly string[]): string | undefined => {
  for (const line of lines) {
    if (/node_modules|node:internal|\(node:/.test(line)) continue;
    const m = JS_PLACE.exec(line);
    if (m) return `${m[1]!.replace(/^\/+(?=[^/]*\/)/, "/")}:${m[2]}`;
  }
  return undefined;
};

function cargo(lines: readonly string[]): RunnerSummary | undefined {
  const results = lines.filter((l) => /^test result: \w+\. \d+ passed; \d+ failed/.test(l));
  if (results.length === 0) return undefined;
  const counts = {
    passed: results.reduce((n, l) => n + num(l, /(\d+) passed/), 0),
    failed: results.reduce((n, l) => n + num(l, /(\d+) failed/), 0),
    errors: 0,
  };
  const failures: TestFailure[] = [];
  for (const [i, line] of lines.entries()) {
    const section = /^---- (\S+) stdout ----$/.exec(line);
    if (!section) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !/^(---- |failures:$|test result:)/.test(lines[j]!); j++) {
      if (/^note: run with/.test(lines[j]!)) break;
      body.push(lines[j]!);
    }
    const at = body.findIndex((l) => /panicked at/.test(l));
    const panic = at >= 0 ? /panicked at (?:'(.*)', )?([^\s']+:\d+):\d+:?$/.exec(body[at]!) : null;
    const rest = at >= 0 ? body.slice(at + 1) : body;
    failures.push({
      name: section[1]!,
      ...(panic ? { location: panic[2]! } : {}),
      ...said(panic?.[1] ? [panic[1], ...rest] : rest),
    });
  }
  return { runner: "cargo test", counts, failures };
}

function goTest(lines: readonly string[]): RunnerSummary | undefined {
  const fail = lines.filter((l) => /^\s*--- FAIL: /.test(l)).length;
  const pass = lines.filter((l) => /^\s*--- PASS: /.test(l)).length;
  if (fail === 0 && !lines.some((l) => /^(ok|FAIL|---)\s+\S+\s+[\d.]+s$|^ok\s+\S+\s+\(cached\)/.test(l)))
    return undefined;
  const failures: TestFailure[] = [];
  for (const [i, line] of lines.entries()) {
    const head = /^(\s*)--- FAIL: (\S+)/.exec(line);
    if (!head) continue;
    const indent = head[1]!.length;
    let location: string | undefined;
    const text: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      const depth = /^\s*/.exec(l)![0].length;
      if (depth <= indent || /^\s*--- (FAIL|PASS|SKIP): /.test(l)) break;
      const m = /^\s+([\w./-]+\.go):(\d+): ?(.*)$/.exec(l);
      if (m) {
        location ??= `${m[1]}:${m[2]}`;
        text.push(m[3]!);
      } else text.push(l);
    }
    failures.push({ name: head[2]!, ...(location ? { location } : {}), ...said(text) });
  }
  // A test that failed only through its subtests says nothing of its own.
  const own = failures.filter((f) => f.message || !failures.some((g) => g.name.startsWith(`${f.name}/`)));
  // Without -v, passing tests are not listed: counts only when they are.
  return {
    runner: "go test",
    ...(pass > 0 ? { counts: { passed: pass, failed: fail, errors: 0 } } : {}),
    failures: own,
  };
}

function jest(lines: readonly string[]): RunnerSummary | undefined {
  const summary = lines.findLast((l) => /^Tests:\s+.*\d+ total/.test(l));
  if (!summary) return undefined;
  const counts = { passed: num(summary, /(\d+) passed/), failed: num(summary, /(\d+) failed/), errors: 0 };
  const failures: TestFailure[] = [];
  for (const [i, line] of lines.entries()) {
    const head = /^\s*● (.+)$/.exec(line);
    if (!head || /^Console$/.test(head[1]!)) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !/^\s*● |^Test Suites:/.test(lines[j]!); j++) body.push(lines[j]!);
    const code = body.findIndex((l) => /^\s*>?\s*\d+ \|/.test(l) || /^\s+at /.test(l));
    const place = jsPlace(body.filter((l) => /^\s+at /.test(l)));
    failures.push({
      name: head[1]!.trim(),
      ...(place ? { location: place } : {}),
      ...said(code >= 0 ? body.slice(0, code) : body),
    });
  }
  return { runner: "jest", counts, failures };
}

function vitest(lines: readonly string[]): RunnerSummary | undefined {
  const summary = lines.findLast((l) => /^\s*Tests\s+.*\(\d+\)/.test(l));
  if (!summary) return undefined;
  const counts = { passed: num(summary, /(\d+) passed/), failed: num(summary, /(\d+) failed/), errors: 0 };
  const failures: TestFailure[] = [];
  for (const [i, line] of lines.entries()) {
    const head = /^\s*FAIL\s+(.+ > .+?)\s*$/.exec(line);
    if (!head) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !/^\s*FAIL\s|^⎯{3,}|^\s*Test Files\s/.test(lines[j]!); j++)
      body.push(lines[j]!);
    const marker = body.find((l) => /^\s*❯ /.test(l));
    const end = body.findIndex((l, k) => k > 0 && (!l.trim() || /^\s*❯ /.test(l)));
    const place = marker ? jsPlace([marker]) : undefined;
    failures.push({
      name: head[1]!,
      ...(place ? { location: place } : {}),
      ...said(end >= 0 ? body.slice(0, end) : body),
    });
  }
  return { runner: "vitest", counts, failures };
}

function nodeTap(lines: readonly string[]): RunnerSummary | undefined {
  const pass = lines.findLast((l) => /^# pass \d+$/.test(l));
  const fail = lines.findLast((l) => /^# fail \d+$/.test(l));
  if (!pass || !fail) return undefined;
  const counts = { passed: num(pass, /(\d+)/), failed: num(fail, /(\d+)/), errors: 0 };
  const failures: TestFailure[] = [];
  for (const [i, line] of lines.entries()) {
    const head = /^(\s*)not ok \d+ - (.+)$/.exec(line);
    if (!head) continue;
    const indent = head[1]!.length;
    const block: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.trim() === "..." && /^\s*/.exec(l)![0].length === indent + 2) break;
      block.push(l);
    }
    if (block.some((l) => /failureType: 'subtestsFailed'/.test(l))) continue;
    const location = block.map((l) => /^\s*location: '(.+):(\d+):\d+'$/.exec(l)).find(Boolean);
    const at = block.findIndex((l) => /^\s*error: /.test(l));
    const text: string[] = [];
    if (at >= 0) {
      const inline = /^\s*error: (?![|>])'?(.*?)'?$/.exec(block[at]!);
      if (inline?.[1]) text.push(inline[1]);
      const depth = /^\s*/.exec(block[at]!)![0].length;
      // A block scalar's lines (blank ones included) are deeper than `error:`.
      for (let k = at + 1; k < block.length && (!block[k]!.trim() || /^\s*/.exec(block[k]!)![0].length > depth); k++)
        text.push(block[k]!);
    }
    failures.push({
      name: head[2]!.replace(/\s+# .*$/, ""),
      ...(location ? { location: `${location[1]!.replace(/^file:\/\//, "")}:${location[2]}` } : {}),
      ...said(text),
    });
  }
  return { runner: "node --test", counts, failures };
}

function nodeSpec(lines: readonly string[]): RunnerSummary | undefined {
  const pass = lines.findLast((l) => /^ℹ pass \d+$/.test(l));
  const fail = lines.findLast((l) => /^ℹ fail \d+$/.test(l));
  if (!pass || !fail) return undefined;
  const counts = { passed: num(pass, /(\d+)/), failed: num(fail, /(\d+)/), errors: 0 };
  const failures: TestFailure[] = [];
  const from = lines.findIndex((l) => /^✖ failing tests:/.test(l));
  for (let i = from < 0 ? lines.length : from + 1; i < lines.length; i++) {
    const where = /^test at (.+):(\d+):\d+$/.exec(lines[i]!);
    const head = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(lines[i + 1] ?? "");
    if (!where || !head) continue;
    const body: string[] = [];
    for (let j = i + 2; j < lines.length && !/^\s+at |^test at /.test(lines[j]!); j++) body.push(lines[j]!);
    failures.push({ name: head[1]!, location: `${where[1]}:${where[2]}`, ...said(body) });
  }
  return { runner: "node --test", counts, failures };
}
