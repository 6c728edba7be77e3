// Runs the in-host mocha suite inside code-server's extension host, next to the installed
// Fathom, through the test-runner extension, and turns its JSON lines into test results.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { TestEvent } from "../suite/index.js";
import { onCleanup } from "./cleanup.js";
import { tail } from "./codeServer.js";
import { screenshot, type TestResult } from "./e2e.js";
import type { CodeServerInstall } from "./paths.js";
import { startSession, type Session } from "./workspace.js";

export interface Line {
  event: "start" | "test" | "end";
  [key: string]: unknown;
}

export interface InHostOptions {
  install: CodeServerInstall;
  fathomVsix: string;
  runnerVsix: string;
  /** More test-only extensions installed beside them (the scripted language model provider). */
  extraVsix?: string[];
  grep?: string;
  /** Budget for the whole suite after the workbench is up (default 180 s). */
  timeoutMs?: number;
  /** Called as each test ends. */
  onResult(result: TestResult): void;
}

export async function runInHostSuite(o: InHostOptions): Promise<TestResult[]> {
  const results: TestResult[] = [];
  const report = (r: TestResult) => {
    results.push(r);
    o.onResult(r);
  };
  let session: Session | undefined;
  let removeResults: (() => Promise<void>) | undefined;
  const started = Date.now();
  try {
    // The result file lives outside the session dir so it survives the session's cleanup.
    const resultDir = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-inhost-"));
    removeResults = onCleanup("in-host results", () => fs.rmSync(resultDir, { recursive: true, force: true }));
    const resultFile = path.join(resultDir, "results.jsonl");
    session = await startSession({
      install: o.install,
      extensions: [o.fathomVsix, o.runnerVsix, ...(o.extraVsix ?? [])],
      settings: { "fathomTestRunner.resultFile": resultFile, "fathomTestRunner.grep": o.grep ?? "" },
      name: "in-host",
    });
    let seen = 0;
    let ended = false;
    const deadline = Date.now() + (o.timeoutMs ?? 180_000);
    let last = Date.now();
    while (!ended && Date.now() < deadline) {
      const lines = readLines(resultFile);
      for (const line of lines.slice(seen)) {
        if (line.event === "start")
          console.log(`  (extension host: VS Code ${String(line.vscodeVersion)}, Node ${String(line.node)})`);
        if (line.event === "test") {
          const t = line as unknown as TestEvent;
          report({
            name: `[in-host] ${t.title}`,
            ok: t.state !== "failed",
            skipped: t.state === "pending",
            ms: t.durationMs ?? Date.now() - last,
            error: t.error,
          });
          last = Date.now();
        }
        if (line.event === "end") ended = true;
      }
      seen = lines.length;
      if (!ended) await new Promise((r) => setTimeout(r, 250));
    }
    // What the workbench looked like when the suite ended (the Fathom view should be open).
    if (session.page) await screenshot(session.page, ended ? "in-host-end" : "in-host-timeout").catch(() => undefined);
    if (!ended) {
      const hint =
        seen === 0
          ? "the runner extension never started (did the extension host start?)"
          : `last result after ${results.length} test(s)`;
      report({
        name: "[in-host] suite finished",
        ok: false,
        ms: Date.now() - started,
        error: `timed out: ${hint}\n--- extension host log ---\n${extHostLog(session.userDataDir)}`,
      });
    }
  } catch (err) {
    report({
      name: "[in-host] start VS Code with Fathom and the runner",
      ok: false,
      ms: Date.now() - started,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  } finally {
    await session?.stop();
    await removeResults?.();
  }
  return results;
}

export function readLines(file: string): Line[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  // Only complete lines: the runner may be halfway through writing the last one.
  return text
    .split("\n")
    .slice(0, -1)
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);
}

function extHostLog(userDataDir: string): string {
  const logs = path.join(userDataDir, "logs");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/exthost\.log$|remoteexthost\.log$/i.test(entry.name)) found.push(p);
    }
  };
  walk(logs);
  return found.map((f) => tail(f, 30)).join("\n") || "(no extension host log)";
}
