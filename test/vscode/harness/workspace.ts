// A throwaway VS Code session: temp dirs, a copy of the sample workspace, code-server with the
// given extensions and, optionally, Chromium showing the workbench. Stopped as a whole.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser, openWorkbench, type BrowserSession } from "./browser.js";
import { onCleanup } from "./cleanup.js";
import { startCodeServer, type CodeServer } from "./codeServer.js";
import { copySampleWorkspace, makeTempDir, testOutputDir, type CodeServerInstall } from "./paths.js";

export interface SessionOptions {
  install: CodeServerInstall;
  /** vsix files installed before start. */
  extensions: string[];
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and its extension host. */
  env?: NodeJS.ProcessEnv;
  /** Short name for the temp dir. */
  name: string;
  /** Also launch Chromium and open the workbench on the workspace (default true). */
  browser?: boolean;
  /** Keep the temp dir after stopping (default: only when FATHOM_KEEP_TMP=1). */
  keep?: boolean;
  /** More command-line options for code-server. */
  codeServerArgs?: string[];
  /** Opens a multi-root workspace instead: writes it (next to the sample copy) and returns its `.code-workspace` file. */
  workspaceFile?: (workspaceDir: string) => string;
  /** Changes the sample copy before VS Code opens it (a git repository, say). */
  prepare?: (workspaceDir: string) => void;
}

export interface Session {
  root: string;
  workspaceDir: string;
  userDataDir: string;
  server: CodeServer;
  /** Present when `browser` was not false. */
  page?: Page;
  stop(): Promise<void>;
}

export async function startSession(o: SessionOptions): Promise<Session> {
  const root = makeTempDir(o.name);
  const workspaceDir = copySampleWorkspace(path.join(root, "workspace"));
  o.prepare?.(workspaceDir);
  const userDataDir = path.join(root, "user-data");
  let server: CodeServer | undefined;
  let browser: BrowserSession | undefined;
  // Registered first, so on Ctrl+C it runs after the browser and code-server are stopped.
  const stop = onCleanup(`session ${o.name}`, async () => {
    await browser?.close();
    await server?.stop();
    saveLogs(root, o.name);
    if (!(o.keep ?? process.env.FATHOM_KEEP_TMP === "1")) fs.rmSync(root, { recursive: true, force: true });
  });
  try {
    server = await startCodeServer({
      install: o.install,
      userDataDir,
      extensionsDir: path.join(root, "extensions"),
      workspaceDir,
      extensions: o.extensions,
      settings: o.settings,
      // code-server keeps its own logs under $XDG_DATA_HOME; keep tests out of $HOME.
      env: { ...o.env, XDG_DATA_HOME: path.join(root, "xdg-data") },
      ...(o.codeServerArgs ? { args: o.codeServerArgs } : {}),
    });
    if (o.browser !== false) {
      browser = await launchBrowser();
      // The workbench's and the webviews' console errors, for debugging failures.
      const browserLog = path.join(root, "browser.log");
      browser.page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning")
          fs.appendFileSync(browserLog, `[${m.type()}] ${m.text()}\n`);
      });
      browser.page.on("pageerror", (e) => fs.appendFileSync(browserLog, `[pageerror] ${e.stack ?? e.message}\n`));
      await openWorkbench(
        browser.page,
        o.workspaceFile ? server.workspaceUrl(o.workspaceFile(workspaceDir)) : server.folderUrl(workspaceDir),
      );
    }
    return { root, workspaceDir, userDataDir, server, page: browser?.page, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Keeps code-server's and VS Code's logs in test-output/logs/<name>/ for debugging failures. */
function saveLogs(root: string, name: string): void {
  const dest = path.join(testOutputDir, "logs", name);
  try {
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    const userData = path.join(root, "user-data");
    for (const file of [path.join(userData, "code-server.log"), path.join(root, "browser.log")]) {
      if (fs.existsSync(file)) fs.copyFileSync(file, path.join(dest, path.basename(file)));
    }
    const vscodeLogs = path.join(userData, "logs");
    if (fs.existsSync(vscodeLogs)) fs.cpSync(vscodeLogs, path.join(dest, "vscode"), { recursive: true });
  } catch (err) {
    console.error(`[harness] could not save logs of ${name}: ${String(err)}`);
  }
}
