// `npm test`: type check, lint, unit tests, then the suites in a real VS Code (code-server).
// Ends with one line CI reads: "N passed, N failed".
// `--unit` runs the unit tests alone; FATHOM_SKIP_VSCODE=1 skips the real-VS Code stage and
// FATHOM_SKIP_REAL_MODEL=1 the real-model stage (quick local runs only; CI runs it all).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
let passed = 0;
let failed = 0;
const failures = [];

function run(command, args, { capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", capture ? "pipe" : "inherit", "inherit"] });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

function findTests(dir) {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.join(dir, file))
    .sort();
}

async function stage(name, command, args) {
  console.log(`\n=== ${name} ===`);
  const { code } = await run(command, args);
  if (code === 0) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

const npx = (bin) => path.join(root, "node_modules", ".bin", bin);

const unitOnly = process.argv.includes("--unit");
if (!unitOnly && process.platform === "linux") {
  // Chromium, build tools, ripgrep, the sandbox: installed when root, else one `sudo apt-get` line.
  const setup = await run("bash", [path.join(root, "scripts/debian-packages.sh"), "ensure", "--tests"]);
  if (setup.code !== 0) process.exit(1);
}
if (!unitOnly) {
  await stage("type check", npx("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
  await stage("type check (webview)", npx("tsc"), ["-p", "webview-ui/tsconfig.json", "--noEmit"]);
  await stage("lint", npx("eslint"), ["."]);
  await stage("format (prettier --check)", npx("prettier"), ["--check", "--log-level", "warn", "."]);
  // action.yml and the example workflows (actionlint, installed into the cache on first use).
  await stage("actionlint", process.execPath, ["scripts/actionlint.mjs"]);
  await stage("build", process.execPath, ["scripts/build.mjs"]);
}

/** Runs node:test files, adding their pass/fail counts (read from a TAP copy) to the totals. */
async function nodeTests(name, files, { concurrency = 2 } = {}) {
  console.log(`\n=== ${name} ===`);
  const tapDir = mkdtempSync(path.join(os.tmpdir(), "fathom-tap-"));
  const tapFile = path.join(tapDir, "results.tap");
  const result = await run(process.execPath, [
    "--import",
    "tsx",
    "--test",
    `--test-concurrency=${concurrency}`,
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    "--test-reporter=tap",
    `--test-reporter-destination=${tapFile}`,
    ...files,
  ]);
  const tap = statSync(tapFile, { throwIfNoEntry: false }) ? readFileSync(tapFile, "utf8") : "";
  rmSync(tapDir, { recursive: true, force: true });
  const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  const ok = count("pass");
  const bad = count("fail") + count("cancelled");
  passed += ok;
  failed += bad;
  if (bad > 0) failures.push(`${bad} ${name}`);
  else if (result.code !== 0) {
    failed += 1;
    failures.push(`${name} (runner exited with an error)`);
  }
  if (files.length === 0 || ok === 0) {
    failed += 1;
    failures.push(`${name} (none ran)`);
  }
}

await nodeTests("unit tests", findTests(path.join(root, "test/unit")));
// Webview component tests load the built dist/webview.js in Chromium.
if (!unitOnly) await nodeTests("webview component tests (Chromium)", findTests(path.join(root, "test/webview")));
// Small real models on llama.cpp's llama-server, installed into the cache once by
// test/local-model/install-local-model.sh: SmolLM2-135M-Instruct on everyday tasks and faults,
// Qwen2.5-Coder-0.5B-Instruct on three Exercism exercises (exercises.real.test.ts; the whole set is
// `npm run bench -- tasks`, not part of the tests). One suite at a time: they share the 2 cores.
if (!unitOnly && process.env.FATHOM_SKIP_REAL_MODEL !== "1") {
  const started = Date.now();
  await nodeTests(
    "real models (llama.cpp: SmolLM2-135M, Qwen2.5-Coder-0.5B)",
    findTests(path.join(root, "test/local-model")),
    {
      concurrency: 1,
    },
  );
  console.log(`real-model stage took ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (unitOnly) {
  // `npm run test:unit`
} else if (process.env.FATHOM_SKIP_VSCODE === "1") {
  console.log("\n=== real VS Code suites skipped (FATHOM_SKIP_VSCODE=1) ===");
} else {
  console.log("\n=== real VS Code (code-server): in-host suite and end-to-end ===");
  const vscodeRun = await run(process.execPath, ["--import", "tsx", "test/vscode/run-code-server-tests.ts"], {
    capture: true,
  });
  const summary = [...vscodeRun.output.matchAll(/^(\d+) passed, (\d+) failed/gm)].at(-1);
  if (summary) {
    passed += Number(summary[1]);
    failed += Number(summary[2]);
    if (Number(summary[2]) > 0) failures.push(`${summary[2]} VS Code test(s)`);
  }
  if (!summary || (vscodeRun.code !== 0 && Number(summary[2]) === 0)) {
    failed += 1;
    failures.push("real VS Code harness (exited without a passing summary)");
  }
}

console.log("");
if (failures.length) console.log(`Failed: ${failures.join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
