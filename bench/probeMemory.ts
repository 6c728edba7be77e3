// The extension host's memory around a 200-step task (a probe, not in the bench):
// `node --import tsx bench/probeMemory.ts [debug]`.
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom } from "../test/vscode/harness/paths";
import { startSession } from "../test/vscode/harness/workspace";
import { setFathomLogLevelDebug } from "./hostWatchers";
import { extensionHostPid, rssBytes } from "./realHost";

const debug = process.argv.includes("debug");
const mib = (b: number) => (b / 1048576).toFixed(1);
(async () => {
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const server = await startScriptedModelServer([]);
  const session = await startSession({ install, extensions: [vsix], name: "probe-memory", codeServerArgs: ["--inspect-extensions=9339"], settings: { "fathom.provider": "openai-compatible", "fathom.baseUrl": server.baseUrlOpenAI, "fathom.model": "gpt-4.1", "fathom.maxSteps": 300 } });
  try {
    const page = session.page!;
    await new Promise((r) => setTimeout(r, 5000));
    const pid = extensionHostPid(session)!;
    const empty = rssBytes(pid);
    const chat = await openChat(page);
    if (debug) await setFathomLogLevelDebug(page);
    await new Promise((r) => setTimeout(r, 5000));
    const idle = rssBytes(pid);
    for (let i = 0; i < 199; i++) server.push({ text: `Step ${i + 1}: reading more.`, toolCalls: [{ name: "read_file", arguments: { file_path: "/src/slugify.js", limit: i + 1 } }] });
    server.push({ text: "All 200 steps done." });
    await chat.getByRole("textbox", { name: "Message" }).fill("Read slugify.js 200 times.");
    await chat.getByRole("textbox", { name: "Message" }).press("Enter");
    await until("the task's end", () => server.pending() === 0 && server.requests.at(-1)?.lastChunkAt !== undefined, 600_000, 200);
    const samples: string[] = [];
    for (const s of [1, 5, 10, 20, 40]) {
      await new Promise((r) => setTimeout(r, (s - (samples.length ? [1, 5, 10, 20, 40][samples.length - 1]! : 0)) * 1000));
      samples.push(`+${s}s ${mib(rssBytes(pid) - empty)}`);
    }
    // Through the extension host's inspector: a full garbage collection, then the heap and RSS.
    const targets = (await (await fetch("http://127.0.0.1:9339/json/list")).json()) as { webSocketDebuggerUrl: string }[];
    const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
    await new Promise((r) => ws.addEventListener("open", r, { once: true }));
    let id = 0;
    const call = (method: string) => new Promise<unknown>((resolve) => {
      const my = ++id;
      const on = (e: MessageEvent) => { const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown }; if (m.id === my) { ws.removeEventListener("message", on); resolve(m.result); } };
      ws.addEventListener("message", on);
      ws.send(JSON.stringify({ id: my, method }));
    });
    await call("HeapProfiler.enable");
    await call("HeapProfiler.collectGarbage");
    await new Promise((r) => setTimeout(r, 2000));
    const heap = (await call("Runtime.getHeapUsage")) as { usedSize: number; totalSize: number };
    console.log(`after a full GC: RSS over empty ${mib(rssBytes(pid) - empty)} MiB; JS heap used ${mib(heap.usedSize)} of ${mib(heap.totalSize)} MiB`);
    ws.close();
    console.log(`${debug ? "debug" : "info"}: idle over empty ${mib(idle - empty)} MiB; after the task over empty: ${samples.join(", ")} MiB`);
  } finally {
    await server.close();
    await session.stop();
    await runCleanups();
  }
})().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
