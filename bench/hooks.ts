// What a no-op PreToolUse hook adds to each tool call (issue 31): the hooks middleware around a
// call that does nothing, with a hook `true` from the person's own file (run as written) and the
// same from a workspace (run in the OS sandbox), 20 calls each, medians.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CommandSandbox, sandboxUnavailable } from "../src/core/executor/sandbox";
import type { HookDefinition } from "../src/core/hooks/hookConfig";
import { hooksMiddleware } from "../src/core/middleware/hooks";
import type { RunContext, ToolCallRequest } from "../src/core/middleware/types";
import type { Tool } from "../src/core/tools/tool";

const RUNS = 20;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function perCall(hooks: HookDefinition[], cwd: string, sandbox?: CommandSandbox): Promise<number[]> {
  const mw = hooksMiddleware({ hooks, cwd, sessionId: "bench", ...(sandbox ? { sandbox } : {}) });
  const ctx = {
    signal: new AbortController().signal,
    emit: () => undefined,
    state: { messages: [] },
  } as unknown as RunContext;
  const call = (): ToolCallRequest => ({
    id: "c1",
    name: "read_file",
    tool: { name: "read_file", kind: "read" } as Tool,
    args: { file_path: "/a.txt" },
    turn: [],
  });
  const run = () => mw.wrapToolCall!(call(), ctx, async () => ({ content: "ok" }));
  await run(); // warm-up (the sandbox starts on first use)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

export async function runHooksBench(): Promise<void> {
  console.log(`\n## Hooks: a no-op PreToolUse hook per tool call (median of ${RUNS})`);
  const cwd = mkdtempSync(path.join(tmpdir(), "fathom-hooks-bench-"));
  const hook = (origin: "user" | "workspace"): HookDefinition => ({
    event: "PreToolUse",
    matcher: "",
    command: "true",
    timeoutMs: 60_000,
    failClosed: false,
    origin,
    dialect: "fathom",
    source: "bench",
  });
  const round = (ms: number) => Math.round(ms * 10) / 10;
  try {
    const none = median(await perCall([], cwd));
    const plain = median(await perCall([hook("user")], cwd));
    const figures: Record<string, number | string> = {
      no_hooks_ms: round(none),
      user_hook_ms: round(plain),
      user_hook_added_ms: round(plain - none),
    };
    const problem = sandboxUnavailable();
    if (problem) figures.sandboxed = `skipped: ${problem}`;
    else {
      const sandbox = new CommandSandbox();
      try {
        const sandboxed = median(await perCall([hook("workspace")], cwd, sandbox));
        figures.workspace_hook_sandboxed_ms = round(sandboxed);
        figures.workspace_hook_added_ms = round(sandboxed - none);
      } finally {
        await sandbox.dispose();
      }
    }
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

if (/bench[\\/]hooks\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  runHooksBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
