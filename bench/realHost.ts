// Fathom measured in a real VS Code (issue 7): code-server + headless Chromium, driven by the
// same harness as the end-to-end tests, with the scripted model server playing the model.
//   node --import tsx bench/realHost.ts      (FATHOM_SKIP_PACKAGE=1 reuses the packaged vsix)
// Figures: activation time; p50/p95 over 20+ samples of: the model's last chunk of an edit →
// diff card / diff editor painted, Approve clicked → file on disk, in Edits auto the last chunk
// → file on disk (bench/editsAutoSamples.ts), Enter → the model's request;
// the machine's load meanwhile and, from Fathom's debug log, where the time goes; the first
// request for "hello" (characters, tokens), request bytes over the fix-the-test task,
// extension-host memory around a 200-step task, vsix size.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { countTokens } from "gpt-tokenizer";
import { startScriptedModelServer, type ScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom, testOutputDir } from "../test/vscode/harness/paths";
import { startSession, type Session } from "../test/vscode/harness/workspace";
import { LoadSampler, p50p95, stepGaps } from "./latencyStats";
import { armInputStamps, armTextWatch, setFathomLogLevelDebug, textShownAt } from "./hostWatchers";
import { EditSamples } from "./editSamples";
import { editsAutoToDisk } from "./editsAutoSamples";
import { Figures } from "./figures";
import { markdownAnswer, streamedAnswer } from "./sseTurns";
import { runningExtensionsActivationMs } from "./vscodeFigures";
import { measureChips } from "./chipsHost";
import { measureHostMemory } from "./memoryProbe";
import { buildMemoryProbeVsix } from "../test/vscode/harness/buildSuite";
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

