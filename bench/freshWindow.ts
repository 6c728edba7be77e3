// What a new user sees (issue 40): every sample is a new profile, window and workspace, where the
// person opens the chat, asks "hello" and then for a file. Per sample: VS Code's activation
// figure, Enter → the model's request, the answer's first chunk → its first text on screen and
// last chunk → its whole text on screen (a ~1,500-character markdown answer streamed 24
// characters every 15 ms), the window's first write_file call streamed → Approve on screen and →
// diff editor painted, Approve → file on disk; with the 1-minute load average when it started.
//   npm run bench -- vscode --fresh     (this, then the warm figures, then both side by side)
//   npm run bench -- vscode-fresh       (this alone, beside the last kept warm figures)
// Options: --samples N (or FATHOM_BENCH_FRESH_SAMPLES, default 5); --vsix a.vsix,b.vsix alternates
// the samples between builds (a before/after on one loaded machine), each printed on its own.
import * as os from "node:os";
import * as path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom, testOutputDir } from "../test/vscode/harness/paths";
import { startSession, type Session } from "../test/vscode/harness/workspace";
import { EditSamples } from "./editSamples";
import { Figures, readLast } from "./figures";
import { activationMs } from "./hostLogs";
import { armInputStamps, armTextWatch, textShownAt } from "./hostWatchers";
import { markdownAnswer, streamedAnswer } from "./sseTurns";
import { runningExtensionsActivationMs } from "./vscodeFigures";

/** The write call's arguments stream a token at a time, as in the warm bench (bench/realHost.ts). */
const CHUNK_MS = Number(process.env.FATHOM_BENCH_CHUNK_MS ?? 12);
/** How long the new user looks at the chat before typing, and how long they type. */
const LOOK_MS = 3000;
const TYPE_MS = 1500;

interface FreshSample {
  load: number;
  activation: number;
  activate: number;
  enterToRequest: number;
  firstText: number;
  firstTextWebview: number;
  lastText: number;
  card: number;
  diff: number;
  approveToDisk: number;
}

/** Each fresh figure, its sample field, target, and the warm bench's figure it stands beside. */
const HOPS: { key: keyof FreshSample; name: string; warm?: string; target?: string; limit?: number }[] = [
  {
    key: "activation",
    name: "activation: VS Code's figure (Running Extensions)",
    warm: "activation: VS Code's figure (Running Extensions)",
    target: "≤ 300 ms",
    limit: 300,
  },
  {
    key: "activate",
    name: "activation: activate() alone (Fathom's log)",
    warm: "activation: activate() alone (Fathom's log)",
  },
  {
    key: "enterToRequest",
    name: 'Enter on "hello" → first request',
    warm: "Enter on the window's first task → first request",
    target: "≤ 100 ms",
    limit: 100,
  },
  { key: "firstText", name: "the answer's first chunk → its text on screen", target: "≤ 50 ms", limit: 50 },
  { key: "firstTextWebview", name: "  … of which the webview's: its first message → painted" },
  {
    key: "lastText",
    name: "the answer's last chunk → its text on screen",
    warm: "the answer's last chunk → its text on screen",
    target: "≤ 35 ms",
    limit: 35,
  },
  {
    key: "card",
    name: "the first write's last chunk → Approve on screen",
    warm: "the last chunk of an edit → Approve on screen (card painted)",
    target: "≤ 120 ms",
    limit: 120,
  },
  {
    key: "diff",
    name: "the first write's last chunk → diff editor painted",
    warm: "  … the task's first diff editor",
  },
  {
    key: "approveToDisk",
    name: "Approve → file on disk",
    warm: "Approve → file on disk",
    target: "≤ 100 ms",
    limit: 100,
  },
];

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

type Install = Awaited<ReturnType<typeof ensureCodeServer>>;

/** A new profile, window and workspace with `vsix` installed, Fathom pointed at `server`. */
export function startFreshWindow(install: Install, vsix: string, server: ScriptedModelServer, name: string) {
  return startSession({
    install,
    extensions: [vsix],
    name,
    settings: {
      "fathom.provider": "openai-compatible",
      "fathom.baseUrl": server.baseUrlOpenAI,
      "fathom.model": "gpt-4.1",
    },
  });
}

