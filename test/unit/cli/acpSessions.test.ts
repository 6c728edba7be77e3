// `session/list` and `session/load`: a session is a saved Fathom task, opened again in a new process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect, kinds, server, workspace } from "./acpClientKit";

test("a session saved by one process is listed and loaded by the next: its conversation replays, then it goes on", async () => {
  const dataHome = mkdtempSync(path.join(tmpdir(), "fathom-acp-data-"));
  const dir = workspace();
  const first = await server([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/notes.txt", content: "hi\n" } }] },
    { text: "Wrote notes.txt." },
  ]);
  const a = connect(first, () => "allow_once", { dataHome });
  const { init, sessionId } = await a.open(dir);
  assert.equal(init.agentCapabilities?.loadSession, true);
  assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.list, {});
  await a.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write the notes" }] });
  a.child.stdin.end();
  assert.equal(await a.exited, 0, a.stderr());
  assert.equal(readFileSync(path.join(dir, "notes.txt"), "utf8"), "hi\n");

  const second = await server([{ text: "It says hi." }]);
  const b = connect(second, () => "allow_once", { dataHome });
  await b.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const listed = await b.agent.request("session/list", { cwd: dir });
  assert.deepEqual(
    listed.sessions.map((s) => [s.sessionId, s.cwd, s.title]),
    [[sessionId, dir, "write the notes"]],
  );
  assert.ok(!Number.isNaN(Date.parse(listed.sessions[0]!.updatedAt ?? "")));

  await b.agent.request("session/load", { sessionId, cwd: dir, mcpServers: [] });
  assert.deepEqual(kinds(b.updates), ["user_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
  assert.ok(b.updates.every((u) => u.sessionId === sessionId));
  const [user, call, result, answer] = b.updates.map((u) => u.update);
  assert.ok(user?.sessionUpdate === "user_message_chunk" && user.content.type === "text");
  assert.match(user.content.text, /write the notes/);
  assert.ok(call?.sessionUpdate === "tool_call");
  assert.equal(call.kind, "edit");
  assert.deepEqual(call.locations, [{ path: path.join(dir, "notes.txt") }]);
  assert.ok(result?.sessionUpdate === "tool_call_update" && result.status === "completed");
  assert.ok(answer?.sessionUpdate === "agent_message_chunk" && answer.content.type === "text");
  assert.equal(answer.content.text, "Wrote notes.txt.");

  // The loaded session goes on from its conversation.
  const next = await b.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "what does it say?" }],
  });
  assert.equal(next.stopReason, "end_turn");
  const sent = JSON.stringify(second.requests[0]!.body);
  assert.match(sent, /write the notes/);
  assert.match(sent, /Wrote notes\.txt\./);
  assert.match(sent, /what does it say\?/);
  b.child.stdin.end();
  assert.equal(await b.exited, 0, b.stderr());
});

test("loading a session this folder never had is 'session not found'; a folder that does not exist is invalid params", async () => {
  const s = await server([]);
  const c = connect(s);
  await c.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const dir = workspace();
  await assert.rejects(
    c.agent.request("session/load", { sessionId: "20260101-000000-abcdef", cwd: dir, mcpServers: [] }),
    (error: { code?: number }) => error.code === -32002,
  );
  await assert.rejects(
    c.agent.request("session/load", { sessionId: "../../etc/passwd", cwd: dir, mcpServers: [] }),
    (error: { code?: number }) => error.code === -32002,
  );
  await assert.rejects(
    c.agent.request("session/list", { cwd: path.join(dir, "missing") }),
    (error: { code?: number; message?: string }) => error.code === -32602,
  );
  assert.deepEqual((await c.agent.request("session/list", {})).sessions, []);
  c.child.stdin.end();
  await c.exited;
});
