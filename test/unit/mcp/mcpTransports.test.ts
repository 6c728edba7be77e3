// Issue 12, items 1, 2 and 6, against real servers: server-everything's SSE mode (the 2024
// transport) by `type: "sse"` and as the fallback of Streamable HTTP; a config file's envFile,
// cwd, disabledTools and timeout; `${input:id}` values never shown or logged; a workspace file's
// autoApprove ignored; and stopping a server ends what it started (no orphan).
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describeServer, expandInputs, parseMcpConfig, type McpServerConfig } from "../../../src/core/mcp/config";
import { McpHub, loadMcpConfigs } from "../../../src/core/mcp/mcpHub";
import { McpServer } from "../../../src/core/mcp/mcpServer";
import { mcpTools } from "../../../src/core/mcp/mcpTools";

const ROOT = path.resolve(__dirname, "../../..");
const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const FIXTURE = path.join(ROOT, "test/support/mcpFixtureServer.mjs");
const stops: (() => unknown)[] = [];
after(async () => {
  for (const stop of stops) await stop();
});
const ctx = () => ({ signal: new AbortController().signal, toolCallId: "t" });

function serverOf(config: McpServerConfig, log?: (line: string) => void): McpServer {
  const s = new McpServer(config, log ? { log } : {});
  stops.push(() => s.stop());
  return s;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** server-everything in SSE mode on 127.0.0.1; resolves once it listens. */
async function sseServer(): Promise<string> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", path.join(ROOT, "test/support/listenLoopback.mjs"), EVERYTHING, "sse"],
    { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] },
  );
  stops.push(() => child.kill());
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
      if (/running on port/.test(out)) resolve();
    });
    child.on("exit", () => reject(new Error(`server-everything sse exited: ${out}`)));
  });
  return `http://127.0.0.1:${port}/sse`;
}

const config = (fields: Partial<McpServerConfig>): McpServerConfig => ({
  name: "s",
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

describe("HTTP+SSE (the 2024 transport), with server-everything's sse mode", () => {
  it('type "sse" connects to it', async () => {
    const url = await sseServer();
    const s = serverOf(config({ name: "old", transport: "sse", url }));
    await s.start();
    const echo = mcpTools([s]).tools.find((t) => t.name === "mcp__old__echo")!;
    assert.equal((await echo.run({ message: "over SSE" }, ctx())).content, "Echo: over SSE");
  });

  it("a Streamable HTTP config falls back to SSE when the server speaks only SSE", async () => {
    const url = await sseServer();
    const logged: string[] = [];
    const [parsed] = parseMcpConfig(
      JSON.stringify({ mcpServers: { legacy: { type: "streamableHttp", url } } }),
      "f",
    ).servers;
    const s = serverOf(parsed!, (l) => logged.push(l));
    await s.start();
    assert.ok(
      logged.some((l) => /legacy: Streamable HTTP failed .*; trying SSE/.test(l)),
      logged.join("\n"),
    );
    const sum = mcpTools([s]).tools.find((t) => t.name === "mcp__legacy__get-sum")!;
    assert.match((await sum.run({ a: 40, b: 2 }, ctx())).content, /42/);
  });
});

describe("a config file's envFile, cwd, disabledTools and timeout", () => {
  const ws = mkdtempSync(path.join(tmpdir(), "fathom-mcp-cfg-"));
  mkdirSync(path.join(ws, "sub"));
  writeFileSync(path.join(ws, ".env.mcp"), "# for the server\nexport FROM_ENV_FILE='it works'\n");
  const file = path.join(ws, "mcp.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        env: { command: process.execPath, args: [EVERYTHING], envFile: ".env.mcp", disabledTools: ["echo", "get-sum"] },
        files: { command: process.execPath, args: [FILESYSTEM, "."], cwd: "sub" },
        missing: { command: process.execPath, args: [EVERYTHING], envFile: "${workspaceFolder}/nope.env" },
        slow: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], timeout: 1 },
      },
    }),
  );
  const loaded = loadMcpConfigs([file], { workspaceFolder: ws, env: process.env });
  const hub = new McpHub(loaded.servers, { workspaceRoot: ws });
  stops.push(() => hub.stop());

  it("relative envFile and cwd are read from the workspace folder; disabledTools are not offered; timeout is in seconds", async () => {
    assert.deepEqual(loaded.problems, []);
    const failures = await hub.start();
    const tools = hub.tools().tools;
    const env = JSON.parse((await tools.find((t) => t.name === "mcp__env__get-env")!.run({}, ctx())).content) as Record<
      string,
      string
    >;
    assert.equal(env.FROM_ENV_FILE, "it works");
    assert.ok(
      !tools.some((t) => t.name === "mcp__env__echo" || t.name === "mcp__env__get-sum"),
      "disabled tools are left out",
    );
    assert.ok(tools.some((t) => t.name === "mcp__env__get-tiny-image"));
    const dirs = await tools.find((t) => t.name === "mcp__files__list_allowed_directories")!.run({}, ctx());
    assert.match(dirs.content, new RegExp(`${path.join(ws, "sub").replace(/[/.]/g, "\\$&")}$`, "m"));
    assert.equal(failures.length, 2, failures.join("\n"));
    assert.match(
      failures.join("\n"),
      /"missing" .*could not start: its envFile .*nope\.env cannot be read \(ENOENT\); create it or remove "envFile"/,
    );
    assert.match(failures.join("\n"), /"slow" .*could not start: did not answer within 1 s/);
  });
});

