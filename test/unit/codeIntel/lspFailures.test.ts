// Issue 41: a language server that hangs or dies never hangs the run. Through the tools the
// model calls, on a real typescript-language-server: a stopped (SIGSTOP) server gives a tool
// error after the time limit that says what to do; a killed one is restarted once and answers;
// killed again, the tool error says it is not restarted, and the task goes on.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import type { LspCodeIntelligence } from "../../../src/core/codeIntel/lsp/lspCodeIntelligence";
import type { CommandSandbox } from "../../../src/core/executor/sandbox";
import { signalTree } from "../../../src/core/mcp/processTree";
import { codeIntelligenceMiddleware } from "../../../src/core/middleware/codeIntelligence";
import type { Tool, ToolResult } from "../../../src/core/tools/tool";
import { alive, makeWorkspace, startIntel } from "./lspWorkspace";

const root = makeWorkspace({
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true } }),
  "src/a.ts": `export function answer(): number {\n  return 42;\n}\n`,
  "src/b.ts": `import { answer } from "./a";\nconsole.log(answer());\n`,
});
let intel: LspCodeIntelligence;
let sandbox: CommandSandbox | undefined;
let call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

before(() => {
  ({ intel, sandbox } = startIntel(root, { requestTimeoutMs: 2_000 }));
  const mw = codeIntelligenceMiddleware({ intel, backend: new FilesystemBackend({ rootDir: root }) });
  const byName = new Map(mw.tools!.map((t) => [t.name, t as Tool]));
  call = (name, args) => {
    const tool = byName.get(name)!;
    return tool.run(tool.schema.parse(args), {
      signal: new AbortController().signal,
      toolCallId: "c1",
      run: { workspaceRoot: root },
    } as never);
  };
});
after(async () => {
  await intel.stop();
  await sandbox?.dispose();
  rmSync(root, { recursive: true, force: true });
});

const refs = () => call("find_references", { path: "/src/a.ts", symbol: "answer" });

test("a hung server: a tool error after the time limit, saying what to do", async () => {
  const first = await refs();
  assert.ok(!first.isError, first.content);
  assert.match(first.content, /\/src\/b\.ts/);
  const tree = intel.processes();
  signalTree(tree, "SIGSTOP");
  try {
    const started = Date.now();
    const hung = await refs();
    assert.ok(hung.isError);
    assert.match(hung.content, /did not answer textDocument\/references within 2 s/);
    assert.match(hung.content, /grep and read_file/);
    assert.ok(Date.now() - started < 8_000, "answered within the time limit, not hung");
  } finally {
    signalTree(tree, "SIGCONT");
  }
});

test("a killed server is restarted once and answers; killed again, a tool error", async () => {
  const first = intel.processes();
  signalTree(first, "SIGKILL");
  const again = await refs();
  assert.ok(!again.isError, again.content);
  assert.match(again.content, /\/src\/b\.ts/);
  assert.deepEqual(alive(first), []);

  signalTree(intel.processes(), "SIGKILL");
  await new Promise((r) => setTimeout(r, 300));
  const gone = await refs();
  assert.ok(gone.isError);
  assert.match(gone.content, /restarted once already/);
  assert.match(gone.content, /Use grep and read_file instead/);
});
