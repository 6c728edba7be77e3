// The CLI with MCP servers (issue 12): --mcp-config starts them (inside the OS sandbox when it
// runs here), the model calls a tool by its mcp__ name, and a workspace's own .mcp.json starts
// nothing unless --allow-workspace-mcp.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "src/cli/main.ts");
const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FIXTURE = path.join(ROOT, "test/support/mcpFixtureServer.mjs");
let server: ScriptedModelServer | undefined;
after(async () => server?.close());

async function fathom(
  args: string[],
  cwd: string,
  o: { killAfter?: () => Promise<boolean>; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stderr: string }> {
  const home = mkdtempSync(path.join(tmpdir(), "fathom-mcp-home-"));
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      MAIN,
      "run",
      "--yes",
      "--provider",
      "openai-compatible",
      "--base-url",
      server!.baseUrlOpenAI,
      "--cwd",
      cwd,
      ...args,
      "go",
    ],
    {
      cwd: ROOT,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), ...o.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  if (o.killAfter && (await o.killAfter())) child.kill("SIGINT");
  const code = await closed;
  return { code, stderr };
}

test("--mcp-config: the model calls an MCP tool and gets its answer", { timeout: 60_000 }, async () => {
  server = await startScriptedModelServer([
    { toolCalls: [{ id: "m1", name: "mcp__everything__echo", arguments: { message: "ping over MCP" } }] },
    { text: "done" },
  ]);
  const ws = mkdtempSync(path.join(tmpdir(), "fathom-mcp-ws-"));
  const config = path.join(ws, "..", `mcp-${path.basename(ws)}.json`);
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }),
  );
  const run = await fathom(["--mcp-config", config], ws);
  assert.equal(run.code, 0, run.stderr);
  // Its 13 tools are loaded on demand; called by its full name, echo runs anyway.
  const tools = (server.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
  assert.ok(tools.includes("find_tools"), tools.join(", "));
  const result = (server.requests[1]!.body.messages as { role: string; content: string }[]).find(
    (m) => m.role === "tool",
  );
  assert.match(result?.content ?? "", /Echo: ping over MCP/);
});

test("a server found only on the login shell's PATH starts (npx under nvm)", { timeout: 60_000 }, async () => {
  await server?.close();
  server = await startScriptedModelServer([
    { toolCalls: [{ id: "p1", name: "mcp__nvm__echo", arguments: { message: "found on the login PATH" } }] },
    { text: "done" },
  ]);
  const ws = mkdtempSync(path.join(tmpdir(), "fathom-mcp-ws-"));
  // As nvm does: the program's folder is added to PATH by the login shell's profile, not in the
  // environment VS Code or the CLI was started with.
  const bin = mkdtempSync(path.join(tmpdir(), "fathom-nvm-bin-"));
  writeFileSync(
    path.join(bin, "fathom-test-mcp"),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING)} "$@"\n`,
    { mode: 0o755 },
  );
  const shell = path.join(bin, "..", `${path.basename(bin)}-login-shell`);
  // Called as \`$SHELL -ilc '<command>'\`: its profile adds the folder, then runs the command.
  writeFileSync(shell, `#!/bin/sh\nPATH=${JSON.stringify(bin)}:"$PATH"; export PATH\nexec /bin/sh -c "$2"\n`, {
    mode: 0o755,
  });
  const config = path.join(ws, "..", `mcp-${path.basename(ws)}.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: { nvm: { command: "fathom-test-mcp" } } }));
  const run = await fathom(["--mcp-config", config], ws, { env: { SHELL: shell } });
  assert.equal(run.code, 0, run.stderr);
  const result = (server.requests[1]!.body.messages as { role: string; content: string }[]).find(
    (m) => m.role === "tool",
  );
  assert.match(result?.content ?? "", /Echo: found on the login PATH/, run.stderr);
});

test("a workspace's .mcp.json starts nothing without --allow-workspace-mcp", { timeout: 60_000 }, async () => {
  await server?.close();
  server = await startScriptedModelServer([{ text: "hi" }, { text: "hi" }]);
  const ws = mkdtempSync(path.join(tmpdir(), "fathom-mcp-ws-"));
  const marker = path.join(ws, "started.txt");
  writeFileSync(
    path.join(ws, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        evil: {
          command: process.execPath,
          args: ["-e", `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
        },
      },
    }),
  );
  const run = await fathom([], ws);
  assert.equal(run.code, 0, run.stderr);
  assert.ok(!existsSync(marker), "the repository's server was started");
  assert.match(run.stderr, /not starting the MCP servers of .*\.mcp\.json.*--allow-workspace-mcp/);
  const allowed = await fathom(["--allow-workspace-mcp"], ws);
  assert.ok(existsSync(marker), "with --allow-workspace-mcp the server starts");
  assert.match(allowed.stderr, /MCP server "evil".*could not start/);
});

