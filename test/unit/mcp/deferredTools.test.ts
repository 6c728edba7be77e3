// Issue 12, item 5: with server-everything and server-filesystem enabled, the first request for
// "hello" stays small (their tools are loaded on demand), a task that needs one gets it in one
// extra call, and a deferred tool called by its full name still works.
import { describe, it, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { McpHub } from "../../../src/core/mcp/mcpHub";
import type { McpServerConfig } from "../../../src/core/mcp/config";
import type { ModelRequest, ModelStreamEvent } from "../../../src/core/model/types";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { FakeModel, type FakeScript } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const ROOT = path.resolve(__dirname, "../../..");
const base = {
  args: [],
  env: {},
  headers: {},
  disabled: false,
  timeoutMs: 20_000,
  autoApprove: [],
  disabledTools: [],
  source: "test",
  transport: "stdio" as const,
};
const dir = mkdtempSync(path.join(tmpdir(), "fathom-defer-"));
writeFileSync(path.join(dir, "a.txt"), "alpha\n");
const configs: McpServerConfig[] = [
  {
    ...base,
    name: "everything",
    command: process.execPath,
    args: [path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")],
  },
  {
    ...base,
    name: "filesystem",
    command: process.execPath,
    args: [path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), dir],
  },
];
const hub = new McpHub(configs, { workspaceRoot: dir });
before(async () => assert.deepEqual(await hub.start(), []));
after(() => hub.stop());

/** FakeModel that also measures each request as the provider would receive it. */
class MeasuredModel extends FakeModel {
  sizes: number[] = [];
  constructor(script: FakeScript[]) {
    super(script);
  }
  override stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.sizes.push(
      JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools }).length,
    );
    return super.stream(request);
  }
}

const agentWith = (model: MeasuredModel) =>
  createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: undefined,
    tools: hub.tools().tools,
    rules: false,
    approvalPolicy: { other: "auto", read: "auto" },
  });

describe("MCP tools on demand", () => {
  it("hello: the first request stays under 12,000 characters and offers find_tools", async () => {
    const all = hub.tools().tools;
    assert.ok(all.length > 20, `${all.length} MCP tools`);
    const model = new MeasuredModel([{ text: "Hello!" }]);
    await collect(agentWith(model), "hello");
    assert.ok(model.sizes[0]! < 12_000, `first request: ${model.sizes[0]} characters`);
    assert.ok(model.requests[0]!.toolNames.includes("find_tools"));
    assert.ok(!model.requests[0]!.toolNames.some((n) => n.startsWith("mcp__")));
    assert.match(model.requests[0]!.system, /everything \(\d+\), filesystem \(\d+\)/);
  });

  it("a task that needs one gets it in one extra call", async () => {
    const model = new MeasuredModel([
      { toolCalls: [{ name: "find_tools", arguments: { query: "echo" } }] },
      (req) => {
        assert.ok(
          req.tools.some((t) => t.name === "mcp__everything__echo"),
          "echo is loaded after find_tools",
        );
        return { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "loaded" } }] };
      },
      { text: "done" },
    ]);
    await collect(agentWith(model), "echo something");
    assert.match(JSON.stringify(model.requests[2]!.messages.at(-1)), /Echo: loaded/);
  });

  it("a deferred tool called by its full name still runs", async () => {
    const model = new MeasuredModel([
      { toolCalls: [{ name: "mcp__everything__get-sum", arguments: { a: 20, b: 22 } }] },
      (req) => {
        assert.ok(
          req.tools.some((t) => t.name === "mcp__everything__get-sum"),
          "and is loaded from then on",
        );
        return { text: "done" };
      },
    ]);
    await collect(agentWith(model), "add");
    assert.match(JSON.stringify(model.requests[1]!.messages.at(-1)), /42/);
  });
});
