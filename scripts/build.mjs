// One build for every bundle: the extension host (Node, CommonJS, `vscode` external), the chat
// webview (browser), the core's public API (+ .d.ts), the headless CLI and the GitHub Action.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  statSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

// Flags: --watch, --production; --only <bundle> and --outdir <dir> build one bundle elsewhere
// (the webview benchmark measures exactly what ships without touching dist/); --metafile <file>
// writes esbuild's account of inputs and imports (the action's release checks what it loads).
const argv = process.argv.slice(2);
const args = new Set(argv);
const flagValue = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const watch = args.has("--watch");
const production = args.has("--production");
const only = flagValue("--only");
const root = path.resolve(import.meta.dirname, "..");
const dist = path.resolve(flagValue("--outdir") ?? path.join(root, "dist"));
const metafile = flagValue("--metafile");

import { LAZY_LIBRARIES, lazyLibraries, neverLoaded, zodEnglishOnly } from "./esbuildPlugins.mjs";

const common = {
  plugins: [zodEnglishOnly],
  bundle: true,
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "warning",
  legalComments: "none",
};

// The sandbox runtime (an ES module) finds its seccomp helper next to `import.meta.url`; in a
// CommonJS bundle that is the bundle's own file, and the helper is copied beside it (dist/vendor).
const importMetaShim = 'const __importMetaUrl = require("url").pathToFileURL(__filename).href;';
const nodeTarget = {
  ...common,
  platform: "node",
  format: "cjs",
  target: "node20",
  define: { "import.meta.url": "__importMetaUrl" },
  banner: { js: importMetaShim },
};

// A bundle in dist/vendor/ finds the sandbox's seccomp helper where the one in dist/ does.
const vendorMetaShim =
  'const __importMetaUrl = require("url").pathToFileURL(require("path").join(__dirname, "..", "extension.js")).href;';

const builds = [
  {
    ...nodeTarget,
    plugins: [...common.plugins, lazyLibraries],
    entryPoints: { extension: "src/host/extension.ts" },
    external: ["vscode"],
    outdir: dist,
  },
  {
    ...nodeTarget,
    banner: { js: vendorMetaShim },
    plugins: [...common.plugins, neverLoaded],
    entryPoints: Object.fromEntries(LAZY_LIBRARIES.map((name) => [`vendor/${name}`, `src/core/vendor/${name}.ts`])),
    outdir: dist,
  },
  { ...nodeTarget, entryPoints: { core: "src/core/index.ts" }, outdir: dist },
  // The CLI (and `fathom acp`, which an editor keeps running) loads the libraries from dist/vendor
  // on first use too: a process that idles in an editor should not hold every SDK.
  {
    ...nodeTarget,
    plugins: [...common.plugins, lazyLibraries],
    entryPoints: { cli: "src/cli/main.ts" },
    outdir: dist,
    banner: { js: `#!/usr/bin/env node\n${importMetaShim}` },
  },
  // The GitHub Action (action.yml): run by the runner's own Node, so everything is in the one file,
  // always minified (the runner reads all of it before the first model request; budget: 3 MB).
  { ...nodeTarget, entryPoints: { action: "src/action/index.ts" }, outdir: dist, minify: true, sourcemap: false },
  {
    ...common,
    platform: "browser",
    format: "iife",
    target: ["chrome120"],
    entryPoints: { webview: "webview-ui/src/main.tsx" },
    outdir: dist,
    loader: { ".ttf": "file" },
    assetNames: "[name]",
    define: { "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development") },
  },
]
  .filter(
    (options) =>
      !only ||
      only in options.entryPoints ||
      ((only === "extension" || only === "cli") && Object.keys(options.entryPoints)[0]?.startsWith("vendor/")),
  )
  .filter((options) => Object.values(options.entryPoints).every((entry) => existsSync(path.join(root, entry))));

function emitCoreTypes() {
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.core.json"], {
    cwd: root,
    stdio: "inherit",
  });
}

/** The sandbox's seccomp helper (Linux x64 and arm64), where the bundled runtime looks for it. */
function copySandboxHelpers() {
  const from = path.join(root, "node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp");
  for (const arch of ["x64", "arm64"]) {
    const source = path.join(from, arch, "apply-seccomp");
    if (!existsSync(source)) continue;
    const target = path.join(dist, "vendor/seccomp", arch, "apply-seccomp");
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(source, target);
    chmodSync(target, 0o755);
  }
}

/**
 * "Fathom: Try the Demo Task" (src/host/demo): the sample project and the demo's recording. The
 * recording repeats the system prompt and tools in each of its requests: brotli takes its
 * 470 KB to about 12 KB (gzip: 37 KB).
 */
function copyDemo() {
  const out = path.join(dist, "demo");
  mkdirSync(out, { recursive: true });
  cpSync(path.join(root, "test/fixtures/sample-workspace"), path.join(out, "sample-workspace"), { recursive: true });
  const cassette = readFileSync(path.join(root, "test/fixtures/demo/cassette.jsonl"));
  writeFileSync(
    path.join(out, "cassette.jsonl.br"),
    brotliCompressSync(cassette, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: cassette.length },
    }),
  );
}

function printSizes() {
  for (const file of readdirSync(dist)
    .filter((f) => /\.(js|css|ttf)$/.test(f))
    .sort()) {
    const bytes = statSync(path.join(dist, file)).size;
    const gz = gzipSync(readFileSync(path.join(dist, file))).length;
    console.log(
      `  dist/${file.padEnd(16)} ${(bytes / 1024).toFixed(1).padStart(8)} KB  (${(gz / 1024).toFixed(1)} KB gzipped)`,
    );
  }
}

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((ctx) => ctx.watch()));
  console.log("Watching for changes…");
} else {
  if (!only) rmSync(dist, { recursive: true, force: true });
  const started = Date.now();
  const results = await Promise.all(
    builds.map((options) => esbuild.build({ ...options, metafile: Boolean(metafile) })),
  );
  if (metafile) {
    const merged = { inputs: {}, outputs: {} };
    for (const result of results) {
      Object.assign(merged.inputs, result.metafile.inputs);
      Object.assign(merged.outputs, result.metafile.outputs);
    }
    writeFileSync(path.resolve(metafile), JSON.stringify(merged));
  }
  if (!only) emitCoreTypes();
  if (!only) copySandboxHelpers();
  if (!only) copyDemo();
  console.log(`Built ${builds.length} bundles in ${Date.now() - started} ms${production ? " (production)" : ""}:`);
  printSizes();
}
