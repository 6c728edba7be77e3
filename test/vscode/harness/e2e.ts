// End-to-end tests: each runs against its own fresh code-server + Chromium session.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { withTimeout } from "./cleanup.js";
import { testOutputDir, type CodeServerInstall } from "./paths.js";
import { startSession, type Session } from "./workspace.js";

export interface E2EContext {
  page: Page;
  session: Session;
  /** Saves a full-page screenshot to test-output/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
}

export interface E2ETest {
  name: string;
  /** Whole-test budget including starting VS Code (default 180 s). */
  timeoutMs?: number;
  /** User settings written before code-server starts (for workbench settings read only at load). */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and its extension host. */
  env?: NodeJS.ProcessEnv;
  /** Opens a multi-root workspace: writes it and returns its `.code-workspace` file. */
  workspaceFile?: (workspaceDir: string) => string;
  /** Changes the sample workspace before VS Code opens it. */
  prepare?: (workspaceDir: string) => void;
  run(ctx: E2EContext): Promise<void>;
}

export interface TestResult {
  name: string;
  ok: boolean;
  skipped?: boolean;
  ms: number;
  error?: string;
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(testOutputDir, { recursive: true });
  const file = path.join(testOutputDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Starts a session with the given extensions, runs the test, always stops the session. */
export async function runE2ETest(test: E2ETest, install: CodeServerInstall, extensions: string[]): Promise<TestResult> {
  const started = Date.now();
  let session: Session | undefined;
  let stopped = false;
  const work = (async () => {
    session = await startSession({
      install,
      extensions,
      name: `e2e-${slug(test.name)}`,
      settings: test.settings,
      env: test.env,
      ...(test.workspaceFile ? { workspaceFile: test.workspaceFile } : {}),
      ...(test.prepare ? { prepare: test.prepare } : {}),
    });
    // Stopped while starting (timeout): do not run the test against a half-stopped session.
    if (stopped) return;
    const page = session.page!;
    await test.run({ page, session, screenshot: (name) => screenshot(page, name) });
  })();
  try {
    await withTimeout(`e2e "${test.name}"`, test.timeoutMs ?? 180_000, work);
    return { name: test.name, ok: true, ms: Date.now() - started };
  } catch (err) {
    const page = session?.page;
    if (page) {
      const shot = await withTimeout(
        "failure screenshot",
        10_000,
        screenshot(page, `e2e-${slug(test.name)}-failure`),
      ).catch(() => undefined);
      if (shot) console.log(`    failure screenshot: ${path.relative(process.cwd(), shot)}`);
    }
    return {
      name: test.name,
      ok: false,
      ms: Date.now() - started,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    };
  } finally {
    stopped = true;
    work.catch(() => undefined);
    await session?.stop();
  }
}
