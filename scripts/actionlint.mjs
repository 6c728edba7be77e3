// Lints the action, its example workflows and the repository's own (.github/workflows, the
// action's release) with actionlint (installed into the cache by scripts/install-actionlint.sh).
// The examples say `uses: fathom-dev/fathom@v1`; here they run against this checkout's
// action.yml (`uses: ./`), so actionlint also checks action.yml itself and that every input and
// output the examples use is one it declares. shellcheck and pyflakes are off so every machine
// gives the same answer.
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const binary =
  process.env.FATHOM_ACTIONLINT ||
  execFileSync("bash", [path.join(root, "scripts/install-actionlint.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
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
  // The repository's own workflows (the action's release), as they are.
  const ownDir = path.join(root, ".github/workflows");
  const own = existsSync(ownDir) ? readdirSync(ownDir).filter((f) => /\.ya?ml$/.test(f)) : [];
  for (const file of own) {
    if (examples.includes(file))
      throw new Error(`.github/workflows/${file} has the name of an example; rename one of them.`);
    copyFileSync(path.join(ownDir, file), path.join(workflows, file));
  }
  execFileSync("git", ["init", "-q"], { cwd: scratch });
  const result = spawnSync(binary, ["-no-color", "-shellcheck=", "-pyflakes="], { cwd: scratch, encoding: "utf8" });
  const report = `${result.stdout}${result.stderr}`
    .split(scratch + path.sep)
    .join("")
    .replace(/\.github\/workflows\/([^:\s]+)/g, (whole, file) =>
      own.includes(file) ? whole : `examples/github/${file}`,
    );
  if (result.status !== 0) {
    process.stdout.write(report);
    console.log(
      `actionlint found problems in action.yml, examples/github/ (${examples.length} workflows) or .github/workflows/ (${own.length}).`,
    );
    process.exit(1);
  }
  console.log(
    `actionlint: action.yml, ${examples.length} workflows in examples/github/ and ${own.length} in .github/workflows/ are clean.`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
