// Where Ctrl+' → chip on screen spends its time (a probe, not in the bench).
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, runCommand, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom } from "../test/vscode/harness/paths";
import { startSession } from "../test/vscode/harness/workspace";
import { setFathomLogLevelDebug } from "./hostWatchers";
import { fathomLog } from "./hostLogs";

(async () => {
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const server = await startScriptedModelServer([]);
  const session = await startSession({
    install,
    extensions: [vsix],
    name: "probe-chip",
    settings: {
      "fathom.provider": "openai-compatible",
      "fathom.baseUrl": server.baseUrlOpenAI,
      "fathom.model": "gpt-4.1",
    },
  });
  try {
    const page = session.page!;
    const chat = await openChat(page);
    await setFathomLogLevelDebug(page);
    await runCommand(page, "Go to File...");
    await page.locator(".quick-input-widget input").fill("slugify.js");
    await page.locator(".quick-input-list .monaco-list-row").filter({ hasText: "slugify.js" }).first().click();
    const editor = page.locator(".editor-group-container .monaco-editor .view-lines").first();
    await editor.waitFor();
    await page.evaluate(
      `(() => { window.__key = []; document.addEventListener("keydown", (e) => { if (e.key === "'" && e.ctrlKey) window.__key.push(Date.now()); }, true); })()`,
    );
    await chat.evaluate(
      `(() => { window.__msg = []; window.__paint = []; window.addEventListener("message", (e) => { if (e.data && e.data.type === "attachments" && e.data.attachments.length) { window.__msg.push(Date.now()); requestAnimationFrame(() => setTimeout(() => {}, 0)); } }, true); new MutationObserver(() => { const n = document.querySelectorAll("ul.chips:not(.sent) li").length; if (n > (window.__n ?? 0)) { window.__n = n; requestAnimationFrame(() => window.__paint.push(Date.now())); } if (n === 0) window.__n = 0; }).observe(document.body, { childList: true, subtree: true }); })()`,
    );
    for (let i = 0; i < 8; i++) {
      await editor.click();
      await page.keyboard.press("Control+G");
      await page.keyboard.type(String(i + 1));
      await page.keyboard.press("Enter");
      await page.keyboard.press("Shift+End");
      await page.keyboard.press("Control+'");
      await until("chip", async () => ((await chat.evaluate("window.__paint.length")) as number) > i, 10_000, 10);
      await chat
        .getByRole("button", { name: /^Remove / })
        .first()
        .click();
      await page.waitForTimeout(300);
    }
    const key = (await page.evaluate("window.__key")) as number[];
    const msg = (await chat.evaluate("window.__msg")) as number[];
    const paint = (await chat.evaluate("window.__paint")) as number[];
    const log = fathomLog(session.userDataDir);
    const cmd = [...log.matchAll(/latency chip command @(\d+)/g)].map((m) => Number(m[1]));
    const posted = [...log.matchAll(/latency chip posted @(\d+)/g)].map((m) => Number(m[1]));
    for (let i = 0; i < key.length; i++)
      console.log(
        `key→command ${cmd[i]! - key[i]!} | command→posted ${posted[i]! - cmd[i]!} | posted→webview message ${msg[i]! - posted[i]!} | message→painted ${paint[i]! - msg[i]!} | total ${paint[i]! - key[i]!}`,
      );
  } finally {
    await server.close();
    await session.stop();
    await runCleanups();
  }
})().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
