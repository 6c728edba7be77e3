// The MCP client (issue 12, core) against real servers from npm: server-everything over stdio
// and Streamable HTTP (on 127.0.0.1), server-filesystem over stdio; and the faults people hit.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ApprovalRequest } from "../../../src/core/approval";
import { expandVariables, parseMcpConfig, type McpServerConfig } from "../../../src/core/mcp/config";
import { McpServer } from "../../../src/core/mcp/mcpServer";
import { mcpToolName, mcpTools } from "../../../src/core/mcp/mcpTools";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const ROOT = path.resolve(__dirname, "../../..");
const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const servers: McpServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

function server(name: string, fields: Partial<McpServerConfig>): McpServer {
  const s = new McpServer({
    name,
    transport: "stdio",
    args: [],
    env: {},
    headers: {},
    disabled: false,
    timeoutMs: 20_000,
    autoApprove: [],
    disabledTools: [],
    source: "test",
    ...fields,
  });
  servers.push(s);
  return s;
}

describe("configuration in the shapes people have", () => {
  it("reads mcpServers and VS Code's servers + inputs, with every type spelling", () => {
    const claude = parseMcpConfig(
      `{
      // comments are fine
      "mcpServers": {
        "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"], "alwaysAllow": ["read_file"], "timeout": 30 },
        "web": { "type": "streamableHttp", "url": "http://127.0.0.1:3001/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
        "old": { "type": "sse", "url": "http://127.0.0.1:3002/sse", "disabled": true },
        "dash": { "type": "streamable-http", "url": "http://x/mcp", "disabledTools": ["danger"] },
      },
    }`,
      "/home/me/.fathom/mcp.json",
    );
    assert.deepEqual(claude.problems, []);
    assert.deepEqual(
      claude.servers.map((s) => [s.name, s.transport, s.disabled]),
      [
        ["fs", "stdio", false],
        ["web", "http", false],
        ["old", "sse", true],
        ["dash", "http", false],
      ],
    );
    assert.equal(claude.servers[0]!.timeoutMs, 30_000);
    assert.deepEqual(claude.servers[0]!.autoApprove, ["read_file"]);
    const vscode = parseMcpConfig(
      JSON.stringify({
        inputs: [{ id: "token", type: "promptString", password: true }],
        servers: { gh: { type: "http", url: "https://api.example/mcp" } },
      }),
      ".vscode/mcp.json",
    );
    assert.equal(vscode.servers[0]!.transport, "http");
    assert.deepEqual(vscode.inputs, [{ id: "token", password: true }]);
  });
  it("a syntax error names file, line and column; a bad server does not stop the others", () => {
    const r = parseMcpConfig(
      '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}',
      "/ws/.mcp.json",
    );
    assert.equal(r.problems[0]!.file, "/ws/.mcp.json");
    assert.equal(r.problems[0]!.line, 4);
    assert.equal(r.problems[0]!.column, 5);
    assert.ok(r.servers.some((s) => s.name === "a"));
    const bad = parseMcpConfig(
      '{"mcpServers": {"ok": {"command": "x"}, "broken": {"type": "carrier-pigeon"}, "nourl": {"type": "http"}}}',
      "f.json",
    );
    assert.deepEqual(
      bad.servers.map((s) => s.name),
      ["ok"],
    );
    assert.match(bad.problems.map((p) => p.message).join("\n"), /carrier-pigeon.*\n.*needs a "url"/);
  });
  it("expands ${workspaceFolder}, ${env:NAME} and ${input:id}, and reports what it cannot", () => {
    const [s] = parseMcpConfig(
      '{"mcpServers": {"a": {"command": "${env:HOME}/bin/srv", "args": ["${workspaceFolder}", "${input:key}", "${env:NOPE_X}"]}}}',
      "f",
    ).servers;
    const { server: out, unresolved } = expandVariables(s!, {
      workspaceFolder: "/ws",
      env: { HOME: "/home/me" },
      input: (id) => (id === "key" ? "k-1" : undefined),
    });
    assert.equal(out.command, "/home/me/bin/srv");
    assert.deepEqual(out.args, ["/ws", "k-1", "${env:NOPE_X}"]);
    assert.deepEqual(unresolved, ["${env:NOPE_X}"]);
  });
});

