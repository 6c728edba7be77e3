// Headless Chromium (playwright-core) pointed at the code-server workbench.
import * as fs from "node:fs";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { onCleanup } from "./cleanup.js";

export const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--no-default-browser-check",
];

export function chromiumPath(): string {
  const candidates = [
    process.env.FATHOM_CHROMIUM,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ];
  const found = candidates.find((c): c is string => !!c && fs.existsSync(c));
  if (!found) throw new Error("no Chromium found: install Debian `chromium` or set FATHOM_CHROMIUM");
  return found;
}

export interface BrowserSession {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/** Launches Chromium with one page (1400x900). Closed on cleanup. */
export async function launchBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: process.env.FATHOM_HEADED !== "1",
    args: chromiumFlags,
    timeout: 60_000,
    // Our cleanup handles signals (playwright's own handlers would exit before the temp dirs
    // and code-server are cleaned up); playwright still kills the browser on process exit.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  // playwright-core also kills the browser it launched if this process exits abruptly.
  const close = onCleanup("chromium", async () => {
    await browser.close().catch(() => undefined);
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { browser, page, close };
}

/** Opens the workbench URL and waits until the workbench, its activity bar and status bar are up. */
export async function openWorkbench(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60_000 });
  await page.locator(".activitybar").first().waitFor({ state: "visible", timeout: 30_000 });
  await page.locator(".statusbar").first().waitFor({ state: "visible", timeout: 30_000 });
}

/** The activity-bar entry with this title (e.g. "Fathom"). */
export function activityBarItem(page: Page, title: string) {
  return page.locator(`.activitybar .action-item a.action-label[aria-label^="${title}"]`).first();
}

/**
 * A webview's content frame. VS Code renders each webview as an outer iframe (the host page
 * of the webview) with the extension's HTML in an inner iframe; we look for the frame that
 * satisfies `probe` (for example: it holds the "Message" textbox).
 */
export async function findWebviewFrame(
  page: Page,
  probe: (frame: Frame) => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      if (await probe(frame).catch(() => false)) return frame;
    }
    await page.waitForTimeout(250);
  }
  const urls = page
    .frames()
    .map((f) => f.url())
    .join("\n  ");
  throw new Error(`no webview frame matched within ${timeoutMs / 1000} s; frames:\n  ${urls}`);
}
