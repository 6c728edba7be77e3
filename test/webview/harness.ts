/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// A fake VS Code host for the chat webview: a 127.0.0.1 server serving the built bundle inside
// a page with the real CSP (nonce, no inline styles), the theme's --vscode-* variables, and a
// stub acquireVsCodeApi that records what the webview posts. Tests drive it from headless
// Chromium through playwright-core.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { themeCss, THEMES, type ThemeKind } from "./themes";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const OUTPUT_DIR = path.join(ROOT, "test-output/webview");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const ASSETS: Record<string, string> = {
  "/webview.js": "text/javascript",
  "/webview.css": "text/css",
  "/codicon.ttf": "font/ttf",
};

function loadAssets(distDir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of Object.keys(ASSETS)) {
    const file = path.join(distDir, name);
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`node scripts/build.mjs\` first.`);
    // Read once: a concurrent rebuild of dist/ cannot pull the files from under a running test.
    files.set(name, readFileSync(file));
  }
  return files;
}

function pageHtml(origin: string, theme: ThemeKind): string {
  const nonce = randomBytes(16).toString("base64");
  // The CSP of src/host/chatView/webviewHtml.ts, with our origin standing in for webview.cspSource.
  const csp = [
    "default-src 'none'",
    `img-src ${origin} data:`,
    `font-src ${origin}`,
    `style-src ${origin} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${themeCss(theme)}</style>
<link rel="stylesheet" href="${origin}/webview.css" nonce="${nonce}">
<title>Fathom</title>
<script nonce="${nonce}">
  window.__posted = [];
  window.__csp = [];
  window.__warnings = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || "")));
  const warn = console.warn.bind(console);
  console.warn = (...args) => { window.__warnings.push(args.map(String).join(" ")); warn(...args); };
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error("acquireVsCodeApi may be called only once");
    acquired = true;
    let state;
    return {
      postMessage: (message) => {
        window.__posted.push(JSON.parse(JSON.stringify(message)));
        if (window.__onPosted) window.__onPosted(message);
      },
      getState: () => state,
      setState: (next) => { state = next; },
    };
  };
</script>
</head>
<body class="${THEMES[theme].bodyClass}">
<div id="root"></div>
<script nonce="${nonce}" src="${origin}/webview.js"></script>
</body>
</html>`;
}

export interface OpenOptions {
  theme?: ThemeKind;
  width?: number;
  height?: number;
  /** Runs in the page before it loads (outside the CSP), e.g. to answer `ready` at once. */
  initScript?: string;
}

export class WebviewPage {
  constructor(readonly page: Page) {}

  /** Delivers a host message exactly as VS Code does: a window `message` event. */
  async send(message: unknown): Promise<void> {
    await this.page.evaluate((data) => window.postMessage(data, "*"), message);
  }

  /** Sends several messages in one task, as a fast stream would arrive. */
  async sendAll(messages: unknown[]): Promise<void> {
    await this.page.evaluate((list) => {
      for (const data of list) window.postMessage(data, "*");
    }, messages);
  }

  async posted(): Promise<{ type: string; [key: string]: unknown }[]> {
    return this.page.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted);
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __posted: unknown[] }).__posted.length = 0;
    });
  }

  /** Waits until the webview has posted a message of `type` and returns the last one. */
  async waitForPosted(type: string, timeout = 5000): Promise<{ type: string; [key: string]: unknown }> {
    await this.page.waitForFunction(
      (t) => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === t),
      type,
      { timeout },
    );
    const all = await this.posted();
    return all.filter((m) => m.type === type).at(-1)!;
  }

  /** Waits for the `searchFiles` the webview sends for `query` (typing may send earlier ones). */
  async waitForSearch(query: string, timeout = 5000): Promise<{ type: string; requestId: number; query: string }> {
    await this.page.waitForFunction(
      (q) =>
        (window as unknown as { __posted: { type: string; query?: string }[] }).__posted.some(
          (m) => m.type === "searchFiles" && m.query === q,
        ),
      query,
      { timeout },
    );
    const all = (await this.posted()) as unknown as { type: string; requestId: number; query: string }[];
    return all.filter((m) => m.type === "searchFiles" && m.query === query).at(-1)!;
  }

  async warnings(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __warnings: string[] }).__warnings);
  }

  async cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  }

  /** Reloads the page (a webview reload) and waits for its `ready`. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitForPosted("ready");
  }
}

export interface Harness {
  open(options?: OpenOptions): Promise<WebviewPage>;
  /** Page errors (uncaught exceptions) seen so far, in any page. */
  pageErrors: string[];
  stop(): Promise<void>;
}

/** Starts the server and Chromium. Call `stop()` in `after`; it never hangs. */
export async function startHarness(distDir = path.join(ROOT, "dist")): Promise<Harness> {
  const assets = loadAssets(distDir);
  let origin = "";
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const asset = assets.get(url.pathname);
    if (asset) {
      res.writeHead(200, { "content-type": ASSETS[url.pathname]!, "cache-control": "no-store" });
      res.end(asset);
      return;
    }
    if (url.pathname === "/") {
      const theme = url.searchParams.get("theme") ?? "dark";
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(pageHtml(origin, theme in THEMES ? (theme as ThemeKind) : "dark"));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
  } catch (error) {
    server.close();
    throw error;
  }
  const pageErrors: string[] = [];

  return {
    pageErrors,
    async open({ theme = "dark", width = 420, height = 760, initScript }: OpenOptions = {}) {
      const context = await browser.newContext({ viewport: { width, height }, reducedMotion: "reduce" });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on("pageerror", (error) => pageErrors.push(String(error)));
      if (initScript) await page.addInitScript(initScript);
      await page.goto(`${origin}/?theme=${theme}`);
      const view = new WebviewPage(page);
      await view.waitForPosted("ready");
      return view;
    },
    async stop() {
      const closing = browser.close().catch(() => undefined);
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
      await Promise.race([closing, timeout]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
