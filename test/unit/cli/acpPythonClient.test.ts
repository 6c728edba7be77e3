// `fathom acp` driven by an independent client: the Python ACP SDK (agent-client-protocol 0.12.1,
// test/acp-python/), installed pinned and hash-checked into the cache on first use. The TypeScript
// SDK's client (acp.test.ts) shares code with Fathom's agent side; this one shares nothing.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../../..");
const HERE = path.join(ROOT, "test/acp-python");
const servers: ScriptedModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

/** The venv's python, installed on first use (as CI does in .ci/run). */
async function acpPython(): Promise<string> {
  const { stdout } = await run("bash", [path.join(HERE, "install-acp-python.sh")], { timeout: 300_000 });
  const line = stdout.trim().split("\n").at(-1) ?? "";
  assert.match(line, /^ACP_PYTHON=/, `the installer's last line: ${line}`);
  return line.slice("ACP_PYTHON=".length);
}

interface Seen {
  initialize: { protocolVersion: number; agentCapabilities?: { promptCapabilities?: { embeddedContext?: boolean } } };
  sessionId: string;
  stopReasons: string[];
  filesAfterPrompt: string[][];
  unknownSession: { code: number; message: string; data: unknown } | string;
  exitCode: number;
  permissions: { sessionId: string; kind: string; title: string; options: string[] }[];
  updates: ({ sessionId: string; sessionUpdate: string } & Record<string, unknown>)[];
}

test("the Python ACP SDK's client: a rejected write leaves the disk alone, an allowed one writes, an unknown session is an error", async () => {
  const python = await acpPython();
  const write = { toolCalls: [{ name: "write_file", arguments: { file_path: "/notes.txt", content: "hi\n" } }] };
  const s = await startScriptedModelServer([write, { text: "Not written." }, write, { text: "Written." }]);
  servers.push(s);
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-acp-py-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FATHOM_RETRY_BASE_DELAY_MS: "1",
    XDG_DATA_HOME: mkdtempSync(path.join(tmpdir(), "fathom-acp-py-data-")),
  };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  const agent = [process.execPath, "--import", "tsx", path.join(ROOT, "src/cli/main.ts"), "acp"];
  const options = ["--provider", "openai-compatible", "--base-url", s.baseUrlOpenAI, "--model", "m", "--no-sandbox"];
  const { stdout } = await run(python, [path.join(HERE, "acp_client_check.py"), dir, ...agent, ...options], {
    cwd: ROOT,
    env,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const seen = JSON.parse(stdout) as Seen;

  assert.equal(seen.initialize.protocolVersion, 1);
  assert.equal(seen.initialize.agentCapabilities?.promptCapabilities?.embeddedContext, true);
  assert.deepEqual(seen.stopReasons, ["end_turn", "end_turn"]);
  assert.equal(seen.permissions.length, 2, "each write asked the client");
  for (const asked of seen.permissions) {
    assert.equal(asked.sessionId, seen.sessionId);
    assert.equal(asked.kind, "edit");
    assert.deepEqual(asked.options, ["allow_once", "allow_always", "reject_once"]);
  }
  assert.deepEqual(seen.filesAfterPrompt[0], [], "rejected: nothing written");
  assert.match(JSON.stringify(s.requests[1]!.body), /rejected this call in their editor/, "the model was told");
  assert.deepEqual(seen.filesAfterPrompt[1], ["notes.txt"]);
  assert.equal(readFileSync(path.join(dir, "notes.txt"), "utf8"), "hi\n");

  const kinds = seen.updates.map((u) => u.sessionUpdate);
  assert.ok(kinds.includes("tool_call"), kinds.join(","));
  const text = seen.updates
    .filter((u) => u.sessionUpdate === "agent_message_chunk")
    .map((u) => (u.content as { text?: string }).text ?? "")
    .join("");
  assert.equal(text, "Not written.Written.");
  const done = seen.updates.find(
    (u) => u.sessionUpdate === "tool_call_update" && u.status === "completed" && Array.isArray(u.content),
  );
  const diff = (done?.content as { type: string; path?: string; newText?: string }[] | undefined)?.find(
    (c) => c.type === "diff",
  );
  assert.deepEqual(diff && { path: diff.path, newText: diff.newText }, {
    path: path.join(dir, "notes.txt"),
    newText: "hi\n",
  });
  assert.ok(seen.updates.every((u) => u.sessionId === seen.sessionId));

  assert.ok(typeof seen.unknownSession === "object", `an unknown session: ${JSON.stringify(seen.unknownSession)}`);
  assert.equal(seen.unknownSession.code, -32002);
  assert.match(JSON.stringify(seen.unknownSession.data), /no-such-session/);
  assert.equal(seen.exitCode, 0, "closing stdin ends the agent cleanly");
});
