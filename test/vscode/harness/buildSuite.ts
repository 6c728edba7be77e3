// Bundles the in-host mocha suite (test/vscode/suite) into one CommonJS file, and packs the
// test-runner extension that runs it inside code-server.
import * as fs from "node:fs";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { buildDir, repoRoot } from "./paths.js";

const suiteDir = path.join(repoRoot, "test", "vscode", "suite");
const runnerSrcDir = path.join(repoRoot, "test", "vscode", "runner-extension");
const lmProviderSrcDir = path.join(repoRoot, "test", "vscode", "lm-provider-extension");
const memoryProbeSrcDir = path.join(repoRoot, "test", "vscode", "memory-probe-extension");

export const suiteBundle = path.join(buildDir, "suite", "suite.js");
export const runnerVsix = path.join(buildDir, "fathom-test-runner.vsix");
export const lmProviderVsix = path.join(buildDir, "fathom-test-lm-provider.vsix");
export const memoryProbeVsix = path.join(buildDir, "fathom-test-memory-probe.vsix");

const common: esbuild.BuildOptions = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "inline",
  // mocha is bundled in: mocha 12 is an ES module package, and the bundle must run from
  // folders (an installed extension) where node_modules cannot be resolved.
  external: ["vscode"],
  // As in scripts/build.mjs: ES modules bundled into CommonJS (the sandbox runtime) read import.meta.url.
  // The repository, for tests that start programs from its node_modules (real MCP servers).
  define: { "import.meta.url": "__importMetaUrl", "process.env.FATHOM_REPO_ROOT": JSON.stringify(repoRoot) },
  banner: { js: 'const __importMetaUrl = require("url").pathToFileURL(__filename).href;' },
  logLevel: "warning",
  // mocha's parallel mode (never used here) resolves worker files at run time.
  logOverride: { "require-resolve-not-external": "silent" },
};

/** The suite's test files (`suite/*.test.ts`), sorted. */
export function suiteFiles(): string[] {
  return fs
    .readdirSync(suiteDir)
    .filter((f) => f.endsWith(".test.ts"))
    .sort()
    .map((f) => path.join(suiteDir, f));
}

/**
 * Builds test-output/build/suite/suite.js. It exports `run()` (the @vscode/test-electron
 * contract: resolves when every test passes) and `runWithReport(options)`.
 */
export async function buildSuite(): Promise<string> {
  const files = suiteFiles();
  if (files.length === 0) throw new Error(`no *.test.ts in ${suiteDir}`);
  const entry = `
import { runSuite, runFromEnv } from './index';
function loadTests() {
${files.map((f) => `  require(${JSON.stringify(f)});`).join("\n")}
}
export function runWithReport(options) {
  return runSuite(loadTests, options);
}
export function run() {
  return runFromEnv(loadTests);
}
`;
  await esbuild.build({
    ...common,
    stdin: { contents: entry, resolveDir: suiteDir, sourcefile: "suite-entry.js", loader: "js" },
    outfile: suiteBundle,
  });
  return suiteBundle;
}

/** Packs test-output/build/fathom-test-runner.vsix (the runner extension plus the suite). */
export async function buildRunnerVsix(): Promise<string> {
  const bundle = await buildSuite();
  return packTestExtension(runnerSrcDir, "runner-extension", runnerVsix, (stage) =>
    fs.copyFileSync(bundle, path.join(stage, "dist", "suite.js")),
  );
}

/** Packs test-output/build/fathom-test-lm-provider.vsix: language models that answer from a script (vscodeLm.test.ts). */
export function buildLmProviderVsix(): Promise<string> {
  return packTestExtension(lmProviderSrcDir, "lm-provider-extension", lmProviderVsix);
}

/** Packs test-output/build/fathom-test-memory-probe.vsix: a full GC and the host's memory, for the bench. */
export function buildMemoryProbeVsix(): Promise<string> {
  return packTestExtension(memoryProbeSrcDir, "memory-probe-extension", memoryProbeVsix);
}

async function packTestExtension(
  srcDir: string,
  name: string,
  vsix: string,
  addFiles?: (stage: string) => void,
): Promise<string> {
  const stage = path.join(buildDir, name);
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(path.join(stage, "dist"), { recursive: true });
  await esbuild.build({
    ...common,
    entryPoints: [path.join(srcDir, "src", "extension.ts")],
    outfile: path.join(stage, "dist", "extension.js"),
  });
  addFiles?.(stage);
  fs.copyFileSync(path.join(srcDir, "package.json"), path.join(stage, "package.json"));
  fs.writeFileSync(
    path.join(stage, "README.md"),
    `# ${name}\n\nTest-only; built by test/vscode/harness/buildSuite.ts.\n`,
  );
  fs.writeFileSync(path.join(stage, "LICENSE"), "MIT\n");
  const { createVSIX } = await import("@vscode/vsce");
  fs.rmSync(vsix, { force: true });
  const log = console.log;
  console.log = () => undefined; // vsce prints a file tree; keep the harness output readable
  try {
    await createVSIX({
      cwd: stage,
      packagePath: vsix,
      dependencies: false,
      allowMissingRepository: true,
      skipLicense: true,
    });
  } finally {
    console.log = log;
  }
  return vsix;
}
