// Fathom measured in a real VS Code (issue 7): code-server + headless Chromium, driven by the
// same harness as the end-to-end tests, with the scripted model server playing the model.
//   node --import tsx bench/realHost.ts      (FATHOM_SKIP_PACKAGE=1 reuses the packaged vsix)
// Figures: activation time; p50/p95 over 20+ samples of: the model's last chunk of an edit →
// diff card / diff editor painted, Approve clicked → file on disk, Enter → the model's request;
// the machine's load meanwhile and, from Fathom's debug log, where the time goes; the first
// request for "hello" (characters, tokens), request bytes over the fix-the-test task,
// extension-host memory around a 200-step task, vsix size.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { countTokens } from "gpt-tokenizer";
import type { Frame, Page } from "playwright-core";
import { startScriptedModelServer, type RecordedRequest, type ScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, runCommand, send, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom, testOutputDir } from "../test/vscode/harness/paths";
import { startSession, type Session } from "../test/vscode/harness/workspace";
import { LoadSampler, p50p95, stepGaps } from "./latencyStats";
import { measureChips } from "./chipsHost";
import { activationMs, fathomLog } from "./hostLogs";

const LONG_TASK_STEPS = Number(process.env.FATHOM_BENCH_STEPS ?? 200);
/** Samples per step (the issue asks for at least 20). */
const SAMPLES = Number(process.env.FATHOM_BENCH_SAMPLES ?? 21);
/**
 * A model streams an edit's arguments a token at a time: 12 ms per chunk is about 80 tokens a
 * second, a fast hosted model's pace (the scripted chunks are 1-4 characters). The same edits
 * are also measured in one burst (every chunk at once), where nothing can happen before the end.
 */
const CHUNK_MS = Number(process.env.FATHOM_BENCH_CHUNK_MS ?? 12);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
function line(name: string, value: string, target = "—"): void {
  console.log(`  ${name.padEnd(58)} ${value.padStart(22)}   target: ${target}`);
}

