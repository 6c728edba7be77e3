// Lints the action and its example workflows with actionlint (installed into the cache by
// scripts/install-actionlint.sh). The examples say `uses: fathom-dev/fathom@v1`; here they run
// against this checkout's action.yml (`uses: ./`), so actionlint also checks action.yml itself
// and that every input and output the examples use is one it declares. shellcheck and pyflakes
// are off so every machine gives the same answer.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const binary = process.env.FATHOM_ACTIONLINT || execFileSync("bash", [path.join(root, "scripts/install-actionlint.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
const scratch = mkdtempSync(path.join(os.tmpdir(), "fathom-actionlint-"));
try {
  const workflows = path.join(scratch, ".github/workflows");
  mkdirSync(workflows, { recursive: true });
  copyFileSync(path.join(root, "action.yml"), path.join(scratch, "action.yml"));
  // actionlint checks that runs.main exists; the bundle is built, not linted.
  mkdirSync(path.join(scratch, "dist"));
  writeFileSync(path.join(scratch, "dist/action.js"), "");
  const examples = readdirSync(path.join(root, "examples/github")).filter((f) => /\.ya?ml$/.test(f));
  for (const file of examples) {
    const text = readFileSync(path.join(root, "examples/github", file), "utf8");
    writeFileSync(path.join(workflows, file), text.replace(/uses: fathom-dev\/fathom@v1/g, "uses: ./"));
  }
  execFileSync("git", ["init", "-q"], { cwd: scratch });
  const result = spawnSync(binary, ["-no-color", "-shellcheck=", "-pyflakes="], { cwd: scratch, encoding: "utf8" });
  const report = `${result.stdout}${result.stderr}`.split(scratch + path.sep).join("").replaceAll(".github/workflows/", "examples/github/");
  if (result.status !== 0) {
    process.stdout.write(report);
    console.log(`actionlint found problems in action.yml or examples/github/ (${examples.length} workflows).`);
    process.exit(1);
  }
  console.log(`actionlint: action.yml and ${examples.length} workflows in examples/github/ are clean.`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