/** One new profile, window and workspace with `vsix`: the first answer and the first write. */
async function sample(install: Install, vsix: string, i: number) {
  const load = os.loadavg()[0]!;
  const server = await startScriptedModelServer([]);
  let session: Session | undefined;
  try {
    session = await startFreshWindow(install, vsix, server, `bench-fresh-${i}`);
    const page = session.page!;
    const chat = await openChat(page);
    await until("Fathom's activation log line", () => activationMs(session!.userDataDir), 60_000, 100);
    await armInputStamps(chat);
    await new Promise((r) => setTimeout(r, LOOK_MS));

    // "hello": a markdown answer whose first chunk holds "Fresh answer." and whose last holds its end.
    const first = "Fresh answer.";
    const end = "The end of the first answer.";
    server.push(streamedAnswer(`${markdownAnswer(first.slice(0, -1))}\n\n${end}`));
    await armTextWatch(chat, first, "first");
    // When the answer's first message reached the webview (what comes after is the webview's own time).
    await chat.evaluate(`window.addEventListener("message", (e) => {
      const d = e.data;
      if (!window.__answerAt && d && d.type === "itemAppended" && d.item && d.item.kind === "assistant") window.__answerAt = Date.now();
    }, true)`);
    await armTextWatch(chat, end, "last");
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.click();
    await message.fill("hello");
    await new Promise((r) => setTimeout(r, TYPE_MS));
    await message.press("Enter");
    const request = await until("the first request", () => server.requests[0], 60_000, 5);
    const firstShown = await textShownAt(chat, "first");
    const lastShown = await textShownAt(chat, "last");
    const firstChunk = await until("the answer's first chunk", () => request.firstChunkAt, 10_000, 10);
    const lastChunk = await until("the answer's last chunk", () => request.lastChunkAt, 10_000, 10);
    const enterAt = ((await chat.evaluate("window.__enterAt")) as number[])[0]!;
    await chat.getByRole("button", { name: "Send" }).waitFor({ state: "visible", timeout: 60_000 });

    // The window's first write: a new file, its call streamed, approved.
    const edits = new EditSamples(page, chat, server, CHUNK_MS);
    const line = "export const greet = (name) => `Hello, ${name}!`;";
    const content = `// Greets a person by name.\n${line}\n\nexport default greet;\n`;
    const held = edits.gated({ file_path: "/src/greet.js", content }, "paced", "write_file");
    server.push({ text: "Created src/greet.js." });
    await message.fill("Create src/greet.js with a greet function.");
    await message.press("Enter");
    await edits.measure(held, path.join(session.workspaceDir, "src", "greet.js"), line, "js");
    await chat.getByText("Created src/greet.js.").waitFor({ state: "visible", timeout: 60_000 });

    const activation = await runningExtensionsActivationMs(page);
    const s: FreshSample = {
      load,
      activation,
      activate: activationMs(session.userDataDir) ?? NaN,
      enterToRequest: request.receivedAt! - enterAt,
      firstText: firstShown - firstChunk,
      firstTextWebview: firstShown - ((await chat.evaluate("window.__answerAt ?? NaN")) as number),
      lastText: lastShown - lastChunk,
      card: edits.paced[0]!.card,
      diff: edits.paced[0]!.diff,
      approveToDisk: edits.approveToDisk[0]!,
    };
    return s;
  } catch (err) {
    await session?.page
      ?.screenshot({ path: path.join(testOutputDir, `bench-fresh-${i}-failure.png`) })
      .catch(() => undefined);
    throw err;
  } finally {
    await server.close();
    await session?.stop();
  }
}

export interface FreshFigures {
  /** The figures of each build measured (one unless --vsix named several). */
  byBuild: Map<string, Figures>;
}

export async function runFreshWindowBench(): Promise<FreshFigures> {
  const n = Number(option("--samples") ?? process.env.FATHOM_BENCH_FRESH_SAMPLES ?? 5);
  console.log(`\n## Real VS Code, a fresh profile and window per sample (${n} samples)`);
  const install = await ensureCodeServer();
  const builds = option("--vsix")?.split(",") ?? [await packageFathom()];
  const label = (vsix: string) => (builds.length > 1 ? path.basename(vsix, ".vsix") : "this build");
  const samples = new Map<string, FreshSample[]>(builds.map((b) => [b, []]));
  try {
    for (let i = 0; i < n; i++) {
      for (const vsix of builds) {
        const s = await sample(install, vsix, i);
        samples.get(vsix)!.push(s);
        console.log(
          `  sample ${i + 1} (${label(vsix)}, load ${s.load.toFixed(2)}): ` +
            HOPS.map((h) => `${h.key} ${Math.round(s[h.key])}`).join(", "),
        );
      }
    }
  } finally {
    await runCleanups();
  }
  const byBuild = new Map<string, Figures>();
  for (const vsix of builds) {
    const xs = samples.get(vsix)!;
    const figures = new Figures();
    const prefix = builds.length > 1 ? `${label(vsix)}: ` : "";
    console.log(
      `\n  ${label(vsix)}: 1-minute load at each sample's start ${xs.map((s) => s.load.toFixed(2)).join(", ")} on ${os.cpus().length} cores`,
    );
    for (const h of HOPS)
      figures.samples(`${prefix}fresh window: ${h.name}`, xs.map((s) => s[h.key]).filter(Number.isFinite), {
        target: h.target,
        limit: h.limit,
      });
    figures.print();
    for (const h of HOPS) console.log(`    ${h.key}: ${xs.map((s) => Math.round(s[h.key])).join(" ")}`);
    byBuild.set(vsix, figures);
  }
  return { byBuild };
}

/** The fresh-window figures beside the warm ones: this run's warm bench, or else the last kept. */
export function printFreshBesideWarm(fresh: FreshFigures, warm?: Figures): void {
  const last = readLast();
  console.log(`\n## A fresh window beside a warm one (p50; warm: ${warm ? "this run" : "bench/last-figures.json"})`);
  const [first] = fresh.byBuild.values();
  const builds = [...fresh.byBuild.entries()];
  console.log(
    `  ${"hop".padEnd(58)} ${builds.map(([b]) => (builds.length > 1 ? path.basename(b, ".vsix") : "fresh").padStart(12)).join(" ")} ${"warm".padStart(8)}   target`,
  );
  if (!first) return;
  for (const h of HOPS) {
    const values = builds.map(([b, f]) => {
      const prefix = builds.length > 1 ? `${path.basename(b, ".vsix")}: ` : "";
      return f.value(`${prefix}fresh window: ${h.name}`);
    });
    const w = h.warm ? (warm?.value(h.warm) ?? last[h.warm]) : undefined;
    const show = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "—" : `${v} ms`);
    console.log(
      `  ${h.name.padEnd(58)} ${values.map((v) => show(v).padStart(12)).join(" ")} ${show(w).padStart(8)}   ${h.target ?? "—"}`,
    );
  }
}
