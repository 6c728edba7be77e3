// Chat webview size and speed (issue 6): the production bundle's gzipped size, first paint of a
// 5,000-item transcript in headless Chromium, and the longest main-thread task while 500
// tokens/s stream in (Long Tasks API). Runs alone with `node --import tsx bench/webview.ts`.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { execFileSync } from "node:child_process";
import { assistant, baseState, manyItems } from "../test/webview/fixtures";
import { startHarness } from "../test/webview/harness";

const root = path.resolve(import.meta.dirname, "..");
const ITEMS = 5_000;
const TOKENS_PER_SECOND = 500;
const STREAM_SECONDS = 6;

/** The webview bundle exactly as `npm run package` makes it, in a temp dir (dist/ is left alone). */
export async function buildProductionWebview(outdir: string): Promise<void> {
  execFileSync(process.execPath, ["scripts/build.mjs", "--production", "--only", "webview", "--outdir", outdir], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export async function runWebviewBench(): Promise<void> {
  console.log("\n## Chat webview (issue 6)");
  const outdir = mkdtempSync(path.join(os.tmpdir(), "fathom-webview-bench-"));
  try {
    await buildProductionWebview(outdir);
    const sizes = ["webview.js", "webview.css", "codicon.ttf"].map((file) => {
      const bytes = readFileSync(path.join(outdir, file));
      return { file, raw: bytes.length, gz: gzipSync(bytes).length };
    });
    for (const s of sizes)
      console.log(`  ${s.file.padEnd(12)} ${kb(s.raw).padStart(10)}  ${kb(s.gz).padStart(9)} gzipped`);
    const scriptAndStyle = sizes[0]!.gz + sizes[1]!.gz;
    console.log(
      `  script + stylesheet: ${kb(scriptAndStyle)} gzipped (target ≤ 300 KB)${scriptAndStyle > 300 * 1024 ? "  OVER TARGET" : ""}; with the icon font ${kb(scriptAndStyle + sizes[2]!.gz)}`,
    );

    const harness = await startHarness(outdir);
    try {
      await measureFirstPaint(harness);
      await measureStreaming(harness);
      if (harness.pageErrors.length) console.log(`  page errors: ${harness.pageErrors.join("; ")}`);
    } finally {
      await harness.stop();
    }
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

type Harness = Awaited<ReturnType<typeof startHarness>>;

/** Resolves in the page once the transcript shows items and a frame has been painted. */
const WAIT_PAINTED = `new Promise((resolve) => {
  const check = () => {
    if (document.querySelector("[data-index] article, [data-index] .tool-card")) requestAnimationFrame(() => setTimeout(resolve, 0));
    else requestAnimationFrame(check);
  };
  check();
})`;

async function measureFirstPaint(harness: Harness): Promise<void> {
  const state = baseState({ status: "completed", items: manyItems(ITEMS) });
  const runs: { stateToPaint: number; loadToPaint: number }[] = [];
  for (let run = 0; run < 5; run += 1) {
    // The fake host answers `ready` at once, as the real one does, with the whole state.
    const view = await harness.open({
      initScript: `window.__state = ${JSON.stringify(state)};
        window.__onPosted = (m) => { if (m.type === "ready") { window.__sentAt = performance.now(); window.postMessage({ type: "state", state: window.__state }, "*"); } };`,
    });
    const result = await view.page.evaluate(
      `${WAIT_PAINTED}.then(() => ({ stateToPaint: performance.now() - window.__sentAt, loadToPaint: performance.now() }))`,
    );
    runs.push(result as { stateToPaint: number; loadToPaint: number });
    const rendered = await view.page.locator("[data-index]").count();
    if (run === 0)
      console.log(`  first paint of ${ITEMS.toLocaleString()} items (${rendered} rendered by the virtual list):`);
    await view.page.context().close();
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const stateToPaint = median(runs.map((r) => r.stateToPaint));
  const loadToPaint = median(runs.map((r) => r.loadToPaint));
  console.log(
    `    state message → painted: ${stateToPaint.toFixed(0)} ms median of ${runs.length} (target ≤ 300 ms)${stateToPaint > 300 ? "  OVER TARGET" : ""}`,
  );
  console.log(`    page load → painted:     ${loadToPaint.toFixed(0)} ms median (includes parsing the bundle)`);
}

async function measureStreaming(harness: Harness): Promise<void> {
  const view = await harness.open();
  await view.send({
    type: "state",
    state: baseState({ status: "running", items: [...manyItems(ITEMS), assistant("live", "", true)] }),
  });
  await view.page.evaluate(WAIT_PAINTED);
  // The older items of the state are validated and added after the first paint: watch that too.
  const restoreLongTasks = (await view.page.evaluate(`new Promise((resolve) => {
    const durations = [];
    const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) durations.push(entry.duration); });
    observer.observe({ type: "longtask" });
    setTimeout(() => { observer.disconnect(); resolve(durations); }, 2000);
  })`)) as number[];
  console.log(
    `  restoring the older items after first paint: ${restoreLongTasks.length} long tasks${restoreLongTasks.length ? `, longest ${Math.max(...restoreLongTasks).toFixed(0)} ms` : ""}`,
  );
  // A string, not a function: tsx would wrap named functions in helpers the page lacks.
  const result = (await view.page.evaluate(`new Promise((resolve) => {
    const tokensPerSecond = ${TOKENS_PER_SECOND}, seconds = ${STREAM_SECONDS};
    const longTasks = [];
    const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) longTasks.push(entry.duration); });
    observer.observe({ type: "longtask" });
    const words = ["The", "agent", "reads", "\`src/app.ts\`", "and", "proposes", "**a", "fix**", "for", "the", "failing", "test;", "then", "it", "runs", "\`npm test\`."];
    const total = tokensPerSecond * seconds;
    let tokens = 0, frames = 0;
    const countFrames = () => { frames += 1; if (tokens < total) requestAnimationFrame(countFrames); };
    requestAnimationFrame(countFrames);
    const started = performance.now();
    const timer = setInterval(() => {
      // Catch up to the rate, as a network stream delivers in bursts.
      const due = Math.min(Math.floor(((performance.now() - started) / 1000) * tokensPerSecond), total);
      for (; tokens < due; tokens += 1) {
        let text = " " + words[tokens % words.length];
        if (tokens % 60 === 59) text = "\\n\\n";
        if (tokens % 400 === 200) text = "\\n\\n\`\`\`ts\\nconst answer: number = 42;\\nexport function slugify(text: string) { return text.trim(); }\\n\`\`\`\\n\\n";
        window.postMessage({ type: "textAppended", id: "live", text }, "*");
      }
      if (tokens >= total) {
        clearInterval(timer);
        setTimeout(() => { observer.disconnect(); resolve({ tokens, longTasks, frames }); }, 500);
      }
    }, 10);
  })`)) as { tokens: number; longTasks: number[]; frames: number };
  const longest = result.longTasks.length ? Math.max(...result.longTasks) : 0;
  console.log(
    `  streaming ${TOKENS_PER_SECOND} tokens/s for ${STREAM_SECONDS} s into ${ITEMS.toLocaleString()} items (${result.tokens} tokens, ${result.frames} frames):`,
  );
  console.log(
    `    long tasks (> 50 ms): ${result.longTasks.length}${result.longTasks.length ? `, longest ${longest.toFixed(0)} ms` : ""} (target: none)`,
  );
  await view.page.context().close();
}

if (/bench[\\/]webview\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  runWebviewBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
