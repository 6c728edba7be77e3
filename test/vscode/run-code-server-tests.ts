// `npm run test:vscode`: Fathom in a real VS Code (code-server) on this machine.
//   1. installs code-server into the cache on first use, packages Fathom (`npm run package`,
//      skipped with FATHOM_SKIP_PACKAGE=1; FATHOM_VSIX=<file> tests that vsix instead),
//   2. runs the in-host mocha suite (test/vscode/suite) inside code-server's extension host,
//   3. runs the end-to-end tests (test/vscode/e2e/*.e2e.ts), each in a fresh code-server driven
//      by headless Chromium.
// Prints each test, then "N passed, N failed"; exits non-zero on any failure.
// Options: --in-host-only, --e2e-only, --grep <regexp> (test names).
import * as fs from "node:fs";
import * as path from "node:path";
import { buildLmProviderVsix, buildRunnerVsix } from "./harness/buildSuite.js";
import { runCleanups, withTimeout } from "./harness/cleanup.js";
import { runE2ETest, type E2ETest, type TestResult } from "./harness/e2e.js";
import { runInHostSuite } from "./harness/inHost.js";
import { ensureCodeServer, packageFathom, repoRoot } from "./harness/paths.js";
import { vsixOverBudget } from "../support/bundleBudget.js";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const grepArg = args.indexOf("--grep") >= 0 ? args[args.indexOf("--grep") + 1] : undefined;
const grep = grepArg ? new RegExp(grepArg) : undefined;

const results: TestResult[] = [];

function print(r: TestResult): void {
  const mark = r.skipped ? "-" : r.ok ? "✔" : "✘";
  console.log(`  ${mark} ${r.name} (${(r.ms / 1000).toFixed(1)} s)${r.skipped ? " [skipped]" : ""}`);
  if (!r.ok && r.error) console.log(r.error.replace(/^/gm, "      "));
}

function record(r: TestResult): void {
  results.push(r);
  print(r);
}

async function loadE2ETests(): Promise<E2ETest[]> {
  const dir = path.join(repoRoot, "test", "vscode", "e2e");
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".e2e.ts"))
    .sort();
  const tests: E2ETest[] = [];
  for (const file of files) {
    const mod = (await import(path.join(dir, file))) as { tests?: E2ETest[] };
    if (!Array.isArray(mod.tests)) throw new Error(`${file} exports no \`tests\` array`);
    tests.push(...mod.tests);
  }
  return tests.filter((t) => !grep || grep.test(t.name));
}

async function main(): Promise<void> {
  const started = Date.now();
  let step = "install code-server";
  try {
    console.log("[harness] preparing code-server and Fathom");
    const install = await withTimeout("installing code-server", 15 * 60_000, ensureCodeServer());
    step = "package Fathom";
    const fathomVsix = await withTimeout("packaging Fathom", 10 * 60_000, packageFathom());
    console.log(
      `[harness] Fathom: ${path.relative(repoRoot, fathomVsix) || fathomVsix} (ready after ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    // The vsix just packaged stays within its budget (a given FATHOM_VSIX is someone else's build).
    if (!process.env.FATHOM_VSIX && !grep) {
      const over = vsixOverBudget(fathomVsix, fs.statSync(fathomVsix).size);
      record({
        name: `[budget] the vsix (${(fs.statSync(fathomVsix).size / 1024).toFixed(0)} KB) is within bench/budgets.json`,
        ok: over === undefined,
        ms: 0,
        ...(over ? { error: over } : {}),
      });
    }

    if (!flag("--e2e-only")) {
      step = "build the in-host suite and its runner extension";
      const runnerVsix = await buildRunnerVsix();
      const lmProvider = await buildLmProviderVsix();
      step = "in-host suite";
      console.log("\nin-host suite (mocha inside code-server's extension host)");
      await runInHostSuite({
        install,
        fathomVsix,
        runnerVsix,
        extraVsix: [lmProvider],
        grep: grepArg,
        onResult: record,
      });
    }
    if (!flag("--in-host-only")) {
      step = "load the end-to-end tests";
      const tests = await loadE2ETests();
      step = "end-to-end tests";
      console.log("\nend-to-end (code-server + headless Chromium)");
      for (const test of tests) record(await runE2ETest(test, install, [fathomVsix]));
    }
  } catch (err) {
    record({
      name: `[setup] ${step}`,
      ok: false,
      ms: 0,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  } finally {
    await runCleanups();
  }
  const passed = results.filter((r) => r.ok && !r.skipped).length;
  const failed = results.filter((r) => !r.ok).length;
  const skipped = results.filter((r) => r.skipped).length;
  if (results.length === 0) console.log("\nno tests ran");
  console.log(`\ntook ${((Date.now() - started) / 1000).toFixed(1)} s${skipped ? `, ${skipped} skipped` : ""}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
}

void main();