test("at a terminal, the workspace's servers are shown and start only after a yes", { timeout: 90_000 }, async () => {
  await server?.close();
  server = await startScriptedModelServer([{ text: "hi" }, { text: "hi" }]);
  const ws = mkdtempSync(path.join(tmpdir(), "fathom-mcp-ws-"));
  const marker = path.join(ws, "started.txt");
  writeFileSync(
    path.join(ws, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        "repo-tool": {
          command: process.execPath,
          args: ["-e", `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
        },
      },
    }),
  );
  for (const answer of ["n", "y"]) {
    const out = await atTerminal(
      ["run", "--provider", "openai-compatible", "--base-url", server.baseUrlOpenAI, "--cwd", ws, "hello"],
      `${answer}\n`,
    );
    assert.match(
      out,
      /This repository defines an MCP server.*\n\s+repo-tool \(\.mcp\.json\): \S*node -e .*writeFileSync/,
    );
    assert.match(out, /Start them\? \[y\]es \/ \[N\]o/);
    assert.equal(existsSync(marker), answer === "y", `answered ${answer}: ${out}`);
  }
});

/** Runs fathom with a real terminal (util-linux `script`), typing `keys`; returns what the terminal showed. */
function atTerminal(args: string[], keys: string): Promise<string> {
  const home = mkdtempSync(path.join(tmpdir(), "fathom-mcp-home-"));
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, "--import", "tsx", MAIN, ...args].map(quote).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    cwd: ROOT,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  child.stdin.end(keys);
  return new Promise((resolve) => child.on("close", () => resolve(out.replace(/\r/g, ""))));
}

/** Pids of processes whose command line has `tag` (the sandbox gives its processes their own pid namespace, so /proc is asked). */
function processesTagged(tag: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(tag)) pids.push(Number(entry));
    } catch {
      // gone already
    }
  }
  return pids;
}

/** Processes still running with `tag` after waiting up to `ms` for them to go. */
async function leftOver(tag: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const pids = processesTagged(tag);
    if (pids.length === 0 || Date.now() > deadline) return pids;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("no MCP server outlives the CLI: after the answer, and after Ctrl-C mid-task", { timeout: 90_000 }, async () => {
  await server?.close();
  server = await startScriptedModelServer([{ text: "hi" }, { fault: "stall", text: "thinking" }]);
  for (const interrupt of [false, true]) {
    const ws = mkdtempSync(path.join(tmpdir(), "fathom-mcp-ws-"));
    const tag = `--fathom-test-tag=${path.basename(ws)}`;
    const config = path.join(ws, "..", `mcp-${path.basename(ws)}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          fixture: { command: process.execPath, args: [FIXTURE, tag], env: { TOOL_COUNT: "3", STUBBORN: "1" } },
        },
      }),
    );
    let seen: number[] = [];
    const whenServerRuns = async () => {
      const deadline = Date.now() + 30_000;
      while ((seen = processesTagged(tag)).length === 0 || server!.requests.length < 2) {
        if (Date.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 50));
      }
      return true;
    };
    const run = await fathom(["--mcp-config", config], ws, interrupt ? { killAfter: whenServerRuns } : {});
    if (!interrupt) assert.equal(run.code, 0, run.stderr);
    else assert.ok(seen.length > 0, "the server was running when Ctrl-C came");
    assert.deepEqual(
      await leftOver(tag, 3_000),
      [],
      `the MCP server outlived the CLI${interrupt ? " after Ctrl-C" : ""}`,
    );
  }
});
