// Starts and stops code-server (VS Code in a browser, with a real Node extension host).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { onCleanup } from "./cleanup.js";
import { run, type CodeServerInstall } from "./paths.js";

export interface CodeServerOptions {
  install: CodeServerInstall;
  /** Holds User/settings.json, logs, state. Created if missing. */
  userDataDir: string;
  extensionsDir: string;
  /** Folder opened by default (also pass `?folder=` in the URL to be explicit). */
  workspaceDir: string;
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Extra user settings merged over the defaults. */
  settings?: Record<string, unknown>;
  /** vsix files (or extension ids) installed before start. */
  extensions?: string[];
  /** Extra environment for code-server and its extension host. */
  env?: NodeJS.ProcessEnv;
  /** Where code-server's stdout/stderr go (default: a file in userDataDir). */
  logFile?: string;
  /** More command-line options for code-server (for example `--log <extension id>:debug`). */
  args?: string[];
}

export interface CodeServer {
  port: number;
  url: string;
  /** The workbench URL that opens `folder` (defaults to the workspace). */
  folderUrl(folder?: string): string;
  /** The workbench URL that opens a `.code-workspace` file (a multi-root workspace). */
  workspaceUrl(file: string): string;
  logFile: string;
  /** Settles when code-server exits (with its exit code, or null if killed by a signal). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Settings that keep the workbench quiet, offline and deterministic for tests and screenshots. */
export const quietSettings: Record<string, unknown> = {
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "telemetry.telemetryLevel": "off",
  "security.workspace.trust.enabled": false,
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "chat.commandCenter.enabled": false,
  "git.openRepositoryInParentFolders": "never",
  "window.restoreWindows": "none",
  "files.hotExit": "off",
};

export function writeUserSettings(userDataDir: string, extra: Record<string, unknown> = {}): void {
  const dir = path.join(userDataDir, "User");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "settings.json");
  let existing: Record<string, unknown> = {};
  try {
    existing = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // missing or not plain JSON: start over
  }
  const settings = { ...quietSettings, ...existing, ...extra };
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  // Machine-scoped settings: the extension host of a remote window (code-server) reads them from
  // Machine/settings.json, not from the user's settings the workbench reads.
  const machine = Object.fromEntries(Object.entries(settings).filter(([key]) => MACHINE_SCOPED.has(key)));
  fs.mkdirSync(path.join(userDataDir, "Machine"), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, "Machine", "settings.json"), JSON.stringify(machine, null, 2));
}

/** The quiet settings VS Code registers as machine-scoped. */
const MACHINE_SCOPED = new Set(["workbench.welcomePage.walkthroughs.openOnInstall"]);

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function baseArgs(o: CodeServerOptions): string[] {
  // An explicit --config keeps code-server from writing ~/.config/code-server/config.yaml.
  const config = path.join(o.userDataDir, "code-server.yaml");
  if (!fs.existsSync(config)) fs.writeFileSync(config, "auth: none\n");
  return [
    path.join(o.install.codeServerDir, "out", "node", "entry.js"),
    "--config",
    config,
    "--user-data-dir",
    o.userDataDir,
    "--extensions-dir",
    o.extensionsDir,
    "--disable-telemetry",
    "--disable-update-check",
  ];
}

/** `--install-extension` for each vsix, with the same user-data and extensions dirs. */
export async function installExtensions(o: CodeServerOptions, extensions: string[]): Promise<void> {
  if (extensions.length === 0) return;
  const args = [...baseArgs(o), ...extensions.flatMap((e) => ["--install-extension", e]), "--force"];
  const out = await run(o.install.node, args, { capture: true, env: { ...process.env, ...o.env } });
  if (!/successfully installed/i.test(out)) throw new Error(`installing ${extensions.join(", ")} failed:\n${out}`);
}

/** Installs the extensions, starts code-server, waits until it answers. Stopped on cleanup. */
export async function startCodeServer(o: CodeServerOptions): Promise<CodeServer> {
  fs.mkdirSync(o.userDataDir, { recursive: true });
  fs.mkdirSync(o.extensionsDir, { recursive: true });
  writeUserSettings(o.userDataDir, o.settings);
  await installExtensions(o, o.extensions ?? []);

  const port = o.port || (await freePort());
  const logFile = o.logFile ?? path.join(o.userDataDir, "code-server.log");
  const log = fs.openSync(logFile, "a");
  const args = [
    ...baseArgs(o),
    "--auth",
    "none",
    "--bind-addr",
    `127.0.0.1:${port}`,
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--ignore-last-opened",
    ...(o.args ?? []),
    o.workspaceDir,
  ];
  // Own process group, so stop() reaches the extension host and every helper it forks.
  const child = spawn(o.install.node, args, {
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, ...o.env, VSCODE_PROXY_URI: "" },
  });
  fs.closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error("code-server did not start");
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = onCleanup(`code-server :${port}`, () => killGroup(child, pid), pid);

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(url, child, logFile, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    port,
    url,
    logFile,
    exited,
    folderUrl: (folder = o.workspaceDir) => `${url}/?folder=${encodeURIComponent(folder).replace(/%2F/g, "/")}`,
    workspaceUrl: (file) => `${url}/?workspace=${encodeURIComponent(file).replace(/%2F/g, "/")}`,
    stop,
  };
}

async function waitUntilUp(url: string, child: ChildProcess, logFile: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) while starting:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer on ${url} within ${ms / 1000} s:\n${tail(logFile)}`);
}

/** SIGTERM to the whole process group, SIGKILL after 5 s if anything is left. */
async function killGroup(child: ChildProcess, pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 5_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone in between
    }
  }
  child.unref();
}

export function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
