// Where things are: the repository, the cache that holds code-server, the packaged vsix.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const testOutputDir = path.join(repoRoot, "test-output");
export const buildDir = path.join(testOutputDir, "build");
export const sampleWorkspaceDir = path.join(repoRoot, "test", "fixtures", "sample-workspace");
export const cacheDir = process.env.FATHOM_CACHE ?? path.join(os.homedir(), ".cache", "fathom");

export interface CodeServerInstall {
  /** Node 24 binary that code-server needs. */
  node: string;
  /** The code-server package folder (holds out/node/entry.js). */
  codeServerDir: string;
}

/** Runs a command, streaming its output to ours (prefixed); rejects on a non-zero exit. */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; capture?: boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd ?? repoRoot,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!opts.capture) process.stdout.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(" ")} exited with ${code ?? signal}`));
    });
  });
}

/** Installs code-server into the cache on first use (a few minutes), then just reports it. */
export async function ensureCodeServer(): Promise<CodeServerInstall> {
  const script = path.join(repoRoot, "test", "vscode", "install-code-server.sh");
  const out = await run("bash", [script], { capture: true, env: { ...process.env, FATHOM_CACHE: cacheDir } });
  const node = /^NODE24=(.+)$/m.exec(out)?.[1];
  const codeServerDir = /^CODE_SERVER=(.+)$/m.exec(out)?.[1];
  if (!node || !codeServerDir) throw new Error(`install-code-server.sh printed no NODE24=/CODE_SERVER= lines:\n${out}`);
  if (!fs.existsSync(path.join(codeServerDir, "out", "node", "entry.js"))) {
    throw new Error(`code-server at ${codeServerDir} has no out/node/entry.js; delete ${cacheDir} and retry`);
  }
  return { node, codeServerDir };
}

/** The newest `fathom-*.vsix` at the repository root (or FATHOM_VSIX if set). */
export function findVsix(): string {
  const fromEnv = process.env.FATHOM_VSIX;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`FATHOM_VSIX=${fromEnv} does not exist`);
    return path.resolve(fromEnv);
  }
  const candidates = fs
    .readdirSync(repoRoot)
    .filter((f) => /^fathom-.*\.vsix$/.test(f))
    .map((f) => path.join(repoRoot, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  const newest = candidates[0];
  if (!newest) throw new Error(`no fathom-*.vsix in ${repoRoot}: run \`npm run package\` first`);
  return newest;
}

/** `npm run package` unless FATHOM_SKIP_PACKAGE=1 (or a FATHOM_VSIX is given); returns the vsix. */
export async function packageFathom(): Promise<string> {
  if (process.env.FATHOM_SKIP_PACKAGE !== "1" && !process.env.FATHOM_VSIX) {
    console.log("[harness] npm run package");
    try {
      // What `npm run package` runs, without a nested npm (which would warn about the npm
      // config it inherits from the npm script that started us).
      await run(process.execPath, ["scripts/build.mjs", "--production"]);
      await run(process.execPath, ["scripts/package.mjs"]);
    } catch (err) {
      throw new Error(
        `${err instanceof Error ? err.message : String(err)} (FATHOM_SKIP_PACKAGE=1 tests the newest fathom-*.vsix as it is)`,
        { cause: err },
      );
    }
  }
  return findVsix();
}

/** A fresh directory under os.tmpdir(). */
export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `fathom-${prefix}-`));
}

/** A copy of the sample workspace (so tests and `npm start` never modify the repository). */
export function copySampleWorkspace(dest: string): string {
  fs.cpSync(sampleWorkspaceDir, dest, { recursive: true });
  return dest;
}