export async function runRealHostBench(): Promise<Figures> {
  console.log("\n## Real VS Code (code-server + headless Chromium, scripted model)");
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const probeVsix = await buildMemoryProbeVsix();
  const memoryFile = path.join(testOutputDir, "bench-memory.jsonl");
  fs.rmSync(memoryFile, { force: true });
  const server: ScriptedModelServer = await startScriptedModelServer([]);
  let session: Session | undefined;
  const load = new LoadSampler();
  const figures = new Figures();
  try {
    session = await startSession({
      install,
      extensions: [vsix, probeVsix],
      name: "bench-real-host",
      settings: {
        "fathomMemoryProbe.resultFile": memoryFile,
        "fathom.provider": "openai-compatible",
        "fathom.baseUrl": server.baseUrlOpenAI,
        "fathom.model": "gpt-4.1",
        "fathom.maxSteps": Math.max(LONG_TASK_STEPS, 4 * SAMPLES) + 20,
        "fathom.autoApprove.execute": true,
      },
    });
    const page = session.page!;
    const workspace = session.workspaceDir;
    // Files with a line per edit sample, so every approved edit changes its own line: JavaScript,
    // plain text (no language server) and TypeScript (its server checks every write).
    const lines = (make: (i: number) => string) =>
      Array.from({ length: 2 * SAMPLES + 5 }, (_, i) => make(i)).join("\n") + "\n";
    const numbersFile = path.join(workspace, "src", "numbers.js");
    fs.writeFileSync(
      numbersFile,
      lines((i) => `export const n${i} = ${i};`),
    );
    fs.writeFileSync(
      path.join(workspace, "notes.txt"),
      lines((i) => `note ${i}`),
    );
    fs.writeFileSync(
      path.join(workspace, "src", "numbers.ts"),
      lines((i) => `export const t${i}: number = ${i};`),
    );

    // The extension host with the workbench's own extensions started, before Fathom activates (its view opens it).
    await new Promise((r) => setTimeout(r, 5000));
    const pid = extensionHostPid(session);
    const emptyHost = pid ? rssBytes(pid) : NaN;
    const emptyGc = await measureHostMemory(page, memoryFile);
    const chat = await openChat(page);
    const activation = await until(
      "Fathom's activation log line",
      () => activationMs(session!.userDataDir),
      60_000,
      200,
    );
    await new Promise((r) => setTimeout(r, 5000));
    const idle = pid ? rssBytes(pid) : NaN;
    const idleGc = await measureHostMemory(page, memoryFile);
    const vscodeActivation = await runningExtensionsActivationMs(page).catch(
      (e: unknown) => (console.error(`  could not read Running Extensions: ${String(e)}`), NaN),
    );
    await armInputStamps(chat);
    const debugLog = await setFathomLogLevelDebug(page).then(
      () => true,
      (e: unknown) => (console.error(`  could not set Fathom's log to Debug: ${String(e)}`), false),
    );
    const message = chat.getByRole("textbox", { name: "Message" });
    const pressEnter = async (text: string) => {
      await message.fill(text);
      await message.press("Enter");
    };

    // The window's first task, written as a person writes it (the box focused, the text typed, a
    // moment, Enter), is a 200-step task: extension-host memory before and after it.
    const before = pid ? rssBytes(pid) : NaN;
    for (let i = 0; i < LONG_TASK_STEPS - 1; i++) {
      server.push({
        text: `Step ${i + 1}: reading more.`,
        toolCalls: [{ name: "read_file", arguments: { file_path: "/src/slugify.js", limit: i + 1 } }],
      });
    }
    server.push({ text: `All ${LONG_TASK_STEPS} steps done.` });
    const longStart = Date.now();
    await message.click();
    await message.fill("Read slugify.js 200 times.");
    await new Promise((r) => setTimeout(r, 1500));
    await message.press("Enter");
    const firstRequest = await until("the first task's request", () => server.requests[0], 60_000, 5);
    const firstTask = firstRequest.receivedAt! - ((await chat.evaluate("window.__enterAt")) as number[])[0]!;
    // The answer may be scrolled out of the (virtualized) transcript: wait for the script to be played and the task to end.
    await until(
      "the long task's last answer",
      () => server.pending() === 0 && server.requests.at(-1)?.lastChunkAt !== undefined,
      600_000,
      200,
    );
    await chat.getByRole("button", { name: "Send" }).waitFor({ state: "visible", timeout: 60_000 });
    const longMs = Date.now() - longStart;
    // Right after the task, the heap still holds its garbage; V8 gives memory back once the host is idle.
    await new Promise((r) => setTimeout(r, 3000));
    const afterSoon = pid ? rssBytes(pid) : NaN;
    await new Promise((r) => setTimeout(r, 17_000));
    const after = pid ? rssBytes(pid) : NaN;
    const afterGc = await measureHostMemory(page, memoryFile);
    await chat.getByRole("button", { name: "New task" }).click();

    // The first request of the task "hello", Enter → request, and the answer's last chunk → its text on screen.
    const enterSamples: number[] = [];
    const textSamples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // A markdown answer of ~1,500 characters streamed at 24 characters every 15 ms; the watch is for its end.
      const body = markdownAnswer(`Hello ${i + 1}`);
      const answer = `The end of answer ${i + 1}.`;
      const before = server.requests.length;
      server.push(streamedAnswer(`${body}\n\n${answer}`));
      await armTextWatch(chat, answer);
      await pressEnter(i === 0 ? "hello" : `hello again (${i + 1})`);
      const request = await until("the message's request", () => server.requests[before], 60_000, 10);
      const shownAt = await textShownAt(chat);
      const lastChunk = await until("the answer's last chunk", () => request.lastChunkAt, 10_000, 10);
      textSamples.push(shownAt - lastChunk);
      const enterAt = ((await chat.evaluate("window.__enterAt")) as number[])[i + 1]!;
      enterSamples.push(request.receivedAt! - enterAt);
    }
    const hello = server.requests[LONG_TASK_STEPS]!;
    // Chips: Ctrl+' → chip on screen, and a "hello" with one 10-line chip (in a task of its own).
    await chat.getByRole("button", { name: "New task" }).click();
    // (An older Fathom without chips, measured for a before/after table, has none to measure.)
    const chips = await measureChips(page, chat, server, SAMPLES).catch(
      (e: unknown) => (
        console.error(`  no chip figures: ${String(e).split("\n")[0]}`),
        { addToShown: [] as number[], requestChars: NaN, requestTokens: NaN }
      ),
    );
    if (chips.addToShown.length === 0)
      await chat
        .getByRole("button", { name: "New task" })
        .click()
        .catch(() => undefined);

    const edits = new EditSamples(page, chat, server, CHUNK_MS);
    // The fix-the-test task; its edit is the first diff editor sample.
    await chat.getByRole("button", { name: "New task" }).click();
    await chat.getByRole("button", { name: "Send" }).waitFor({ state: "visible" });
    const taskStart = server.requests.length;
    server.push(
      {
        toolCalls: [
          {
            name: "write_todos",
            arguments: {
              todos: [
                { content: "Find the bug", status: "in_progress" },
                { content: "Fix it", status: "pending" },
                { content: "Run the tests", status: "pending" },
              ],
            },
          },
          { name: "grep", arguments: { pattern: "replace(", path: "/src", output_mode: "content" } },
        ],
      },
      { toolCalls: [{ name: "read_file", arguments: { file_path: "/src/slugify.js" } }] },
    );
    const fixed = ".replace(/^-+|-+$/g, '');";
    const fixEdit = edits.gated(
      { file_path: "/src/slugify.js", old_string: ".replace(/^-/, '');", new_string: fixed },
      "paced",
    );
    server.push(
      { toolCalls: [{ name: "execute", arguments: { command: "npm test" } }] },
      {
        toolCalls: [
          {
            name: "write_todos",
            arguments: {
              todos: [
                { content: "Find the bug", status: "completed" },
                { content: "Fix it", status: "completed" },
                { content: "Run the tests", status: "completed" },
              ],
            },
          },
        ],
      },
      { text: "Fixed: slugify trims dashes at both ends; both tests pass." },
    );
    await pressEnter("The test for slugify fails. Find out why and fix it.");
    await edits.measure(fixEdit, path.join(workspace, "src", "slugify.js"), fixed, "js");
    await chat
      .getByText("Fixed: slugify trims dashes at both ends; both tests pass.")
      .waitFor({ state: "visible", timeout: 90_000 });
    const fixRequests = server.requests.slice(taskStart);
    const fixBytes = fixRequests.reduce((sum, r) => sum + Buffer.byteLength(r.rawBody), 0);

    // More samples: edits proposed one after another, each approved and written: JavaScript at a
    // model's pace and in one burst, then plain text and TypeScript (Approve → next request).
    await chat.getByRole("button", { name: "New task" }).click();
    server.push({
      toolCalls: [
        { name: "read_file", arguments: { file_path: "/src/numbers.js" } },
        { name: "read_file", arguments: { file_path: "/notes.txt" } },
        { name: "read_file", arguments: { file_path: "/src/numbers.ts" } },
      ],
    });
    const planned = [
      ...Array.from({ length: 2 * SAMPLES }, (_, i) => {
        const next = `export const n${i} = ${i} + 1;`;
        const burst = i >= SAMPLES;
        // Paced edits are the size of an everyday edit (a few lines, ~250 characters); burst ones a line.
        const body = burst
          ? next
          : [
              `/**`,
              ` * n${i}, one more than before: the report adds every n of this file in order,`,
              ` * and its totals were one short for each.`,
              ` */`,
              next,
              `export const n${i}Label = "n${i} (${i} + 1)";`,
            ].join("\n");
        return {
          held: edits.gated(
            { file_path: "/src/numbers.js", old_string: `export const n${i} = ${i};`, new_string: body },
            burst ? "burst" : "paced",
          ),
          file: numbersFile,
          next,
          kind: "js" as const,
        };
      }),
      ...Array.from({ length: SAMPLES }, (_, i) => ({
        held: edits.gated(
          { file_path: "/notes.txt", old_string: `note ${i}\n`, new_string: `note ${i}, done\n` },
          "burst",
        ),
        file: path.join(workspace, "notes.txt"),
        next: `note ${i}, done`,
        kind: "txt" as const,
      })),
      ...Array.from({ length: SAMPLES }, (_, i) => ({
        held: edits.gated(
          {
            file_path: "/src/numbers.ts",
            old_string: `export const t${i}: number = ${i};`,
            new_string: `export const t${i}: number = ${i} + 1;`,
          },
          "burst",
        ),
        file: path.join(workspace, "src", "numbers.ts"),
        next: `t${i}: number = ${i} + 1;`,
        kind: "ts" as const,
      })),
    ];
    server.push({ text: "Done proposing." });
    await pressEnter("Propose some edits to numbers.js, notes.txt and numbers.ts.");
    for (const { held, file, next, kind } of planned) await edits.measure(held, file, next, kind);
    await chat.getByText("Done proposing.").waitFor({ state: "visible", timeout: 60_000 });
    // Edits auto: notes.txt's lines the Approve samples left alone, each edit landing unasked.
    const editsAuto = await editsAutoToDisk({
      chat,
      server,
      file: path.join(workspace, "notes.txt"),
      virtualPath: "/notes.txt",
      edit: (i) => ({ old: `note ${SAMPLES + i}\n`, next: `note ${SAMPLES + i}, done unasked\n` }),
      samples: SAMPLES,
      send: pressEnter,
    });

    const machine = load.stop();

    const mib = (bytes: number) => bytes / 1048576;
    const [firstDiff, ...laterDiffs] = edits.paced.map((l) => l.diff);
    line(
      "machine: 1-minute load average while it ran (mean / max)",
      `${machine.mean.toFixed(2)} / ${machine.max.toFixed(2)} on ${machine.cores} cores`,
    );
    figures.single("activation: VS Code's figure (Running Extensions)", vscodeActivation, "ms", {
      target: "≤ 300 ms",
      limit: 300,
    });
    figures.single("activation: activate() alone (Fathom's log)", activation, "ms");
    figures.samples("the answer's last chunk → its text on screen", textSamples, { target: "≤ 35 ms", limit: 35 });
    figures.samples(
      "the last chunk of an edit → Approve on screen (card painted)",
      edits.paced.map((l) => l.card),
      { target: "≤ 120 ms", limit: 120 },
    );
    figures.samples(
      "  … in one burst",
      edits.burst.map((l) => l.card),
    );
    figures.samples("the last chunk of an edit → diff editor painted", laterDiffs, { target: "≤ 250 ms", limit: 250 });
    figures.single("  … the task's first diff editor", firstDiff ?? NaN, "ms", { target: "≤ 800 ms", limit: 800 });
    figures.samples(
      "  … in one burst",
      edits.burst.map((l) => l.diff),
    );
    figures.samples("Approve → file on disk", edits.approveToDisk, { target: "≤ 100 ms", limit: 100 });
    figures.samples("Edits auto: the last chunk of an edit → file on disk (no card)", editsAuto, {
      target: "≤ 50 ms",
      limit: 50,
    });
    figures.samples("Approve → next request: a plain text file (no language server)", edits.approveToRequest.txt, {
      target: "≤ 250 ms",
      limit: 250,
    });
    figures.samples("Approve → next request: a TypeScript file, no new error", edits.approveToRequest.ts, {
      target: "≤ 400 ms",
      limit: 400,
    });
    figures.samples("Approve → next request: a JavaScript file", edits.approveToRequest.js);
    figures.single("Enter on the window's first task → first request", firstTask, "ms", {
      target: "≤ 100 ms",
      limit: 100,
    });
    figures.samples("Enter → request (later tasks and messages)", enterSamples, { target: "≤ 100 ms", limit: 100 });
    figures.samples("Ctrl+' in the editor → the chip in the message box", chips.addToShown, {
      target: "≤ 50 ms",
      limit: 50,
    });
    figures.single("extension-host RSS idle over the host before Fathom activated", mib(idle - emptyHost), "MiB", {
      target: "≤ 15 MiB",
      limit: 15,
    });
    figures.single(
      `extension-host RSS 20 s after a ${LONG_TASK_STEPS}-step first task, over the host before Fathom`,
      mib(after - emptyHost),
      "MiB",
      { target: "≤ 40 MiB", limit: 40 },
    );
    figures.single("  … 3 s after it", mib(afterSoon - emptyHost), "MiB");
    figures.single(
      "after a full GC: RSS idle over the host before Fathom (both collected)",
      mib(idleGc.rssAfter - emptyGc.rssAfter),
      "MiB",
      { target: "≤ 15 MiB", limit: 15 },
    );
    figures.single(
      "after a full GC: RSS after the 200-step task over the host before Fathom",
      mib(afterGc.rssAfter - emptyGc.rssAfter),
      "MiB",
      { target: "≤ 40 MiB", limit: 40 },
    );
    figures.single(
      "after a full GC: JS heap idle / after the task, over the host before Fathom",
      mib(idleGc.heapAfter - emptyGc.heapAfter),
      "MiB",
    );
    figures.single("  … after the task", mib(afterGc.heapAfter - emptyGc.heapAfter), "MiB");
    figures.single("  … grown during the task (measured 3 s after it)", mib(afterSoon - before), "MiB");
    line(`the ${LONG_TASK_STEPS}-step task took`, `${(longMs / 1000).toFixed(1)} s`);
    figures.single('first request for "hello" (JSON body)', hello.rawBody.length, "chars");
    figures.single('first request for "hello" (gpt-tokenizer o200k)', countTokens(hello.rawBody), "tokens");
    figures.single('first request for "hello" with one 10-line chip', chips.requestTokens, "tokens");
    figures.single(`fix-the-test task: ${fixRequests.length} requests, bytes sent`, fixBytes / 1024, "KB");
    // The budget npm test holds the vsix to (bench/budgets.json; raised past 1.5 MB for web_fetch's page libraries, which docs/user-guide.md accounts for).
    const vsixBudgetKb = Math.round(
      (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "budgets.json"), "utf8")) as { vsixBytes: number })
        .vsixBytes / 1024,
    );
    figures.single("vsix", fs.statSync(vsix).size / 1024, "KB", {
      target: `≤ ${vsixBudgetKb} KB`,
      limit: vsixBudgetKb,
    });
    figures.print();
    if (process.env.FATHOM_BENCH_RAW === "1") {
      for (const [name, xs] of [
        ["cards", edits.paced.map((l) => l.card)],
        ["diffs", laterDiffs],
        ["text", textSamples],
        ["approve→request txt", edits.approveToRequest.txt],
        ["approve→request ts", edits.approveToRequest.ts],
      ] as const)
        console.log(`  ${name}: ${xs.join(" ")}`);
    }
    const log = fathomLog(session.userDataDir);
    const gaps = [...stepGaps(log).entries()].filter(
      ([key]) => !key.startsWith("request sent →") && !key.startsWith("next request sent →"),
    );
    if (gaps.length > 0) {
      line("where the time goes (Fathom's debug log, p50 / p95)", "");
      for (const [key, xs] of gaps) line(`  ${key}`, p50p95(xs));
    } else {
      line(
        "where the time goes",
        debugLog
          ? "(no latency marks found in Fathom's log)"
          : "(no latency marks: Fathom's log is not at debug level)",
      );
    }
    return figures;
  } catch (err) {
    const shot = await session?.page
      ?.screenshot({ path: path.join(testOutputDir, "bench-real-host-failure.png") })
      .catch(() => undefined);
    if (shot)
      console.error(
        `  failure screenshot: test-output/bench-real-host-failure.png (${server.requests.length} model requests, ${server.pending()} turns left)`,
      );
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
