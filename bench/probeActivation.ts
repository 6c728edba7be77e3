// Activation in a fresh profile (issue 40): VS Code's figure (Running Extensions) and Fathom's own
// log line, in N new profiles and windows (a probe, not in the bench). `FATHOM_SKIP_PACKAGE=1`
// measures the newest vsix as it is. Usage: node --import tsx bench/probeActivation.ts [N]
import os from "node:os";
import { openChat, until } from "../test/vscode/harness/chat";
import { runCleanups } from "../test/vscode/harness/cleanup";
import { ensureCodeServer, packageFathom } from "../test/vscode/harness/paths";
import { startSession } from "../test/vscode/harness/workspace";
import { activationMs, fathomLog } from "./hostLogs";
import { runningExtensionsActivationMs } from "./vscodeFigures";

const runs = Number(process.argv[2] ?? 3);
async function main(): Promise<void> {
  const install = await ensureCodeServer();
  const vsix = await packageFathom();
  const rows: string[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const load = os.loadavg()[0]!.toFixed(2);
      const session = await startSession({ install, extensions: [vsix], name: `probe-activation-${i}` });
      try {
        const page = session.page!;
        await openChat(page);
        const own = await until("Fathom's activation log line", () => activationMs(session.userDataDir), 30_000, 100);
        const vscodeMs = await runningExtensionsActivationMs(page);
        const steps = /activate steps: (.*)/.exec(fathomLog(session.userDataDir))?.[1] ?? "";
        rows.push(`fresh window ${i + 1}: VS Code ${vscodeMs} ms, activate() ${own} ms (load ${load}) ${steps}`);
        console.log(rows.at(-1));
      } finally {
        await session.stop();
      }
    }
  } finally {
    await runCleanups();
  }
}

void main();
