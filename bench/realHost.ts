// Fathom measured in a real VS Code (issue 7): code-server + headless Chromium, driven by the
// same harness as the end-to-end tests, with the scripted model server playing the model.
//   node --import tsx bench/realHost.ts      (FATHOM_SKIP_PACKAGE=1 reuses the packaged vsix)
// Figures: activation time, model's last chunk of an edit → diff editor / diff card visible,
// the first request for "hello" (characters, tokens), request bytes over the fix-the-test task,
// extension-host memory around a 200-step task, vsix size.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { countTokens } from "gpt-tokenizer";
import type { Frame, Page } from "playwright-core";
import { startScriptedModelServer, type RecordedRequest, type ScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, send, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom, testOutputDir } from "../test/vscode/harness/paths";
import { startSession, type Session } from "../test/vscode/harness/workspace";

const LATENCY_TARGET_MS = 300;
const LONG_TASK_STEPS = Number(process.env.FATHOM_BENCH_STEPS ?? 200);
const EDIT_SAMPLES = 5;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
function line(name: string, value: string, target = "—"): void {
  console.log(`  ${name.padEnd(58)} ${value.padStart(22)}   target: ${target}`);
}

/** Every file under `dir` (recursively). */
function filesUnder(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** "Fathom 0.1.0 activated in N ms" from Fathom's output channel log under the session's user data. */
function activationMs(userDataDir: string): number | undefined {
  for (const file of filesUnder(path.join(userDataDir, "logs")).filter((f) => f.endsWith(".log"))) {
    const m = /activated in (\d+) ms/.exec(fs.readFileSync(file, "utf8"));
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** The extension host of this session: a process with `type=extensionHost` whose environment has our XDG_DATA_HOME. */
function extensionHostPid(session: Session): number | undefined {
  const marker = `XDG_DATA_HOME=${path.join(session.root, "xdg-data")}`;
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!/extensionHost/.test(cmdline)) continue;
      if (fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(marker)) return Number(pid);
    } catch {
      // gone, or not ours
    }
  }
  return undefined;
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : NaN;
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/**
 * Watches for the next diff editor (page) and diff card (webview) to appear, and stamps the
 * first animation frame after each appeared with `Date.now()` (same clock as the server's).
 */
async function armWatchers(page: Page, chat: Frame): Promise<void> {
  // Plain script text: functions passed to evaluate() would carry the bundler's helpers along.
  await page.evaluate(`(() => {
    const w = window;
    if (w.__diffObs) w.__diffObs.disconnect();
    w.__diffAt = undefined;
    w.__diffObs = new MutationObserver(() => {
      const diff = Array.from(document.querySelectorAll(".editor-group-container .monaco-diff-editor")).find(
        (d) => d.offsetParent !== null && d.querySelector(".editor.modified .view-line") !== null);
      if (diff && w.__diffAt === undefined) {
        w.__diffAt = -1;
        requestAnimationFrame(() => (w.__diffAt = Date.now()));
        w.__diffObs.disconnect();
      }
    });
    w.__diffObs.observe(document.body, { childList: true, subtree: true });
  })()`);
  await chat.evaluate(`(() => {
    const w = window;
    if (w.__cardObs) w.__cardObs.disconnect();
    w.__cardAt = undefined;
    const cards = () => document.querySelectorAll('section[aria-label^="Proposed change to"]').length;
    const before = cards();
    w.__cardObs = new MutationObserver(() => {
      if (w.__cardAt === undefined && cards() > before) {
        w.__cardAt = -1;
        requestAnimationFrame(() => (w.__cardAt = Date.now()));
        w.__cardObs.disconnect();
      }
    });
    w.__cardObs.observe(document.body, { childList: true, subtree: true });
  })()`);
}

async function stamps(page: Page, chat: Frame): Promise<{ diffAt: number; cardAt: number }> {
  return until(
    "the diff editor and the diff card",
    async () => {
      const diffAt = (await page.evaluate("window.__diffAt ?? -1")) as number;
      const cardAt = (await chat.evaluate("window.__cardAt ?? -1")) as number;
      return diffAt > 0 && cardAt > 0 ? { diffAt, cardAt } : undefined;
    },
    60_000,
    50,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function runRealHostBench(): Promise<void> {
  console.log("\n## Real VS Code (code-server + headless Chromium, scripted model)");
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const server: ScriptedModelServer = await startScriptedModelServer([]);
  let session: Session | undefined;
  try {
    session = await startSession({
      install,
      extensions: [vsix],
      name: "bench-real-host",
      settings: {
        "fathom.provider": "openai-compatible",
        "fathom.baseUrl": server.baseUrlOpenAI,
        "fathom.model": "gpt-4.1",
        "fathom.maxSteps": LONG_TASK_STEPS + 20,
        "fathom.autoApprove.execute": true,
      },
    });
    const page = session.page!;
    const workspace = session.workspaceDir;

    // Activation: the extension activates when its view opens; it logs how long activate() took.
    const chat = await openChat(page);
    const activation = await until("Fathom's activation log line", () => activationMs(session!.userDataDir), 60_000, 200);

    // The first request of the task "hello".
    server.push({ text: "Hello! What shall we work on?" });
    await send(chat, "hello");
    await chat.getByText("Hello! What shall we work on?").waitFor({ state: "visible", timeout: 60_000 });
    const hello = server.requests[0]!;

    // The fix-the-test task; its edit is the first latency sample.
    await chat.getByRole("button", { name: "New task" }).click();
    await chat.getByRole("button", { name: "Send" }).waitFor({ state: "visible" });
    const taskStart = server.requests.length;
    const latencies: { diff: number; card: number }[] = [];
    // An edit turn held back until the watchers are armed; the request's last chunk is stamped by the server.
    const gatedEdit = (edit: Record<string, unknown>) => {
      const held = { gate: gate(), request: undefined as RecordedRequest | undefined };
      server.push(async (r) => {
        held.request = r;
        await held.gate.promise;
        return { toolCalls: [{ name: "edit_file", arguments: edit }] };
      });
      return held;
    };
    const measure = async (held: ReturnType<typeof gatedEdit>, decide: "Approve" | "Reject") => {
      await until("the edit request", () => held.request, 90_000, 50);
      // Nothing of an earlier proposal is left on screen.
      await until("no diff editor open", async () => (await page.locator(".editor-group-container .monaco-diff-editor").count()) === 0, 30_000);
      await armWatchers(page, chat);
      held.gate.open();
      const { diffAt, cardAt } = await stamps(page, chat);
      const last = await until("the edit's last chunk", () => held.request?.lastChunkAt, 10_000, 20);
      latencies.push({ diff: diffAt - last, card: cardAt - last });
      const card = chat.getByRole("region", { name: /^Proposed change to / }).last();
      await card.getByRole("button", { name: decide }).click();
      await card.getByText(decide === "Approve" ? "Approved" : "Rejected").first().waitFor({ state: "visible", timeout: 30_000 });
    };

    server.push(
      {
        toolCalls: [
          { name: "write_todos", arguments: { todos: [{ content: "Find the bug", status: "in_progress" }, { content: "Fix it", status: "pending" }, { content: "Run the tests", status: "pending" }] } },
          { name: "grep", arguments: { pattern: "replace(", path: "/src", output_mode: "content" } },
        ],
      },
      { toolCalls: [{ name: "read_file", arguments: { file_path: "/src/slugify.js" } }] },
    );
    const fixEdit = gatedEdit({ file_path: "/src/slugify.js", old_string: ".replace(/^-/, '');", new_string: ".replace(/^-+|-+$/g, '');" });
    server.push(
      { toolCalls: [{ name: "execute", arguments: { command: "npm test" } }] },
      { toolCalls: [{ name: "write_todos", arguments: { todos: [{ content: "Find the bug", status: "completed" }, { content: "Fix it", status: "completed" }, { content: "Run the tests", status: "completed" }] } }] },
      { text: "Fixed: slugify trims dashes at both ends; both tests pass." },
    );
    await send(chat, "The test for slugify fails. Find out why and fix it.");
    await measure(fixEdit, "Approve");
    await chat.getByText("Fixed: slugify trims dashes at both ends; both tests pass.").waitFor({ state: "visible", timeout: 90_000 });
    const fixRequests = server.requests.slice(taskStart);
    const fixBytes = fixRequests.reduce((sum, r) => sum + Buffer.byteLength(r.rawBody), 0);

    // More latency samples: edits proposed one after another and rejected (nothing written).
    await chat.getByRole("button", { name: "New task" }).click();
    const cliLines = fs.readFileSync(path.join(workspace, "src", "cli.js"), "utf8").split("\n").filter((l) => l.trim().length > 3);
    server.push({ toolCalls: [{ name: "read_file", arguments: { file_path: "/src/cli.js" } }] });
    const samples = Array.from({ length: EDIT_SAMPLES - 1 }, (_, i) => {
      const old = cliLines[(i + 1) % cliLines.length]!;
      return gatedEdit({ file_path: "/src/cli.js", old_string: old, new_string: `${old} // ${i + 1}` });
    });
    server.push({ text: "Done proposing." });
    await send(chat, "Propose some edits to the CLI.");
    for (const held of samples) await measure(held, "Reject");
    await chat.getByText("Done proposing.").waitFor({ state: "visible", timeout: 60_000 });

    // Extension-host memory around a 200-step task.
    const pid = extensionHostPid(session);
    const before = pid ? rssBytes(pid) : NaN;
    await chat.getByRole("button", { name: "New task" }).click();
    for (let i = 0; i < LONG_TASK_STEPS - 1; i++) {
      server.push({ text: `Step ${i + 1}: reading more.`, toolCalls: [{ name: "read_file", arguments: { file_path: "/src/slugify.js", limit: i + 1 } }] });
    }
    server.push({ text: `All ${LONG_TASK_STEPS} steps done.` });
    const longStart = Date.now();
    await send(chat, "Read slugify.js 200 times.");
    // The answer may be scrolled out of the (virtualized) transcript: wait for the script to be played and the task to end.
    await until("the long task's last answer", () => server.pending() === 0 && server.requests.at(-1)?.lastChunkAt !== undefined, 600_000, 200);
    await chat.getByRole("button", { name: "Send" }).waitFor({ state: "visible", timeout: 60_000 });
    const longMs = Date.now() - longStart;
    const after = pid ? rssBytes(pid) : NaN;

    const helloBody = hello.rawBody;
    const diffs = latencies.map((l) => l.diff);
    const cards = latencies.map((l) => l.card);
    line("extension activation (activate() in the real host)", `${activation} ms`);
    line(`last edit chunk → diff editor painted (median of ${diffs.length})`, `${median(diffs)} ms`, `≤ ${LATENCY_TARGET_MS} ms`);
    line("  all samples", diffs.join(", ") + " ms");
    line(`last edit chunk → diff card painted (median of ${cards.length})`, `${median(cards)} ms`, `≤ ${LATENCY_TARGET_MS} ms`);
    line("  all samples", cards.join(", ") + " ms");
    line('first request for "hello" (JSON body)', `${helloBody.length.toLocaleString()} chars`);
    line('first request for "hello" (gpt-tokenizer o200k, whole body)', `${countTokens(helloBody).toLocaleString()} tokens`);
    line(`fix-the-test task: ${fixRequests.length} requests, bytes sent`, kb(fixBytes));
    line("extension-host RSS before the 200-step task", mb(before));
    line(`extension-host RSS after the 200-step task (${(longMs / 1000).toFixed(1)} s)`, `${mb(after)} (${after >= before ? "+" : ""}${mb(after - before)})`);
    line("vsix", kb(fs.statSync(vsix).size));
  } catch (err) {
    const shot = await session?.page?.screenshot({ path: path.join(testOutputDir, "bench-real-host-failure.png") }).catch(() => undefined);
    if (shot) console.error(`  failure screenshot: test-output/bench-real-host-failure.png (${server.requests.length} model requests, ${server.pending()} turns left)`);
    throw err;
  } finally {
    await server.close();
    await session?.stop();
    await runCleanups();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runRealHostBench().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
