// The person's changes to MCP servers while they run (issue 12, items 4 and 7): "Always allow"
// written into their own config file with comments kept, enable/disable, and a changed config
// restarting only the server it changed.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseMcpConfig, withAutoApprovedTool, type McpServerConfig } from "../../../src/core/mcp/config";
import { McpHub } from "../../../src/core/mcp/mcpHub";

const EVERYTHING = path.resolve(
  __dirname,
  "../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
const base = {
  transport: "stdio" as const,
  command: process.execPath,
  args: [EVERYTHING],
  env: {},
  headers: {},
  disabled: false,
  timeoutMs: 20_000,
  autoApprove: [],
  disabledTools: [],
  source: "/home/me/.config/fathom/mcp.json",
};
const hubs: McpHub[] = [];
after(async () => {
  await Promise.all(hubs.map((h) => h.stop()));
});

describe("Always allow, written to the person's file", () => {
  it("adds the tool to autoApprove, keeping comments; keeps the alwaysAllow spelling a file uses", () => {
    const text =
      '{\n  // mine\n  "mcpServers": {\n    "everything": { "command": "npx" },\n    "old": { "command": "x", "alwaysAllow": ["a"] }\n  }\n}\n';
    const once = withAutoApprovedTool(text, "everything", "echo")!;
    assert.match(once, /\/\/ mine/);
    assert.deepEqual(parseMcpConfig(once, "f").servers.find((s) => s.name === "everything")!.autoApprove, ["echo"]);
    assert.equal(withAutoApprovedTool(once, "everything", "echo"), once, "added once");
    const old = withAutoApprovedTool(text, "old", "b")!;
    assert.match(old, /"alwaysAllow": \[\s*"a",\s*"b"\s*\]/);
    const vscodeShape = withAutoApprovedTool(
      '{"servers": {"gh": {"type": "http", "url": "http://127.0.0.1:1/mcp"}}}',
      "gh",
      "search",
    )!;
    assert.deepEqual(parseMcpConfig(vscodeShape, "f").servers[0]!.autoApprove, ["search"]);
    assert.equal(withAutoApprovedTool(text, "nope", "x"), undefined);
  });
});

describe("a running hub", () => {
  it("enable and disable; a changed autoApprove keeps the server running, a changed command restarts only that one", async () => {
    const a: McpServerConfig = { ...base, name: "a" };
    const b: McpServerConfig = { ...base, name: "b", disabled: true };
    const hub = new McpHub([a, b], { workspaceRoot: mkdtempSync(path.join(tmpdir(), "fathom-hub-")) });
    hubs.push(hub);
    assert.deepEqual(await hub.start(), []);
    assert.equal(hub.servers.find((s) => s.name === "b")!.state, "stopped", "a disabled server is not started");
    assert.ok(hub.tools().tools.every((t) => t.name.startsWith("mcp__a__")));
    assert.equal(await hub.setEnabled("b", true), undefined);
    assert.ok(hub.tools().tools.some((t) => t.name.startsWith("mcp__b__")));
    await hub.setEnabled("b", false);
    assert.equal(hub.servers.find((s) => s.name === "b")!.state, "stopped");
    assert.ok(
      !hub.tools().tools.some((t) => t.name.startsWith("mcp__b__")),
      "a disabled server's tools are not offered",
    );

    const pid = hub.servers.find((s) => s.name === "a")!.pid;
    hub.update([{ ...a, autoApprove: ["get-sum"] }, b]);
    const server = hub.servers.find((s) => s.name === "a")!;
    assert.equal(server.state, "ready");
    assert.equal(server.pid, pid, "not restarted");
    assert.equal(hub.tools().tools.find((t) => t.name === "mcp__a__get-sum")!.approval, "auto");
    hub.update([
      { ...a, autoApprove: ["get-sum"], args: [EVERYTHING, "stdio"] },
      { ...base, name: "c" },
    ]);
    assert.deepEqual(
      hub.servers.map((s) => [s.name, s.state]),
      [
        ["a", "stopped"],
        ["c", "stopped"],
      ],
    );
    assert.deepEqual(await hub.start(), []);
    assert.notEqual(hub.servers.find((s) => s.name === "a")!.pid, pid);
  });
});
