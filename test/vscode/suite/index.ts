// Runs the in-host mocha suite inside an extension host (desktop VS Code via
// @vscode/test-electron, or code-server via the test-runner extension). The build
// (harness/buildSuite.ts) bundles this file, mocha and every `*.test.ts` of this folder into
// one CommonJS file whose `run()` follows @vscode/test-electron's extensionTestsPath contract.
import { appendFileSync } from "node:fs";
import Mocha from "mocha";

export type TestState = "passed" | "failed" | "pending";

export interface TestEvent {
  event: "test";
  title: string;
  state: TestState;
  durationMs?: number;
  error?: string;
}

export interface SuiteReport {
  event: "end";
  passed: number;
  failed: number;
  pending: number;
  tests: TestEvent[];
}

export interface SuiteOptions {
  /** Only tests whose full title matches this regular expression. */
  grep?: string;
  /** Per-test timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Called as each test ends (the code-server runner streams these to the harness). */
  onTest?: (event: TestEvent) => void;
}

/**
 * Creates mocha (TDD interface: `suite`/`test`/`suiteSetup`...), installs its globals, calls
 * `loadTests` (which requires the bundled test files), runs, and reports every test.
 */
export function runSuite(loadTests: () => void, options: SuiteOptions = {}): Promise<SuiteReport> {
  const mocha = new Mocha({ ui: "tdd", color: false, timeout: options.timeoutMs ?? 30_000, reporter: "spec" });
  if (options.grep) mocha.grep(new RegExp(options.grep));
  mocha.suite.emit("pre-require", globalThis, "fathom-in-host-suite", mocha);
  loadTests();

  const tests: TestEvent[] = [];
  const record = (event: TestEvent) => {
    tests.push(event);
    options.onTest?.(event);
  };
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run(() => {
        const count = (state: TestState) => tests.filter((t) => t.state === state).length;
        resolve({ event: "end", passed: count("passed"), failed: count("failed"), pending: count("pending"), tests });
      });
      runner.on("pass", (t) =>
        record({ event: "test", title: t.fullTitle(), state: "passed", durationMs: t.duration }),
      );
      runner.on("pending", (t) => record({ event: "test", title: t.fullTitle(), state: "pending" }));
      runner.on("fail", (t, err: Error) =>
        record({
          event: "test",
          title: t.fullTitle(),
          state: "failed",
          durationMs: t.duration,
          error: err?.stack ?? String(err),
        }),
      );
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/**
 * The @vscode/test-electron entry: resolves when every test passed, rejects otherwise. With
 * FATHOM_TEST_RESULT set it also appends the same JSON lines as the code-server runner, so
 * run-desktop-tests.ts can print one summary; FATHOM_TEST_GREP filters tests.
 */
export async function runFromEnv(loadTests: () => void): Promise<void> {
  const file = process.env.FATHOM_TEST_RESULT;
  const write = (line: object) => {
    if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  const report = await runSuite(loadTests, { grep: process.env.FATHOM_TEST_GREP || undefined, onTest: write });
  write({ ...report, tests: undefined });
  if (report.failed > 0) throw new Error(`${report.failed} in-host test(s) failed`);
}
