// Issue 12: the first request for "hello" with server-everything and server-filesystem enabled,
// as the provider receives it (system prompt, messages and tool schemas), with the MCP tools
// loaded on demand (the default) and all sent up front, beside no MCP at all.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent, runToEnd } from "../src/core/agent/createAgent";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../src/core/executor/childProcessExecutor";
import { McpHub } from "../src/core/mcp/mcpHub";
import type { ChatModel, ModelRequest, ModelStreamEvent } from "../src/core/model/types";
import type { Tool } from "../src/core/tools/tool";

const root = path.resolve(import.meta.dirname, "..");

/** Answers "Hello!" and records how big the request was. */
class SizingModel implements ChatModel {
  readonly provider = "scripted" as const;
  readonly model = "sizing";
  readonly contextWindow = 200_000;
  size = 0;
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.size = JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools }).length;
    yield { type: "text_delta", text: "Hello!" };
    yield {
      type: "done",
      message: { role: "assistant", content: "Hello!" },
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: "end_turn",
    };
  }
}

async function firstRequest(dir: string, tools: Tool[], deferOver?: number): Promise<number> {
  const model = new SizingModel();
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    tools,
    rules: false,
    ...(deferOver !== undefined ? { deferToolsOverChars: deferOver } : {}),
  });
  await runToEnd(agent, "hello");
  return model.size;
}

export async function runMcpBench(): Promise<void> {
  console.log('\n## MCP: first request for "hello" (characters)');
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-mcp-bench-"));
  const base = {
    args: [] as string[],
    env: {},
    headers: {},
    disabled: false,
    timeoutMs: 30_000,
    autoApprove: [],
    disabledTools: [],
    source: "bench",
    transport: "stdio" as const,
  };
  const hub = new McpHub(
    [
      {
        ...base,
        name: "everything",
        command: process.execPath,
        args: [path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")],
      },
      {
        ...base,
        name: "filesystem",
        command: process.execPath,
        args: [path.join(root, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), dir],
      },
    ],
    { workspaceRoot: dir },
  );
  try {
    const started = performance.now();
    const failures = await hub.start();
    const startMs = Math.round(performance.now() - started);
    if (failures.length) throw new Error(failures.join("; "));
    const { tools } = hub.tools();
    console.log(
      JSON.stringify(
        {
          without_mcp: await firstRequest(dir, []),
          mcp_on_demand: await firstRequest(dir, tools),
          mcp_all_up_front: await firstRequest(dir, tools, Number.POSITIVE_INFINITY),
          mcp_tools: tools.length,
          servers_start_ms: startMs,
          target_on_demand: 12_000,
        },
        null,
        2,
      ),
    );
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
