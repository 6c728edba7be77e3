// Issue 19, item 6: MCP stdio servers start inside the OS sandbox; a server the person trusts
// may start outside it, per server, and only their own file may say so ("sandbox": false). A
// repository's file saying it is ignored, and told.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadMcpConfigs } from "../../../src/core/mcp/mcpHub";
import { sandboxUnavailable } from "../../../src/core/executor/sandbox";
import { startScriptedModelServer } from "../../support/scriptedModelServer";

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "src/cli/main.ts");
const scratch = mkdtempSync(path.join(tmpdir(), "fathom-mcp-sbx-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A "server" that only records where it ran: it writes a file outside the workspace, then exits. */
function writer(marker: string, extra: Record<string, unknown> = {}) {
  return {
    command: process.execPath,
    args: ["-e", `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
    ...extra,
  };
}

describe("who may start a server outside the sandbox", () => {
  it("the person's own file may; any other file's \"sandbox\": false is dropped and said", () => {
    const mine = path.join(scratch, "mine.json");
    const theirs = path.join(scratch, "theirs.json");
    writeFileSync(
      mine,
      JSON.stringify({ mcpServers: { trusted: writer("/x", { sandbox: false }), plain: writer("/y") } }),
    );
    writeFileSync(theirs, JSON.stringify({ mcpServers: { repo: writer("/z", { sandbox: false }) } }));
    const loaded = loadMcpConfigs([mine, theirs], { env: {} }, { mayLeaveSandbox: [mine] });
    const byName = Object.fromEntries(loaded.servers.map((s) => [s.name, s]));
    assert.equal(byName.trusted?.sandbox, false);
    assert.equal(byName.plain?.sandbox, undefined);
    assert.equal(byName.repo?.sandbox, undefined);
    assert.equal(loaded.problems.length, 1);
    assert.match(
      loaded.problems[0]!.message,
      /"repo" asks to start outside the OS sandbox .*only your own .* may say that, so it starts inside the sandbox/,
    );
    assert.equal(
      loadMcpConfigs([mine], { env: {} }).servers.find((s) => s.name === "trusted")?.sandbox,
      undefined,
      "no file is trusted unless named",
    );
  });
});

const unavailable = process.platform === "linux" ? sandboxUnavailable() : "not Linux";
describe(
  "through the CLI, with the real sandbox",
  { skip: unavailable ? `the OS sandbox is not available here: ${unavailable}` : false },
  () => {
    it(
      "servers start sandboxed; the one the person's file trusts starts outside; a repository's claim is ignored",
      { timeout: 90_000 },
      async () => {
        const server = await startScriptedModelServer([{ text: "done" }]);
        after(() => server.close());
        const home = path.join(scratch, "home");
        const ws = path.join(scratch, "ws");
        const outside = path.join(scratch, "outside");
        mkdirSync(path.join(home, ".config", "fathom"), { recursive: true });
        mkdirSync(ws);
        mkdirSync(outside);
        const marker = (name: string) => path.join(outside, `${name}.txt`);
        writeFileSync(
          path.join(home, ".config", "fathom", "mcp.json"),
          JSON.stringify({
            mcpServers: { boxed: writer(marker("boxed")), trusted: writer(marker("trusted"), { sandbox: false }) },
          }),
        );
        writeFileSync(
          path.join(ws, ".mcp.json"),
          JSON.stringify({ mcpServers: { repo: writer(marker("repo"), { sandbox: false }) } }),
        );
        const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
        delete env.XDG_CONFIG_HOME;
        delete env.XDG_DATA_HOME;
        const child = spawn(
          process.execPath,
          [
            "--import",
            "tsx",
            MAIN,
            "run",
            "--yes",
            "--allow-workspace-mcp",
            "--provider",
            "openai-compatible",
            "--base-url",
            server.baseUrlOpenAI,
            "--cwd",
            ws,
            "go",
          ],
          {
            cwd: ROOT,
            env,
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.stdout.resume();
        assert.equal(await new Promise((resolve) => child.on("close", resolve)), 0, stderr);
        assert.ok(
          !existsSync(marker("boxed")),
          "a server from the person's file ran outside the sandbox without being marked",
        );
        assert.equal(
          readFileSync(marker("trusted"), "utf8"),
          "ran",
          "the trusted server did not run outside the sandbox",
        );
        assert.ok(!existsSync(marker("repo")), "the repository's server left the sandbox");
        assert.match(stderr, /"repo" asks to start outside the OS sandbox/);
      },
    );
  },
);
