// Where a fresh window's first answer spends its time between the model's first chunk and its
// text on screen (issue 40; a probe, not in the bench): per fresh window, the chunk written → the
// webview's first message of the answer → its text in the DOM → the frame painted, and a CPU
// profile of the webview from that message to that frame (the profiler started before Enter
// through Chromium's DevTools protocol, marks put in by the webview), summed by function.
//   FATHOM_VSIX=x.vsix node --import tsx bench/probeFirstAnswer.ts [N] [--save-profiles]
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CDPSession, Frame, Page } from "playwright-core";
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom, testOutputDir } from "../test/vscode/harness/paths";
import { startFreshWindow } from "./freshWindow";
import { activationMs, fathomLog } from "./hostLogs";
import { setFathomLogLevelDebug } from "./hostWatchers";
import { markdownAnswer, streamedAnswer } from "./sseTurns";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A session on the webview's renderer: its own when it is an out-of-process frame, else the page's. */
async function webviewSession(page: Page, chat: Frame): Promise<CDPSession> {
  return page
    .context()
    .newCDPSession(chat)
    .catch(() => page.context().newCDPSession(page));
}

/**
 * Self time by function (ms), the largest first, of the samples between the webview's two marks
 * (busy loops named __probeMarkMsg and __probeMarkPaint, run when the answer's first message came
 * and when its frame was painted).
 */
function selfTimes(
  profile: Profile,
  beforeMs = 0,
): { window: number; top: [string, number][]; before: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let t = profile.startTime;
  const at = profile.samples.map((_, i) => (t += profile.timeDeltas[i] ?? 0));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const under = (id: number | undefined, name: string): boolean =>
    id !== undefined && (byId.get(id)!.callFrame.functionName === name || under(parent.get(id), name));
  const named = (name: string) => profile.samples.findIndex((id) => under(id, name));
  const from = named("__probeMarkMsg");
  const to = named("__probeMarkPaint");
  const totals = new Map<string, number>();
  for (let i = Math.max(0, from); i < (to === -1 ? profile.samples.length : to); i++) {
    const { functionName, url, lineNumber } = byId.get(profile.samples[i]!)!.callFrame;
    const key = `${functionName || "(anonymous)"} ${path.basename(url)}:${lineNumber + 1}`;
    totals.set(key, (totals.get(key) ?? 0) + ((at[i + 1] ?? at[i]!) - at[i]!) / 1000);
  }
  const window = from === -1 || to === -1 ? NaN : (at[to]! - at[from]!) / 1000;
  // What the renderer (the workbench's too: the webview shares its thread) did in the `beforeMs` before the message.
  const before = new Map<string, number>();
  for (let i = 0; i < from; i++) {
    if (at[from]! - at[i]! > beforeMs * 1000) continue;
    const { functionName, url, lineNumber } = byId.get(profile.samples[i]!)!.callFrame;
    const key = `${functionName || "(anonymous)"} ${path.basename(url)}:${lineNumber + 1}`;
    before.set(key, (before.get(key) ?? 0) + ((at[i + 1] ?? at[i]!) - at[i]!) / 1000);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { window, top: sorted(totals), before: sorted(before) };
}

async function once(install: Awaited<ReturnType<typeof ensureCodeServer>>, vsix: string, i: number): Promise<void> {
  const load = os.loadavg()[0]!;
  const server = await startScriptedModelServer([]);
  const session = await startFreshWindow(install, vsix, server, `probe-first-answer-${i}`);
  try {
    const page = session.page!;
    const chat = await openChat(page);
    await until("activation", () => activationMs(session.userDataDir), 60_000, 100);
    await setFathomLogLevelDebug(page);
    const cdp = await webviewSession(page, chat);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await new Promise((r) => setTimeout(r, 3000));
    await chat.evaluate(`(() => {
      const w = window;
      w.__p = {};
      const busy = () => { const t = performance.now(); while (performance.now() - t < 1) {} };
      w.__probeMarkMsg = function __probeMarkMsg() { busy(); };
      w.__probeMarkPaint = function __probeMarkPaint() { busy(); };
      window.addEventListener("message", (e) => {
        const d = e.data;
        const first = d && ((d.type === "itemAppended" && d.item && d.item.kind === "assistant") || d.type === "textAppended");
        if (first && !w.__p.msg) { w.__p.msg = Date.now(); w.__probeMarkMsg(); }
      }, true);
      const obs = new MutationObserver(() => {
        if (!w.__p.dom && (document.body.textContent || "").includes("Fresh answer.")) {
          w.__p.dom = Date.now();
          obs.disconnect();
          requestAnimationFrame(() => { w.__p.paint = Date.now(); w.__probeMarkPaint(); });
        }
      });
      obs.observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
    server.push(streamedAnswer(`${markdownAnswer("Fresh answer")}\n\nThe end.`));
    const box = chat.getByRole("textbox", { name: "Message" });
    await box.click();
    await box.fill("hello");
    await cdp.send("Profiler.start");
    await new Promise((r) => setTimeout(r, 1500));
    await box.press("Enter");
    const req = await until("request", () => server.requests[0], 30_000, 5);
    const p = await until(
      "painted",
      async () => {
        const v = (await chat.evaluate("window.__p")) as { msg?: number; dom?: number; paint?: number };
        return v.paint ? v : undefined;
      },
      30_000,
      10,
    );
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
    const chunk = req.firstChunkAt!;
    // The output channel's file is written a moment later.
    const log = await until(
      "the marks in Fathom's log",
      () => {
        const text = fathomLog(session.userDataDir);
        return text.includes("first event") ? text : undefined;
      },
      10_000,
      100,
    );
    const mark = (re: RegExp) => Number(re.exec(log)?.[1]);
    const hostAt = mark(/latency request-1 first event @(\d+)/);
    const postingAt = mark(/latency answer posting @(\d+)/);
    const postedAt = mark(/latency answer posted @(\d+)/);
    // (A build without the "posted" marks: what the renderer did in the 50 ms before the message.)
    const { window, top, before } = selfTimes(profile, Number.isFinite(postedAt) ? Math.max(0, p.msg! - postedAt) : 50);
    console.log(
      `window ${i + 1} (load ${load.toFixed(2)}): chunk→host's first event ${hostAt - chunk} ms, → posting ${postingAt - hostAt} ms, → posted ${postedAt - postingAt} ms, → webview message ${p.msg! - postedAt} ms, message→DOM ${p.dom! - p.msg!} ms, DOM→painted ${p.paint! - p.dom!} ms; total ${p.paint! - chunk} ms; message→painted in the profile ${window.toFixed(1)} ms`,
    );
    for (const [fn, ms] of top.slice(0, 12)) console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${fn}`);
    console.log(`  the renderer between "posted" and the webview's message:`);
    for (const [fn, ms] of before.slice(0, 12)) console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${fn}`);
    if (process.argv.includes("--save-profiles"))
      fs.writeFileSync(path.join(testOutputDir, `first-answer-${i + 1}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  } finally {
    await server.close();
    await session.stop();
  }
}

(async () => {
  const n = Number(process.argv[2] ?? 3);
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  for (let i = 0; i < n; i++) await once(install, vsix, i);
  await runCleanups();
})().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
