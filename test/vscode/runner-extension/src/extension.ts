// Test-only extension for code-server: once the workbench has started it runs the bundled
// in-host suite (dist/suite.js, built by harness/buildSuite.ts) in this extension host, the
// same one Fathom runs in, and appends one JSON line per test and a final summary line to the
// file named by the `fathomTestRunner.resultFile` setting (or FATHOM_TEST_RESULT).
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { SuiteOptions, SuiteReport } from "../../suite/index";

interface SuiteBundle {
  runWithReport(options: SuiteOptions): Promise<SuiteReport>;
}

export function activate(): void {
  const config = vscode.workspace.getConfiguration("fathomTestRunner");
  const resultFile = config.get<string>("resultFile") || process.env.FATHOM_TEST_RESULT;
  if (!resultFile) return;
  const grep = config.get<string>("grep") || undefined;
  const write = (line: object) => fs.appendFileSync(resultFile, `${JSON.stringify(line)}\n`);

  void (async () => {
    write({ event: "start", vscodeVersion: vscode.version, node: process.version });
    process.setSourceMapsEnabled(true); // stack traces name test/vscode/suite/*.ts lines
    try {
      // The same bundle @vscode/test-electron runs on desktop, shipped next to this file
      // (inside this extension's folder, so its `vscode` import resolves to this extension).
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file resolved at run time
      const bundle = require(path.join(__dirname, "suite.js")) as SuiteBundle;
      const report = await bundle.runWithReport({ grep, onTest: (event) => write(event) });
      write({ ...report, tests: undefined });
    } catch (err) {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      write({ event: "test", title: "load and run the in-host suite", state: "failed", error });
      write({ event: "end", passed: 0, failed: 1, pending: 0 });
    }
  })();
}

export function deactivate(): void {}