describe("${input:id} values", () => {
  it("are masked in the approval text and in messages, even when the server prints them", async () => {
    const [raw] = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          leaky: {
            command: process.execPath,
            args: ["-e", "console.error('token is ' + process.argv[1]); process.exit(2)", "${input:token}"],
            headers: {},
          },
        },
      }),
      "f",
    ).servers;
    const { server } = expandInputs(raw!, () => "s3cr3t-value");
    assert.deepEqual(server.args.at(-1), "s3cr3t-value", "the server gets the value");
    assert.ok(!describeServer(server).includes("s3cr3t"), describeServer(server));
    const logged: string[] = [];
    const s = serverOf(server, (l) => logged.push(l));
    const error = await s.start().then(
      () => undefined,
      (e: Error) => e.message,
    );
    assert.match(error ?? "", /token is ••••••/);
    assert.ok(![error, ...logged, ...s.stderr].join("\n").includes("s3cr3t"), [error, ...logged].join("\n"));
  });

  it("the approval text shows the variables a server gets, its envFile and its folder", () => {
    const [s] = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          a: {
            command: "npx",
            args: ["-y", "pkg"],
            env: { NODE_OPTIONS: "--require ./x.js" },
            envFile: "/w/.env",
            cwd: "/w",
          },
        },
      }),
      "f",
    ).servers;
    assert.equal(
      describeServer(s!),
      'NODE_OPTIONS="--require ./x.js" npx -y pkg (with the variables of /w/.env) (in /w)',
    );
  });
});

describe("a workspace's file", () => {
  it("cannot let its tools run unasked: its autoApprove is dropped, and said", () => {
    const ws = mkdtempSync(path.join(tmpdir(), "fathom-mcp-ws-"));
    const file = path.join(ws, ".mcp.json");
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { repo: { command: "x", autoApprove: ["write_file"], alwaysAllow: ["delete"] } } }),
    );
    const mine = loadMcpConfigs([file], { workspaceFolder: ws, env: {} });
    assert.deepEqual(mine.servers[0]!.autoApprove, ["write_file", "delete"]);
    const theirs = loadMcpConfigs([file], { workspaceFolder: ws, env: {} }, { untrusted: [file] });
    assert.deepEqual(theirs.servers[0]!.autoApprove, []);
    assert.match(
      theirs.problems[0]!.message,
      /lists tools to run without asking \(write_file, delete\); a workspace's file cannot allow that/,
    );
  });
});

describe("stopping a server", () => {
  it("ends what it started too, even a child that ignores SIGTERM and a closed stdin", async () => {
    const tag = `--fathom-tree-tag=${process.pid}-${Date.now()}`;
    // A shell that starts the server and waits (as npx does): killing the shell alone would orphan it.
    const s = serverOf(
      config({
        name: "wrapped",
        command: "/bin/sh",
        args: ["-c", `"${process.execPath}" "${FIXTURE}" ${tag}; exit $?`],
        env: { TOOL_COUNT: "2", STUBBORN: "1" },
      }),
    );
    await s.start();
    assert.equal(tagged(tag).length, 1, "the server runs under the shell");
    const started = Date.now();
    await s.stop();
    assert.deepEqual(tagged(tag), [], "no process outlived stop()");
    assert.ok(Date.now() - started < 3_000, `stop took ${Date.now() - started} ms`);
  });
});

/** Processes (other than this one) whose command line holds `tag`. */
function tagged(tag: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8");
        return cmd.includes(tag) && !cmd.startsWith("/bin/sh");
      } catch {
        return false;
      }
    })
    .map(Number);
}
