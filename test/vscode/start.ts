// `npm start`: a real VS Code in the browser with Fathom installed, for people.
// Packages Fathom, starts code-server on http://127.0.0.1:8080 (FATHOM_PORT or --port N; the
// next free port when that one is taken) with
// a copy of test/fixtures/sample-workspace, prints the URL and stays up until Ctrl+C.
// State (settings, secrets such as the API key, the workspace copy) is kept in
// <cache>/start between runs; --fresh starts over. FATHOM_SKIP_PACKAGE=1 reuses the newest
// fathom-*.vsix; FATHOM_VSIX=<file> installs that one.
// `serveFathom` is shared with `npm run demo` (demo.ts).
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { isStopping, runCleanups } from "./harness/cleanup.js";
import { startCodeServer, type CodeServer } from "./harness/codeServer.js";
import {
  cacheDir,
  copySampleWorkspace,
  ensureCodeServer,
  packageFathom,
  repoRoot,
  type CodeServerInstall,
} from "./harness/paths.js";

export function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

/** Why 127.0.0.1:`port` cannot be listened on (`EADDRINUSE`, `EACCES`, …), or null when it can. */
export function portProblem(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(null)));
  });
}

/**
 * The port from --port or FATHOM_PORT, else `defaultPort`. When it is taken (another `npm start`,
 * a demo, anything), says so and takes the next free one, so start and demo run side by side.
 */
export async function choosePort(command: string, defaultPort: number, label: string): Promise<number> {
  const asked = option("--port") ?? process.env.FATHOM_PORT;
  const port = Number(asked ?? defaultPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`"${String(asked)}" is not a port number (1-65535): for example FATHOM_PORT=8081 ${command}`);
  }
  for (let candidate = port; candidate <= Math.min(port + 50, 65535); candidate++) {
    const problem = await portProblem(candidate);
    if (problem === null) {
      if (candidate !== port) console.log(`[${label}] 127.0.0.1:${port} is in use; using ${candidate} instead`);
      return candidate;
    }
    if (problem !== "EADDRINUSE") {
      const why = problem === "EACCES" ? "permission denied (ports below 1024 need root)" : problem;
      throw new Error(
        `cannot listen on 127.0.0.1:${candidate}: ${why}. Pick another port: FATHOM_PORT=8081 ${command}`,
      );
    }
  }
  throw new Error(
    `127.0.0.1:${port} and the 50 ports after it are in use. Pick a free one: FATHOM_PORT=9000 ${command}`,
  );
}

export interface ServeOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Holds user data, extensions and the workspace copy. */
  stateDir: string;
  /** Delete `stateDir` first (settings, secrets, tasks and the workspace copy start over). */
  fresh: boolean;
  /** User settings merged over what is saved. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and so for Fathom's extension host. */
  env?: NodeJS.ProcessEnv;
  /** Already at hand (tests); otherwise installed or found in the cache. */
  install?: CodeServerInstall;
  /** Already packaged (tests); otherwise `npm run package` (see packageFathom). */
  vsix?: string;
  /** Prefix of our log lines, e.g. "start". */
  label: string;
}

export interface Served {
  server: CodeServer;
  workspaceDir: string;
}

/** code-server with Fathom installed and a copy of the sample workspace, until stopped (Ctrl+C). */
export async function serveFathom(o: ServeOptions): Promise<Served> {
  const install = o.install ?? (await ensureCodeServer());
  const vsix = o.vsix ?? (await packageFathom());
  console.log(`[${o.label}] installing ${path.relative(repoRoot, vsix) || vsix}`);

  if (o.fresh) fs.rmSync(o.stateDir, { recursive: true, force: true });
  const workspaceDir = path.join(o.stateDir, "sample-workspace");
  if (!fs.existsSync(workspaceDir)) copySampleWorkspace(workspaceDir);

  const server = await startCodeServer({
    install,
    port: o.port,
    userDataDir: path.join(o.stateDir, "user-data"),
    extensionsDir: path.join(o.stateDir, "extensions"),
    workspaceDir,
    extensions: [vsix],
    ...(o.settings ? { settings: o.settings } : {}),
    ...(o.env ? { env: o.env } : {}),
  });
  return { server, workspaceDir };
}

/** Waits until code-server exits: by Ctrl+C (returns) or by itself (throws). */
export async function untilStopped(server: CodeServer): Promise<void> {
  const code = await server.exited;
  if (isStopping()) return; // Ctrl+C: the signal handler stops the rest and exits
  throw new Error(`code-server exited by itself (${String(code)}); see ${server.logFile}`);
}

/** Runs `main`; on an error prints it, stops everything started and exits 1. */
export function runMain(label: string, main: () => Promise<void>): void {
  main().catch(async (err: unknown) => {
    console.error(`[${label}] ${err instanceof Error ? err.message : String(err)}`);
    await runCleanups();
    process.exit(1);
  });
}

async function main(): Promise<void> {
  const port = await choosePort("npm start", 8080, "start");
  const { server, workspaceDir } = await serveFathom({
    label: "start",
    port,
    stateDir: path.join(cacheDir, "start"),
    fresh: process.argv.includes("--fresh"),
  });
  console.log("");
  console.log(`  Fathom in VS Code: ${server.folderUrl()}`);
  console.log(`  workspace:         ${workspaceDir} (a copy; \`npm start -- --fresh\` resets it)`);
  console.log(`  code-server log:   ${server.logFile}`);
  console.log("  Ctrl+C stops it.");
  console.log("");
  await untilStopped(server);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runMain("start", main);
