// Where the window's first message spends its time before the request (a probe, not in the bench).
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom } from "../test/vscode/harness/paths";
import { startSession } from "../test/vscode/harness/workspace";
import { setFathomLogLevelDebug } from "./hostWatchers";
import { fathomLog } from "./hostLogs";

async function once(): Promise<void> {
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const server = await startScriptedModelServer([{ text: "hi" }]);
  const session = await startSession({
    install,
    extensions: [vsix],
    name: "probe-first",
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
    await new Promise((r) => setTimeout(r, 3000));
    await page.evaluate(
      `(() => { window.__pageMsgs = []; window.addEventListener("message", (e) => { const s = JSON.stringify(e.data ?? "").slice(0, 400); if (s.includes("sendMessage")) window.__pageMsgs.push(Date.now()); }, true); })()`,
    );
    await chat.evaluate(
      `(() => { window.__enter = 0; document.addEventListener("keydown", (e) => { if (e.key === "Enter") window.__enter = Date.now(); }, true); })()`,
    );
    const box = chat.getByRole("textbox", { name: "Message" });
    await box.click();
    await box.fill("hello there");
    await new Promise((r) => setTimeout(r, 1500));
    await box.press("Enter");
    const req = await until("request", () => server.requests[0], 30_000, 5);
    await new Promise((r) => setTimeout(r, 1000));
    const enter = (await chat.evaluate("window.__enter")) as number;
    const pageMsgs = (await page.evaluate("window.__pageMsgs")) as number[];
    const log = fathomLog(session.userDataDir);
    const received = Number(/latency message received @(\d+)/.exec(log)?.[1]);
    const marks = [...log.matchAll(/latency message (.+?) @(\d+)/g)]
      .slice(0, 8)
      .map((m) => `${m[1]} +${Number(m[2]) - received}`);
    console.log(
      marks.join(" | "),
      "|",
      /first task warmed up in \d+ ms/.exec(log)?.[0] ?? "no warm-up",
      "|",
      log
        .split("\n")
        .filter((l) => / \[(info|warning)\] /.test(l))
        .slice(0, 8)
        .map((l) => l.slice(11, 80))
        .join(" / "),
    );
    console.log(
      `enter→page message event ${pageMsgs[0] ? pageMsgs[0] - enter : "none"} ms; enter→host received ${received - enter} ms; host received→request ${req.receivedAt! - received} ms; total ${req.receivedAt! - enter} ms`,
    );
  } finally {
    await server.close();
    await session.stop();
  }
}

(async () => {
  for (let i = 0; i < 5; i++) await once();
  await runCleanups();
})().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