/** The extension host of this session: a process with `type=extensionHost` whose environment has our XDG_DATA_HOME. */
export function extensionHostPid(session: Session): number | undefined {
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

export function rssBytes(pid: number): number {
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
async function armWatchers(page: Page, chat: Frame, proposed: string): Promise<void> {
  // Plain script text: functions passed to evaluate() would carry the bundler's helpers along.
  // The diff counts once its right side shows the proposal (a diff opened while the model wrote
  // shows the file unchanged until then); the editor renders spaces as U+00A0.
  await page.evaluate(`(() => {
    const w = window;
    const proposed = ${JSON.stringify(proposed)};
    if (w.__diffObs) w.__diffObs.disconnect();
    w.__diffAt = undefined;
    w.__diffObs = new MutationObserver(() => {
      const diff = Array.from(document.querySelectorAll(".editor-group-container .monaco-diff-editor")).find(
        (d) => d.offsetParent !== null && Array.from(d.querySelectorAll(".editor.modified .view-lines")).some((v) => (v.textContent ?? "").replace(/\u00a0/g, " ").includes(proposed)));
      if (diff && w.__diffAt === undefined) {
        w.__diffAt = -1;
        requestAnimationFrame(() => (w.__diffAt = Date.now()));
        w.__diffObs.disconnect();
      }
    });
    w.__diffObs.observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`);
  await chat.evaluate(`(() => {
    const w = window;
    if (w.__cardObs) w.__cardObs.disconnect();
    w.__cardAt = undefined;
    // A card waiting for the person (older ones are decided, or scrolled out of the virtualized list).
    const pendingCard = () => Array.from(document.querySelectorAll('section[aria-label^="Proposed change to"] button'))
      .some((b) => b.textContent && b.textContent.trim() === "Approve");
    w.__cardObs = new MutationObserver(() => {
      if (w.__cardAt === undefined && pendingCard()) {
        w.__cardAt = -1;
        requestAnimationFrame(() => (w.__cardAt = Date.now()));
        w.__cardObs.disconnect();
      }
    });
    w.__cardObs.observe(document.body, { childList: true, subtree: true });
    // When the host's message with the pending card reached the webview (transit vs render).
    w.__cardMsgAt = undefined;
    if (!w.__cardMsgListener) {
      w.__cardMsgListener = true;
      window.addEventListener("message", (e) => {
        const d = e.data;
        if (w.__cardMsgAt === undefined && d && d.type === "itemUpdated" && d.item && d.item.status === "awaiting_approval") w.__cardMsgAt = Date.now();
      }, true);
    }
  })()`);
}

async function stamps(page: Page, chat: Frame): Promise<{ diffAt: number; cardAt: number; cardMsgAt: number }> {
  let seen = { diffAt: -1, cardAt: -1, cardMsgAt: -1 };
  return until(
    "the diff editor and the diff card",
    async () => {
      const diffAt = (await page.evaluate("window.__diffAt ?? -1")) as number;
      const cardAt = (await chat.evaluate("window.__cardAt ?? -1")) as number;
      const cardMsgAt = (await chat.evaluate("window.__cardMsgAt ?? -1")) as number;
      seen = { diffAt, cardAt, cardMsgAt };
      return diffAt > 0 && cardAt > 0 ? seen : undefined;
    },
    60_000,
    50,
  ).catch((e: unknown) => {
    throw new Error(`${(e as Error).message} (${seen.diffAt > 0 ? "the diff was seen" : "no diff showing the proposal"}, ${seen.cardAt > 0 ? "the card was seen" : "no card"})`);
  });
}

/** Stamps (in the chat webview) when the person presses Enter in the message box and when they press the next Approve. */
async function armInputStamps(chat: Frame): Promise<void> {
  await chat.evaluate(`(() => {
    const w = window;
    if (w.__inputStamps) return;
    w.__inputStamps = true;
    w.__enterAt = [];
    w.__approveAt = [];
    document.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && e.target instanceof HTMLTextAreaElement) w.__enterAt.push(Date.now());
    }, true);
    document.addEventListener("click", (e) => {
      const b = e.target instanceof Element ? e.target.closest("button") : null;
      if (b && b.textContent && b.textContent.trim() === "Approve") w.__approveAt.push(Date.now());
    }, true);
  })()`);
}

/** Polls a file (every 2 ms) until `done(text)`; the `Date.now()` it was first seen so. */
async function whenFile(file: string, done: (text: string) => boolean, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      // not there yet
    }
    if (done(text)) return Date.now();
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${file} to be written`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** "Developer: Set Log Level…" → Fathom → Debug, as a person does: the latency marks are debug lines. */
async function setFathomLogLevelDebug(page: Page): Promise<void> {
  await runCommand(page, "Developer: Set Log Level...");
  const rows = page.locator(".quick-input-list .monaco-list-row");
  const input = page.locator(".quick-input-widget input");
  await input.fill("Fathom");
  await rows.filter({ hasText: "Fathom" }).first().click({ timeout: 15_000 });
  await input.fill("Debug");
  await rows.filter({ hasText: "Debug" }).first().click({ timeout: 15_000 });
}

export async function runRealHostBench(): Promise<void> {
  console.log("\n## Real VS Code (code-server + headless Chromium, scripted model)");
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const server: ScriptedModelServer = await startScriptedModelServer([]);
  let session: Session | undefined;
  const load = new LoadSampler();
  try {
    session = await startSession({
      install,
      extensions: [vsix],
      name: "bench-real-host",
      settings: {
        "fathom.provider": "openai-compatible",
        "fathom.baseUrl": server.baseUrlOpenAI,
        "fathom.model": "gpt-4.1",
        "fathom.maxSteps": Math.max(LONG_TASK_STEPS, 2 * SAMPLES) + 20,
        "fathom.autoApprove.execute": true,
      },
    });
    const page = session.page!;
    const workspace = session.workspaceDir;
    // A file with a line per edit sample, so every approved edit changes its own line.
    const numbersFile = path.join(workspace, "src", "numbers.js");
    fs.writeFileSync(numbersFile, Array.from({ length: 2 * SAMPLES + 5 }, (_, i) => `export const n${i} = ${i};`).join("\n") + "\n");

    // Activation: the extension activates when its view opens; it logs how long activate() took.
    const chat = await openChat(page);
    const activation = await until("Fathom's activation log line", () => activationMs(session!.userDataDir), 60_000, 200);
    await armInputStamps(chat);
    const debugLog = await setFathomLogLevelDebug(page).then(() => true, (e: unknown) => (console.error(`  could not set Fathom's log to Debug: ${String(e)}`), false));
    const message = chat.getByRole("textbox", { name: "Message" });
    const pressEnter = async (text: string) => {
      await message.fill(text);
      await message.press("Enter");
    };

    // The first request of the task "hello", and Enter → request samples (answers shown before the next).
    const enterSamples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const answer = `Hello ${i + 1}! What shall we work on?`;
      const before = server.requests.length;
      server.push({ text: answer });
      await pressEnter(i === 0 ? "hello" : `hello again (${i + 1})`);
      const request = await until("the message's request", () => server.requests[before], 60_000, 10);
      await chat.getByText(answer).waitFor({ state: "visible", timeout: 60_000 });
      const enterAt = ((await chat.evaluate("window.__enterAt")) as number[])[i]!;
      enterSamples.push(request.receivedAt! - enterAt);
    }
    const hello = server.requests[0]!;
    // Chips: Ctrl+' → chip on screen, and a "hello" with one 10-line chip (in a task of its own).
    await chat.getByRole("button", { name: "New task" }).click();
    const chips = await measureChips(page, chat, server, SAMPLES);

    // The fix-the-test task; its edit is the first diff editor sample.
    await chat.getByRole("button", { name: "New task" }).click();
    await chat.getByRole("button", { name: "Send" }).waitFor({ state: "visible" });
    const taskStart = server.requests.length;
    type Sample = { diff: number; card: number; cardMsg: number };
    const samples: Sample[] = [];
    const burstSamples: Sample[] = [];
    const approveToDisk: number[] = [];
    // An edit turn held back until the watchers are armed; the request's last chunk is stamped by the server.
    const gatedEdit = (edit: Record<string, unknown>, chunkDelayMs = CHUNK_MS) => {
      const held = { gate: gate(), request: undefined as RecordedRequest | undefined, into: samples };
      server.push(async (r) => {
        held.request = r;
        await held.gate.promise;
        return { toolCalls: [{ name: "edit_file", arguments: edit }], chunkDelayMs };
      });
      return held;
    };
    /** `written`: a line of the proposal, shown in the diff and then on disk. */
    const measure = async (held: ReturnType<typeof gatedEdit>, file: string, written: string) => {
      await until("the edit request", () => held.request, 90_000, 20);
      // Nothing of an earlier proposal is left on screen.
      await until("no diff editor open", async () => (await page.locator(".editor-group-container .monaco-diff-editor").count()) === 0, 30_000);
      await armWatchers(page, chat, written);
      held.gate.open();
      const { diffAt, cardAt, cardMsgAt } = await stamps(page, chat);
      const last = await until("the edit's last chunk", () => held.request?.lastChunkAt, 10_000, 20);
      held.into.push({ diff: diffAt - last, card: cardAt - last, cardMsg: cardMsgAt - last });
      const clicks = ((await chat.evaluate("window.__approveAt")) as number[]).length;
      const onDisk = whenFile(file, (text) => text.includes(written));
      await chat.getByRole("region", { name: /^Proposed change to / }).last().getByRole("button", { name: "Approve" }).click();
      const writtenAt = await onDisk;
      const clickedAt = ((await chat.evaluate("window.__approveAt")) as number[])[clicks]!;
      approveToDisk.push(writtenAt - clickedAt);
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
    const fixed = ".replace(/^-+|-+$/g, '');";
    const fixEdit = gatedEdit({ file_path: "/src/slugify.js", old_string: ".replace(/^-/, '');", new_string: fixed });
    server.push(
      { toolCalls: [{ name: "execute", arguments: { command: "npm test" } }] },
      { toolCalls: [{ name: "write_todos", arguments: { todos: [{ content: "Find the bug", status: "completed" }, { content: "Fix it", status: "completed" }, { content: "Run the tests", status: "completed" }] } }] },
      { text: "Fixed: slugify trims dashes at both ends; both tests pass." },
    );
    await pressEnter("The test for slugify fails. Find out why and fix it.");
    await measure(fixEdit, path.join(workspace, "src", "slugify.js"), fixed);
    await chat.getByText("Fixed: slugify trims dashes at both ends; both tests pass.").waitFor({ state: "visible", timeout: 90_000 });
    const fixRequests = server.requests.slice(taskStart);
    const fixBytes = fixRequests.reduce((sum, r) => sum + Buffer.byteLength(r.rawBody), 0);

    // More samples: edits proposed one after another, each approved and written.
    await chat.getByRole("button", { name: "New task" }).click();
    server.push({ toolCalls: [{ name: "read_file", arguments: { file_path: "/src/numbers.js" } }] });
    const edits = Array.from({ length: 2 * SAMPLES }, (_, i) => {
      const next = `export const n${i} = ${i} + 1;`;
      const burst = i >= SAMPLES;
      // Paced edits are the size of an everyday edit (a few lines, ~250 characters); burst ones a line.
      const body = burst ? next : [`/**`, ` * n${i}, one more than before: the report adds every n of this file in order,`, ` * and its totals were one short for each.`, ` */`, next, `export const n${i}Label = "n${i} (${i} + 1)";`].join("\n");
      const held = gatedEdit({ file_path: "/src/numbers.js", old_string: `export const n${i} = ${i};`, new_string: body }, burst ? 0 : CHUNK_MS);
      if (burst) held.into = burstSamples;
      return { held, next };
    });
    server.push({ text: "Done proposing." });
    await pressEnter("Propose some edits to numbers.js.");
    for (const { held, next } of edits) await measure(held, numbersFile, next);
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
    const machine = load.stop();

    const helloBody = hello.rawBody;
    const [firstDiff, ...laterDiffs] = samples.map((l) => l.diff);
    const cards = samples.map((l) => l.card);
    line("extension activation (activate() in the real host)", `${activation} ms`);
    line("machine: 1-minute load average while it ran (mean / max)", `${machine.mean.toFixed(2)} / ${machine.max.toFixed(2)} on ${machine.cores} cores`);
    line("step (p50 / p95)", "", "p50 / p95");
    line("  model's last chunk of an edit → diff card painted", p50p95(cards), "≤ 100 / ≤ 250 ms");
    line("    … of which: the card's message reaches the webview", p50p95(samples.map((l) => l.cardMsg).filter((x) => x > -1e12)));
    line("  model's last chunk of an edit → diff editor painted", p50p95(laterDiffs), "≤ 250 / ≤ 500 ms");
    line("  … the task's first diff editor", `${firstDiff} ms`, "≤ 800 ms");
    line(`  (above: arguments streamed at ${CHUNK_MS} ms a chunk; below: the same edits in one burst)`, "");
    line("  model's last chunk of an edit → diff card painted (burst)", p50p95(burstSamples.map((l) => l.card)));
    line("  model's last chunk of an edit → diff editor painted (burst)", p50p95(burstSamples.map((l) => l.diff)));
    line("  person clicks Approve → file on disk", p50p95(approveToDisk), "≤ 100 / ≤ 300 ms");
    if (process.env.FATHOM_BENCH_RAW === "1") {
      for (const [name, xs] of [["cards", cards], ["diffs", laterDiffs], ["cards (burst)", burstSamples.map((l) => l.card)], ["diffs (burst)", burstSamples.map((l) => l.diff)]] as const) console.log(`  ${name}: ${xs.join(" ")}`);
    }
    line("  person presses Enter → first request reaches the model", p50p95(enterSamples), "≤ 100 / ≤ 200 ms");
    const log = fathomLog(session.userDataDir);
    const gaps = [...stepGaps(log).entries()].filter(([key]) => !key.startsWith("request sent →") && !key.startsWith("next request sent →"));
    if (gaps.length > 0) {
      line("where the time goes (Fathom's debug log, p50 / p95)", "");
      for (const [key, xs] of gaps) line(`  ${key}`, p50p95(xs));
    } else {
      line("where the time goes", debugLog ? "(no latency marks found in Fathom's log)" : "(no latency marks: Fathom's log is not at debug level)");
    }
    line('first request for "hello" (JSON body)', `${helloBody.length.toLocaleString()} chars`);
    line('first request for "hello" (gpt-tokenizer o200k, whole body)', `${countTokens(helloBody).toLocaleString()} tokens`);
    line("  Ctrl+' in the editor → the chip in the message box", p50p95(chips.addToShown), "≤ 50 ms p50");
    line('  first request for "hello" with one 10-line chip', `${chips.requestChars.toLocaleString()} chars, ${chips.requestTokens.toLocaleString()} tokens`);
    line(`fix-the-test task: ${fixRequests.length} requests, bytes sent`, kb(fixBytes));
    line(`extension-host RSS before the ${LONG_TASK_STEPS}-step task`, mb(before));
    line(`extension-host RSS after the ${LONG_TASK_STEPS}-step task (${(longMs / 1000).toFixed(1)} s)`, `${mb(after)} (${after >= before ? "+" : ""}${mb(after - before)})`);
    line("vsix", kb(fs.statSync(vsix).size));
  } catch (err) {
    const shot = await session?.page?.screenshot({ path: path.join(testOutputDir, "bench-real-host-failure.png") }).catch(() => undefined);
    if (shot) console.error(`  failure screenshot: test-output/bench-real-host-failure.png (${server.requests.length} model requests, ${server.pending()} turns left)`);
    throw err;
  } finally {
    load.stop();
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
