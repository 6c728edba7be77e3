// The extension host's memory around a 200-step task, raw and after a full garbage collection
// (a probe, not in the bench): `node --import tsx bench/probeMemory.ts [debug]`.
import * as fs from "node:fs";
import * as path from "node:path";
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { buildMemoryProbeVsix } from "../test/vscode/harness/buildSuite";
import { ensureCodeServer, packageFathom, testOutputDir } from "../test/vscode/harness/paths";
import { startSession } from "../test/vscode/harness/workspace";
import { setFathomLogLevelDebug } from "./hostWatchers";
import { measureHostMemory } from "./memoryProbe";

const debug = process.argv.includes("debug");
const mib = (b: number) => (b / 1048576).toFixed(1);
(async () => {
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const probe = await buildMemoryProbeVsix();
  const file = path.join(testOutputDir, "probe-memory.jsonl");
  fs.rmSync(file, { force: true });
  const server = await startScriptedModelServer([]);
  const session = await startSession({
    install,
    extensions: [vsix, probe],
    name: "probe-memory",
    settings: {
      "fathomMemoryProbe.resultFile": file,
      "fathom.provider": "openai-compatible",
      "fathom.baseUrl": server.baseUrlOpenAI,
      "fathom.model": "gpt-4.1",
      "fathom.maxSteps": 300,
    },
  });
  try {
    const page = session.page!;
    await new Promise((r) => setTimeout(r, 5000));
    const empty = await measureHostMemory(page, file);
    const chat = await openChat(page);
    if (debug) await setFathomLogLevelDebug(page);
    await new Promise((r) => setTimeout(r, 5000));
    const idle = await measureHostMemory(page, file);
    for (let i = 0; i < 199; i++)
      server.push({
        text: `Step ${i + 1}: reading more.`,
        toolCalls: [{ name: "read_file", arguments: { file_path: "/src/slugify.js", limit: i + 1 } }],
      });
    server.push({ text: "All 200 steps done." });
    const box = chat.getByRole("textbox", { name: "Message" });
    await box.fill("Read slugify.js 200 times.");
    await box.press("Enter");
    await until(
      "the task's end",
      () => server.pending() === 0 && server.requests.at(-1)?.lastChunkAt !== undefined,
      600_000,
      200,
    );
    await new Promise((r) => setTimeout(r, 3000));
    const after = await measureHostMemory(page, file);
    const show = (name: string, m: typeof empty) =>
      `${name}: RSS ${mib(m.rssBefore - empty.rssBefore)} → after GC ${mib(m.rssAfter - empty.rssAfter)} MiB; heap ${mib(m.heapBefore - empty.heapBefore)} → ${mib(m.heapAfter - empty.heapAfter)} MiB`;
    console.log(
      `${debug ? "debug" : "info"} (over the host before Fathom, which had RSS ${mib(empty.rssAfter)} MiB and a heap of ${mib(empty.heapAfter)} MiB after GC)`,
    );
    console.log(show("  idle", idle));
    console.log(show("  after a 200-step task", after));
  } finally {
    await server.close();
    await session.stop();
    await runCleanups();
  }
})().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
