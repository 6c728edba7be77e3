// Tasks at once in a real VS Code (issue 20): code-server + headless Chromium, the scripted
// model server, a workspace that is a git repository of 10,000 files. Figures: a new task's
// Send → its first model request, in the folder and in a new worktree; the extension host's
// memory with 1, 2 and 3 tasks running (each waiting on an approval), per task.
//   node --import tsx bench/parallelHost.ts      (FATHOM_SKIP_PACKAGE=1 reuses the packaged vsix)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom, testOutputDir } from "../test/vscode/harness/paths";
import { startSession, type Session } from "../test/vscode/harness/workspace";
import { LoadSampler, percentile } from "./latencyStats";
import { extensionHostPid, rssBytes } from "./realHost";

const FILES = 10_000;
const SAMPLES = 3;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function addFilesAndCommit(dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(dir, "bulk", `m${Math.floor(i / 100)}`);
    if (i % 100 === 0) fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `f${i}.ts`), `export const value${i} = ${i};\n`);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "files");
}

export async function runParallelHostBench(): Promise<void> {
  console.log(
    `\n## Tasks at once in a real VS Code (code-server; a git repository of ${FILES.toLocaleString()} files)`,
  );
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const server = await startScriptedModelServer([]);
  let session: Session | undefined;
  const load = new LoadSampler();
  try {
    session = await startSession({
      install,
      extensions: [vsix],
      name: "bench-parallel-host",
      prepare: addFilesAndCommit,
      settings: {
        "fathom.provider": "openai-compatible",
        "fathom.baseUrl": server.baseUrlOpenAI,
        "fathom.model": "gpt-4.1",
        "fathom.tasks.maxParallel": 3,
      },
    });
    const page = session.page!;
    const chat = await openChat(page);
    const pid = extensionHostPid(session);
    const message = chat.getByRole("textbox", { name: "Message" });
    const worktreeBox = chat.getByRole("checkbox", { name: /Worktree/ });

    /** Send in a new task; the time until its first request reaches the model. */
    const start = async (
      text: string,
      inWorktree: boolean,
      answer: Parameters<typeof server.push>[0],
    ): Promise<number> => {
      await worktreeBox.waitFor({ state: "visible", timeout: 60_000 });
      if ((await worktreeBox.isChecked()) !== inWorktree) await worktreeBox.setChecked(inWorktree);
      await message.fill(text);
      const before = server.requests.length;
      server.push(answer);
      const sent = Date.now();
      await message.press("Enter");
      const request = await until("the task's first request", () => server.requests[before], 120_000, 5);
      return request.receivedAt! - sent;
    };
    const newTask = () => chat.getByRole("button", { name: "New task", exact: true }).click();

    // Warm-up and the folder figures: tasks that answer at once.
    const inFolder: number[] = [];
    for (let i = 0; i < SAMPLES + 1; i++) {
      const ms = await start(`Say hello ${i}`, false, { text: `Hello ${i}.` });
      if (i > 0) inFolder.push(ms);
      await chat.getByText(`Hello ${i}.`).waitFor({ state: "visible", timeout: 60_000 });
      await newTask();
    }
    await new Promise((r) => setTimeout(r, 2000));
    const base = pid ? rssBytes(pid) : NaN;

    // Three tasks in worktrees, each left waiting on an approval: they stay running.
    const inWorktree: number[] = [];
    const rss: number[] = [];
    for (let i = 0; i < 3; i++) {
      if (i > 0) await newTask();
      inWorktree.push(
        await start(`Write note ${i}`, true, {
          toolCalls: [
            { id: `w${i}`, name: "write_file", arguments: { file_path: `/note-${i}.md`, content: `note ${i}\n` } },
          ],
        }),
      );
      await chat.getByRole("button", { name: "Approve" }).first().waitFor({ state: "visible", timeout: 60_000 });
      await new Promise((r) => setTimeout(r, 1500));
      rss.push(pid ? rssBytes(pid) : NaN);
    }
    const machine = load.stop();
    const p50 = (xs: number[]) => `${Math.round(percentile(xs, 50))} ms`;
    console.log(
      `  Send → first model request, a new task in the folder: p50 ${p50(inFolder)} (${inFolder.join(", ")} ms)`,
    );
    console.log(
      `  Send → first model request, a new task in a new worktree: p50 ${p50(inWorktree)} (${inWorktree.join(", ")} ms; git worktree add of ${FILES.toLocaleString()} files included)`,
    );
    console.log(
      `  extension-host RSS: ${mb(base)} idle after ${SAMPLES + 1} tasks; with 1, 2, 3 tasks running: ${rss.map(mb).join(", ")} (+${mb((rss[2]! - base) / 3)} per running task)`,
    );
    console.log(
      `  machine: 1-minute load average while it ran ${machine.mean.toFixed(2)} (max ${machine.max.toFixed(2)}) on ${machine.cores} cores`,
    );
  } catch (err) {
    await session?.page
      ?.screenshot({ path: path.join(testOutputDir, "bench-parallel-host-failure.png") })
      .catch(() => undefined);
    throw err;
  } finally {
    load.stop();
    await server.close();
    await session?.stop();
    await runCleanups();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runParallelHostBench().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
