/**
 * Runs the action's entry point as the runner does: a child process with the runner's
 * variables (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH holding a real webhook payload,
 * GITHUB_REPOSITORY, GITHUB_API_URL, INPUT_*, GITHUB_OUTPUT, RUNNER_TEMP), in a clone of a bare
 * repository on disk that stands for origin, as actions/checkout leaves it (the token kept in
 * .git/config).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(__dirname, "../../..");
const ENTRY = path.join(ROOT, "src/action/index.ts");
/** tsx by its path: the runner's working directory is the checkout, where no node_modules is. */
const TSX = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;

export const GITHUB_TOKEN = "ghs_TESTtoken0123456789abcdefABCDEF012345";
export const MODEL_KEY = "sk-ant-test-KEY-9f8e7d6c5b4a39281706";

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
}

export interface Checkout {
  scratch: string;
  origin: string;
  workspace: string;
  runnerTemp: string;
  home: string;
}

/** origin (bare) with one commit on main, and the workspace actions/checkout would leave. */
export function makeCheckout(
  files: Record<string, string> = { "greet.js": 'module.exports = () => "Helo";\n' },
): Checkout {
  const scratch = mkdtempSync(path.join(tmpdir(), "fathom-action-"));
  const origin = path.join(scratch, "origin.git");
  const seed = path.join(scratch, "seed");
  const workspace = path.join(scratch, "work", "repo");
  const runnerTemp = path.join(scratch, "runner-temp");
  const home = path.join(scratch, "home");
  for (const dir of [seed, runnerTemp, home, path.dirname(workspace)]) mkdirSync(dir, { recursive: true });
  git(scratch, "init", "-q", "--bare", "-b", "main", origin);
  git(seed, "init", "-q", "-b", "main");
  for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(seed, rel), text);
  git(seed, "add", "-A");
  git(seed, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-qm", "Start");
  git(seed, "push", "-q", origin, "main");
  git(scratch, "clone", "-q", origin, workspace);
  // What actions/checkout leaves with persist-credentials (its default).
  git(
    workspace,
    "config",
    "--local",
    "http.https://github.com/.extraheader",
    `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString("base64")}`,
  );
  return { scratch, origin, workspace, runnerTemp, home };
}

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  ms: number;
}

/** `entry`: node's arguments; by default the action's source through tsx (a release's test passes its built runs.main). */
export async function runActionAsRunner(
  c: Checkout,
  o: {
    event: string;
    payload: unknown;
    repository: string;
    apiUrl: string;
    inputs: Record<string, string>;
    env?: Record<string, string>;
    entry?: string[];
  },
): Promise<ActionRun> {
  const eventPath = path.join(c.runnerTemp, "event.json");
  const outputFile = path.join(c.runnerTemp, `output-${Date.now()}`);
  writeFileSync(eventPath, JSON.stringify(o.payload));
  writeFileSync(outputFile, "");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: c.home,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: o.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: o.repository,
    GITHUB_API_URL: o.apiUrl,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_WORKSPACE: c.workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_RUN_ID: "4242",
    GITHUB_REF: "refs/heads/main",
    RUNNER_TEMP: c.runnerTemp,
    FATHOM_RETRY_BASE_DELAY_MS: "1",
    GIT_CONFIG_NOSYSTEM: "1",
    ...Object.fromEntries(Object.entries(o.inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...o.env,
  };
  const started = Date.now();
  const child = spawn(process.execPath, o.entry ?? ["--import", TSX, ENTRY], {
    cwd: c.workspace,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? 1)));
  return { code, stdout, stderr, outputs: readOutputs(readFileSync(outputFile, "utf8")), ms: Date.now() - started };
}

function readOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1]!] = m[3]!;
  return out;
}

/** Every file under `dir`, with its text (for "the secret appears nowhere"). */
export function filesUnder(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const rel of readdirSync(dir, { recursive: true }).map(String)) {
    const file = path.join(dir, rel);
    if (statSync(file).isFile()) out.push({ file, text: readFileSync(file, "latin1") });
  }
  return out;
}
