// The bundle Fathom's extension loads at activation, measured with esbuild's metafile, and the
// budgets it and the vsix are held to (test/unit/build/budget.test.ts, the code-server runner).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
// @ts-expect-error -- a plain .mjs module shared with scripts/build.mjs
import { lazyLibraries, zodEnglishOnly } from "../../scripts/esbuildPlugins.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const BUDGETS_FILE = path.join(ROOT, "bench", "budgets.json");

export interface Budgets {
  /** Most bytes of JS the extension host loads when Fathom activates (production build). */
  activationJsBytes: number;
  /** Most bytes of the vsix `npm run package` makes for this machine's platform. */
  vsixBytes: number;
  /** What each module (a package, or a folder of src/) weighed when the budgets were last set. */
  activationModules: Record<string, number>;
  vsixFiles: Record<string, number>;
}

export function readBudgets(): Budgets {
  return JSON.parse(readFileSync(BUDGETS_FILE, "utf8")) as Budgets;
}

export function writeBudgets(budgets: Budgets): void {
  writeFileSync(BUDGETS_FILE, `${JSON.stringify(budgets, null, 2)}\n`);
}

/** `node_modules/zod/...` → `zod`, `src/host/tasks/x.ts` → `src/host/tasks`. */
export function moduleOf(input: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (pkg) return pkg[1]!;
  return input.split("/").slice(0, 3).join("/");
}

/** The production activation bundle (dist/extension.js as `npm run package` builds it), by module. */
export async function activationBundle(): Promise<{
  bytes: number;
  modules: Record<string, number>;
  external: string[];
}> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ["src/host/extension.ts"],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    minify: true,
    legalComments: "none",
    write: false,
    metafile: true,
    outfile: path.join(ROOT, "dist", "extension.js"),
    define: { "import.meta.url": "__importMetaUrl" },
    plugins: [zodEnglishOnly, lazyLibraries],
    logLevel: "silent",
  });
  const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith("extension.js"))!;
  const modules: Record<string, number> = {};
  for (const [input, info] of Object.entries(output.inputs))
    modules[moduleOf(input)] = (modules[moduleOf(input)] ?? 0) + info.bytesInOutput;
  const external = output.imports.filter((i) => i.external).map((i) => i.path);
  return { bytes: output.bytes, modules, external };
}

/** The modules that weigh more than when the budgets were set, most first. */
export function grown(now: Record<string, number>, before: Record<string, number>): string[] {
  return Object.entries(now)
    .map(([name, bytes]) => ({ name, bytes, delta: bytes - (before[name] ?? 0) }))
    .filter((m) => m.delta > 512)
    .sort((a, b) => b.delta - a.delta)
    .map(
      (m) =>
        `${m.name}: ${(m.bytes / 1024).toFixed(1)} KB (${before[m.name] === undefined ? "new" : `+${(m.delta / 1024).toFixed(1)} KB`})`,
    );
}

/** Each file of a vsix (a zip) and its compressed size, read from the zip's central directory. */
export function vsixFiles(vsix: string): Record<string, number> {
  const zip = readFileSync(vsix);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${vsix} is not a zip file`);
  let at = zip.readUInt32LE(end + 16);
  const files: Record<string, number> = {};
  for (let i = 0, count = zip.readUInt16LE(end + 10); i < count; i++) {
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    files[zip.subarray(at + 46, at + 46 + nameLength).toString("utf8")] = compressed;
    at += 46 + nameLength + extra;
  }
  return files;
}

/** Undefined when the vsix is within its budget; else what to say, naming the files that grew. */
export function vsixOverBudget(vsix: string, size: number): string | undefined {
  const budgets = readBudgets();
  const files = vsixFiles(vsix);
  if (process.env.FATHOM_RECORD_BUDGET === "1") writeBudgets({ ...budgets, vsixFiles: files });
  if (size <= budgets.vsixBytes) return undefined;
  return `The vsix is ${(size / 1024).toFixed(1)} KB, over its budget of ${(budgets.vsixBytes / 1024).toFixed(1)} KB. What grew (compressed) since the budget was set:\n  ${grown(files, budgets.vsixFiles).join("\n  ") || "(nothing by more than 0.5 KB)"}\nShip less, or raise the budget in bench/budgets.json and say in docs/user-guide.md (Install in desktop VS Code) what the new part buys.`;
}
