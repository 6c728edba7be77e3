// Issue 12 faults the npm servers do not have, on a fixture server built on the official SDK:
// 200 tools on one server (never more than 128 in a request, every one still reachable), and
// notifications/tools/list_changed refreshing the list.
import { describe, it, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { McpHub } from "../../../src/core/mcp/mcpHub";
import { MAX_TOOLS } from "../../../src/core/mcp/mcpTools";
import type { McpServerConfig } from "../../../src/core/mcp/config";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const FIXTURE = path.resolve(__dirname, "../../support/mcpFixtureServer.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "fathom-many-"));
const config: McpServerConfig = {
  name: "big",
  transport: "stdio",
  command: process.execPath,
  args: [FIXTURE],
  env: {},
  headers: {},
  disabled: false,
  timeoutMs: 20_000,
  autoApprove: [],
  disabledTools: [],
  source: "test",
};
let changes = 0;
const hub = new McpHub([config], { workspaceRoot: dir, onChange: () => changes++ });
before(async () => assert.deepEqual(await hub.start(), []));
after(() => hub.stop());

const approveAll = { request: async () => ({ type: "approve" as const }) };

describe("a server with 200 tools", () => {
  it("all are offered, none up front, and a request never carries more than 128", async () => {
    const { tools, dropped } = hub.tools();
    assert.equal(dropped, 0);
    assert.equal(tools.length, 201); // tool_000 … tool_199 and add_tool
    const many = Array.from({ length: 130 }, (_, i) => ({
      name: `mcp__big__tool_${String(i).padStart(3, "0")}`,
      arguments: { factor: 1 },
    }));
    const model = new FakeModel([
      { toolCalls: many },
      { toolCalls: [{ name: "find_tools", arguments: { query: "tool_199" } }] },
      { toolCalls: [{ name: "mcp__big__tool_199", arguments: { factor: 2 } }] },
      { text: "done" },
    ]);
    const agent = createAgent({ model, workspaceRoot: dir, tools, rules: false, approvalGate: approveAll });
    await collect(agent, "use the tools");
    const first = model.requests[0]!.toolNames;
    assert.ok(first.includes("find_tools"));
    assert.ok(!first.some((n) => n.startsWith("mcp__")), "no MCP tool is sent before it is needed");
    for (const [i, r] of model.requests.entries())
      assert.ok(r.toolNames.length <= MAX_TOOLS, `request ${i} carried ${r.toolNames.length} tools`);
    // The 130 calls by full name all ran (each loads its tool); the oldest were unloaded to stay under 128.
    const results = model.requests[1]!.messages.filter((m) => m.role === "tool");
    assert.equal(results.length, 130);
    assert.equal(results.filter((m) => m.role === "tool" && m.isError).length, 0);
    assert.equal(results.at(-1)!.content, "129");
    assert.ok(model.requests[1]!.toolNames.includes("mcp__big__tool_129"));
    assert.ok(!model.requests[1]!.toolNames.includes("mcp__big__tool_000"));
    // find_tools reaches one past the cap, and its call is answered.
    assert.match(JSON.stringify(model.requests[2]!.messages.at(-1)), /mcp__big__tool_199/);
    assert.ok(model.requests[3]!.toolNames.includes("mcp__big__tool_199"));
    assert.equal(JSON.parse(JSON.stringify(model.requests[3]!.messages.at(-1))).content, "398");
  });

  it("arguments a deferred tool's server rejects come back as an error the model can read", async () => {
    const tool = hub.tools().tools.find((t) => t.name === "mcp__big__tool_007")!;
    const r = await tool.run({ factor: "seven" }, { signal: new AbortController().signal, toolCallId: "x" });
    assert.equal(r.isError, true);
    assert.match(r.content, /factor|number|invalid/i);
  });
});

describe("tools/list_changed", () => {
  it("a tool the server adds at run time is listed without a restart", async () => {
    const add = hub.tools().tools.find((t) => t.name === "mcp__big__add_tool")!;
    const before = changes;
    assert.equal(
      (await add.run({}, { signal: new AbortController().signal, toolCallId: "a" })).content,
      "added added_1",
    );
    const deadline = Date.now() + 5_000;
    while (!hub.tools().tools.some((t) => t.name === "mcp__big__added_1") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    const added = hub.tools().tools.find((t) => t.name === "mcp__big__added_1");
    assert.ok(added, "the new tool is listed");
    assert.ok(changes > before, "the host is told the tools changed");
    assert.equal(
      (await added.run({}, { signal: new AbortController().signal, toolCallId: "b" })).content,
      "added_1 answered",
    );
  });
});
