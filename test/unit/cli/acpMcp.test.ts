// MCP servers an editor passes in session/new: started inside the OS sandbox, their tools asked
// in the editor; without the sandbox they are not started, and stderr says why.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import type { McpServer } from "@agentclientprotocol/sdk";
import { connect, server, workspace } from "./acpClientKit";

const ROOT = path.resolve(__dirname, "../../..");
const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const editorServer: McpServer = {
  name: "everything",
  command: process.execPath,
  args: [EVERYTHING],
  env: [{ name: "FATHOM_EDITOR_VALUE", value: "set-by-the-editor" }],
};
const echoTurns = () => [
  {
    toolCalls: [
      { id: "e1", name: "mcp__everything__echo", arguments: { message: "ping from the editor's server" } },
      { id: "e2", name: "mcp__everything__get-env", arguments: {} },
    ],
  },
  { text: "Echoed." },
];
const toolResults = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === "tool")
    .map((m) => m.content)
    .join("\n");

test(
  "an editor's stdio MCP server starts in the sandbox with the editor's environment; its read-only tools run as any server's",
  { timeout: 90_000 },
  async () => {
    const s = await server(echoTurns());
    const c = connect(s, () => "allow_once", { sandbox: true });
    await c.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await c.agent.request("session/new", { cwd: workspace(), mcpServers: [editorServer] });
    const answer = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "echo" }] });
    assert.equal(answer.stopReason, "end_turn", c.stderr());
    const results = toolResults(s.requests[1]!.body);
    assert.match(results, /Echo: ping from the editor's server/);
    assert.match(results, /FATHOM_EDITOR_VALUE.{0,4}set-by-the-editor/);
    // Annotated read-only, as echo and get-env are: the read policy's, as for any MCP server.
    assert.equal(c.permissions.length, 0);
    c.child.stdin.end();
    assert.equal(await c.exited, 0, c.stderr());
  },
);

test(
  "without the sandbox an editor's MCP server is not started, and stderr says what to do",
  { timeout: 60_000 },
  async () => {
    const s = await server(echoTurns());
    const c = connect(s);
    await c.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await c.agent.request("session/new", {
      cwd: workspace(),
      mcpServers: [editorServer, { type: "http", name: "remote", url: "http://127.0.0.1:9/mcp", headers: [] }],
    });
    await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "echo" }] });
    assert.match(
      c.stderr(),
      /not starting the MCP servers the editor passed \(everything\): Fathom starts them only inside the OS sandbox/,
    );
    assert.match(
      c.stderr(),
      /"remote" from the editor is not started: Fathom takes stdio servers from an editor, not http/,
    );
    assert.doesNotMatch(toolResults(s.requests[1]!.body), /Echo:/);
    c.child.stdin.end();
    await c.exited;
  },
);