describe("real servers", () => {
  it("server-everything over stdio: tools listed, a call answered, annotations read", async () => {
    const s = server("everything", { command: process.execPath, args: [EVERYTHING] });
    await s.start();
    assert.equal(s.state, "ready");
    const { tools } = mcpTools([s]);
    const echo = tools.find((t) => t.name === "mcp__everything__echo")!;
    assert.ok(echo, tools.map((t) => t.name).join(", "));
    // Tools annotated read-only (and not destructive) follow the read policy; the rest are asked.
    assert.ok(tools.some((t) => t.kind === "read" && t.approval === undefined));
    assert.ok(tools.some((t) => t.kind === "other" && t.approval === "ask"));
    const r = await echo.run({ message: "hi" }, { signal: new AbortController().signal, toolCallId: "c1" });
    assert.equal(r.content, "Echo: hi");
  });

  it("server-everything over Streamable HTTP on 127.0.0.1", async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ["--import", path.join(ROOT, "test/support/listenLoopback.mjs"), EVERYTHING, "streamableHttp"],
      { env: { ...process.env, PORT: String(port) }, stdio: "ignore" },
    );
    after(() => child.kill());
    const s = server("web", { transport: "http", url: `http://127.0.0.1:${port}/mcp` });
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await s.start();
        break;
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    const sum = mcpTools([s]).tools.find((t) => t.name === "mcp__web__get-sum")!;
    const r = await sum.run({ a: 2, b: 3 }, { signal: new AbortController().signal, toolCallId: "c2" });
    assert.match(r.content, /5/);
  });

  it("server-filesystem: the agent calls a tool, the person approves it, the result reaches the model", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fathom-mcp-fs-"));
    writeFileSync(path.join(dir, "notes.txt"), "from the MCP filesystem server\n");
    const s = server("files", { command: process.execPath, args: [FILESYSTEM, dir] });
    await s.start();
    const { tools } = mcpTools([s]);
    const read =
      tools.find((t) => t.name === "mcp__files__read_text_file") ??
      tools.find((t) => t.name === "mcp__files__read_file")!;
    const asked: ApprovalRequest[] = [];
    const model = new FakeModel([
      { toolCalls: [{ name: read.name, arguments: { path: path.join(dir, "notes.txt") } }] },
      { text: "done" },
    ]);
    const agent = createAgent({
      model,
      workspaceRoot: dir,
      tools,
      rules: false,
      approvalPolicy: { read: "ask" },
      approvalGate: { request: async (r) => (asked.push(r), { type: "approve" }) },
    });
    await collect(agent, "read notes");
    assert.equal(asked.length, 1);
    assert.match(JSON.stringify(model.requests[1]!.messages.at(-1)), /from the MCP filesystem server/);
    assert.ok(model.requests[1]!.toolNames.includes(read.name), "once called, the tool is sent with later requests");
  });

  it("a server that cannot start says why, with its last output; the others still work", async () => {
    const broken = server("broken", {
      command: process.execPath,
      args: ["-e", "console.error('missing DATABASE_URL'); process.exit(3)"],
    });
    await assert.rejects(broken.start(), /could not start.*missing DATABASE_URL/s);
    assert.equal(broken.state, "failed");
    const nothing = server("nothing", { command: "/nonexistent/mcp-server" });
    await assert.rejects(nothing.start(), /could not start/);
    const hang = server("hang", {
      command: process.execPath,
      args: ["-e", "setInterval(() => {}, 1000)"],
      timeoutMs: 1_500,
    });
    await assert.rejects(hang.start(), /did not answer within 2 s|did not answer within 1 s/);
  });

  it("Cancel stops a long call at once; a call that hangs past the server's timeout is an error", async () => {
    const s = server("slow", { command: process.execPath, args: [EVERYTHING] });
    await s.start();
    // Short only for the calls: on a loaded machine the server itself may take longer to start.
    s.config = { ...s.config, timeoutMs: 1_500 };
    const long = mcpTools([s]).tools.find((t) => t.name === "mcp__slow__trigger-long-running-operation")!;
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const cancelled = await long.run({ duration: 20, steps: 5 }, { signal: controller.signal, toolCallId: "l1" });
    assert.equal(cancelled.isError, true);
    assert.match(cancelled.content, /Cancelled/);
    assert.ok(Date.now() - started < 1_400, `cancel took ${Date.now() - started} ms`);
    const hung = await long.run({ duration: 20, steps: 5 }, { signal: new AbortController().signal, toolCallId: "l2" });
    assert.equal(hung.isError, true);
    assert.match(hung.content, /failed on trigger-long-running-operation: .*timed out/i);
    // The server itself is still there for the next call.
    const echo = mcpTools([s]).tools.find((t) => t.name === "mcp__slow__echo")!;
    assert.equal(
      (await echo.run({ message: "still here" }, { signal: new AbortController().signal, toolCallId: "l3" })).content,
      "Echo: still here",
    );
  });

  it("a server that dies is reported, then started again after a back-off", async () => {
    const s = server("crashy", { command: process.execPath, args: [EVERYTHING] });
    await s.start();
    const echo = mcpTools([s]).tools.find((t) => t.name === "mcp__crashy__echo")!;
    const ctx = { signal: new AbortController().signal, toolCallId: "c" };
    process.kill(s.pid!, "SIGKILL");
    const deadline = Date.now() + 5_000;
    while (s.state === "ready" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.state, "failed");
    const during = await echo.run({ message: "x" }, ctx);
    assert.equal(during.isError, true);
    assert.match(during.content, /exited.*started again in 1 s/s);
    await new Promise((r) => setTimeout(r, 1_100));
    const after = await echo.run({ message: "back" }, ctx);
    assert.equal(after.content, "Echo: back");
    assert.equal(s.state, "ready");
  });

  it("a server that exits mid-call: the call ends at once as an error, not at the timeout", async () => {
    const s = server("dies", { command: process.execPath, args: [EVERYTHING], timeoutMs: 20_000 });
    await s.start();
    const long = mcpTools([s]).tools.find((t) => t.name === "mcp__dies__trigger-long-running-operation")!;
    const started = Date.now();
    setTimeout(() => process.kill(s.pid!, "SIGKILL"), 300);
    const r = await long.run({ duration: 15, steps: 5 }, { signal: new AbortController().signal, toolCallId: "d1" });
    assert.equal(r.isError, true);
    assert.match(r.content, /The MCP server "dies" failed on trigger-long-running-operation: .*closed/i);
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
  });

  it("stdio servers get the login shell's PATH (npx under nvm)", async () => {
    const { withLoginShellPath } = await import("../../../src/core/mcp/loginShellPath");
    const env = await withLoginShellPath({ PATH: "/only/this" });
    assert.ok(env.PATH!.split(":").includes("/only/this"));
    assert.ok(env.PATH!.split(":").length > 1, env.PATH);
  });

  it("a tool with an invalid input schema is still offered, with an empty object schema", () => {
    const s = server("odd", { command: "unused" });
    s.tools = [
      { name: "weird", description: "Has a string schema", inputSchema: { type: "string" } as never },
      { name: "ok", inputSchema: { type: "object", properties: { a: { type: "number" } } } },
    ];
    const { tools } = mcpTools([s]);
    assert.deepEqual(tools[0]!.parameters, { type: "object", properties: {} });
    assert.deepEqual(tools[1]!.parameters, { type: "object", properties: { a: { type: "number" } } });
  });

  it("two servers with the same tool names get unique names; the list is capped at 128", async () => {
    const a = server("twin", { command: process.execPath, args: [EVERYTHING] });
    const b = server("twin", { command: process.execPath, args: [EVERYTHING] });
    await Promise.all([a.start(), b.start()]);
    const { tools } = mcpTools([a, b]);
    assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);
    assert.ok(tools.some((t) => t.name === "mcp__twin__echo_2"));
    const capped = mcpTools([a, b], 10);
    assert.equal(capped.tools.length, 10);
    assert.equal(capped.dropped, tools.length - 10);
    const taken = new Set<string>();
    assert.equal(mcpToolName("a server/with:odd chars", "x".repeat(100), taken).length, 64);
    assert.match(mcpToolName("a server/with:odd chars", "t", taken), /^mcp__a_server_with_odd_chars__t$/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
