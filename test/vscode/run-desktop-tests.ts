// `npm run test:desktop` (after `npm run build`): the same in-host mocha suite in desktop
// VS Code, downloaded by @vscode/test-electron. Needs internet (the download), so it is for
// developer machines and CI with network access; here use `npm run test:vscode`.
// FATHOM_VSCODE_VERSION picks the VS Code build (default "stable"); FATHOM_TEST_GREP filters.
import * as fs from "node:fs";
import * as path from "node:path";
import { runTests } from "@vscode/test-electron";
import { buildSuite } from "./harness/buildSuite.js";
import { readLines } from "./harness/inHost.js";
import { copySampleWorkspace, makeTempDir, repoRoot } from "./harness/paths.js";
import type { TestEvent } from "./suite/index.js";

async function main(): Promise<number> {
  const extensionTestsPath = await buildSuite();
  const root = makeTempDir("desktop");
  const resultFile = path.join(root, "results.jsonl");
  try {
    const workspace = copySampleWorkspace(path.join(root, "workspace"));
    // As in code-server's tests: Fathom's Get Started walkthrough does not open by itself mid-suite.
    const userData = path.join(root, "user-data");
    fs.mkdirSync(path.join(userData, "User"), { recursive: true });
    fs.writeFileSync(
      path.join(userData, "User", "settings.json"),
      JSON.stringify({ "workbench.welcomePage.walkthroughs.openOnInstall": false }, null, 2),
    );
    let exitCode: number;
    try {
      exitCode = await runTests({
        version: process.env.FATHOM_VSCODE_VERSION ?? "stable",
        extensionDevelopmentPath: repoRoot,
        extensionTestsPath,
        extensionTestsEnv: { FATHOM_TEST_RESULT: resultFile, FATHOM_TEST_GREP: process.env.FATHOM_TEST_GREP ?? "" },
        launchArgs: [
          workspace,
          "--disable-extensions", // other installed extensions; Fathom (in development) still loads
          "--disable-workspace-trust",
          "--skip-welcome",
          "--skip-release-notes",
          `--user-data-dir=${userData}`,
        ],
      });
    } catch (err) {
      console.error(`[desktop] VS Code did not run the suite: ${err instanceof Error ? err.message : String(err)}`);
      exitCode = 1;
    }
    const tests = readLines(resultFile).filter((l) => l.event === "test") as unknown as TestEvent[];
    for (const t of tests) console.log(`  ${t.state === "passed" ? "✔" : t.state === "failed" ? "✘" : "-"} ${t.title}`);
    const passed = tests.filter((t) => t.state === "passed").length;
    const failed =
      tests.filter((t) => t.state === "failed").length +
      (exitCode !== 0 && tests.every((t) => t.state !== "failed") ? 1 : 0);
    console.log(`${passed} passed, ${failed} failed`);
    return failed > 0 || passed === 0 ? 1 : 0;
  } finally {
    if (process.env.FATHOM_KEEP_TMP !== "1") fs.rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
