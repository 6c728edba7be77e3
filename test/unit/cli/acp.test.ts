// `fathom acp` as a child process, driven by the ACP SDK's own client against the scripted model server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ScriptedTurn } from "../../support/scriptedModelServer";
import { alive, connect, kinds, server, sleep, startAgent, until, workspace } from "./acpClientKit";

test("hello: message chunks, then stopReason end_turn", async () => {
  const s = await server([{ text: "Hello from Fathom" }]);
  const c = connect(s);
  const { init, sessionId } = await c.open(workspace());
  assert.equal(init.protocolVersion, 1);
  assert.equal(init.agentCapabilities?.promptCapabilities?.embeddedContext, true);
  const answer = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  assert.equal(answer.stopReason, "end_turn");
  const text = c.updates
    .map((u) =>
      u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? u.update.content.text : "",
    )
    .join("");
  assert.equal(text, "Hello from Fathom");
  assert.ok(c.updates.every((u) => u.sessionId === sessionId));
  c.child.stdin.end();
  assert.equal(await c.exited, 0, c.stderr());
});

const writeTurns = (): ScriptedTurn[] => [
  { toolCalls: [{ name: "write_file", arguments: { file_path: "/notes.txt", content: "hi\n" } }] },
  { text: "Done." },
];

test("a write asks the client; allowed, the file is written and the update carries the diff", async () => {
  const s = await server(writeTurns());
  const c = connect(s, () => "allow_once");
  const dir = workspace();
  const { sessionId } = await c.open(dir);
  const answer = await c.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "write notes" }],
  });
  assert.equal(answer.stopReason, "end_turn");
  assert.equal(c.permissions.length, 1);
  const asked = c.permissions[0]!;
  assert.equal(asked.toolCall.kind, "edit");
  assert.deepEqual(
    asked.options.map((o) => o.kind),
    ["allow_once", "allow_always", "reject_once"],
  );
  assert.equal(readFileSync(path.join(dir, "notes.txt"), "utf8"), "hi\n");
  const finished = c.updates.find(
    (u) => u.update.sessionUpdate === "tool_call_update" && u.update.status === "completed",
  )?.update;
  assert.ok(finished && finished.sessionUpdate === "tool_call_update", kinds(c.updates).join(","));
  const diff = finished.content?.find((x) => x.type === "diff");
  assert.ok(diff && diff.type === "diff");
  assert.equal(diff.path, path.join(dir, "notes.txt"));
  assert.equal(diff.newText, "hi\n");
  assert.deepEqual(finished.locations, [{ path: path.join(dir, "notes.txt") }]);
  assert.ok(kinds(c.updates).includes("tool_call"));
  c.child.stdin.end();
  await c.exited;
});

test("a rejected write leaves the disk untouched and the model is told", async () => {
  const s = await server(writeTurns());
  const c = connect(s, () => "reject_once");
  const dir = workspace();
  const { sessionId } = await c.open(dir);
  const answer = await c.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text: "write notes" }],
  });
  assert.equal(answer.stopReason, "end_turn");
  assert.equal(existsSync(path.join(dir, "notes.txt")), false);
  assert.match(JSON.stringify(s.requests[1]!.body), /rejected this call in their editor/);
  c.child.stdin.end();
  await c.exited;
});

test("session/cancel mid-turn: the prompt returns cancelled", async () => {
  const s = await server([{ fault: "stall", text: "Working on it" }]);
  const c = connect(s);
  const { sessionId } = await c.open(workspace());
  const pending = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  await until(() => kinds(c.updates).includes("agent_message_chunk"));
  await c.agent.notify("session/cancel", { sessionId });
  assert.equal((await pending).stopReason, "cancelled");
  c.child.stdin.end();
  await c.exited;
});

test("a prompt for an unknown session is an error saying so", async () => {
  const s = await server([]);
  const c = connect(s);
  await c.open(workspace());
  await assert.rejects(
    c.agent.request("session/prompt", { sessionId: "no-such-session", prompt: [{ type: "text", text: "hi" }] }),
    (error: { code?: number; data?: unknown }) =>
      error.code === -32002 && JSON.stringify(error.data).includes("no-such-session"),
  );
  c.child.stdin.end();
  await c.exited;
});

test("closing stdin mid-task stops the run and the process exits", async () => {
  const s = await server([{ fault: "stall", text: "Working on it" }]);
  const c = connect(s);
  const { sessionId } = await c.open(workspace());
  void c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).catch(() => undefined);
  await until(() => kinds(c.updates).includes("agent_message_chunk"));
  c.child.stdin.end();
  const code = await Promise.race([c.exited, sleep(10_000).then(() => "timeout" as const)]);
  assert.equal(code, 0, c.stderr());
});

test("closing stdin while a command runs stops the command (checked by pid)", async () => {
  const s = await server([
    { toolCalls: [{ name: "execute", arguments: { command: "echo $$ > pid.txt; exec sleep 60" } }] },
    { text: "Done." },
  ]);
  const c = connect(s, () => "allow_once");
  const dir = workspace();
  const { sessionId } = await c.open(dir);
  void c.agent
    .request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] })
    .catch(() => undefined);
  const pidFile = path.join(dir, "pid.txt");
  await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  assert.ok(alive(pid));
  assert.equal(c.permissions[0]?.toolCall.kind, "execute");
  c.child.stdin.end();
  assert.equal(await c.exited, 0, c.stderr());
  await until(() => !alive(pid), 5_000);
});

test("a resource link is attached as a file and an embedded resource given as text", async () => {
  const s = await server([{ text: "Read them." }]);
  const c = connect(s);
  const dir = workspace();
  writeFileSync(path.join(dir, "linked.txt"), "LINKED-FILE-TEXT\n");
  const { sessionId } = await c.open(dir);
  const answer = await c.agent.request("session/prompt", {
    sessionId,
    prompt: [
      { type: "text", text: "look at these" },
      { type: "resource_link", uri: pathToFileURL(path.join(dir, "linked.txt")).href, name: "linked.txt" },
      {
        type: "resource",
        resource: { uri: pathToFileURL(path.join(dir, "buffer.ts")).href, text: "UNSAVED-BUFFER-TEXT" },
      },
    ],
  });
  assert.equal(answer.stopReason, "end_turn");
  const sent = JSON.stringify(s.requests[0]!.body);
  assert.match(sent, /LINKED-FILE-TEXT/);
  assert.match(sent, /UNSAVED-BUFFER-TEXT/);
  assert.match(sent, /\/buffer\.ts/);
  c.child.stdin.end();
  await c.exited;
});

test("reasoning streams as thought chunks and write_todos as the plan", async () => {
  const todos = [
    { content: "Read the code", status: "completed" },
    { content: "Fix the bug", status: "in_progress" },
  ];
  const s = await server([
    { reasoning: "Thinking it over", toolCalls: [{ name: "write_todos", arguments: { todos } }] },
    { text: "Planned." },
  ]);
  const c = connect(s);
  const { sessionId } = await c.open(workspace());
  const answer = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plan" }] });
  assert.equal(answer.stopReason, "end_turn");
  assert.ok(kinds(c.updates).includes("agent_thought_chunk"), kinds(c.updates).join(","));
  const plan = c.updates.find((u) => u.update.sessionUpdate === "plan")?.update;
  assert.ok(plan && plan.sessionUpdate === "plan");
  assert.deepEqual(
    plan.entries.map((e) => [e.content, e.status]),
    todos.map((t) => [t.content, t.status]),
  );
  const call = c.updates.find((u) => u.update.sessionUpdate === "tool_call")?.update;
  assert.ok(call && call.sessionUpdate === "tool_call" && call.kind === "think");
  c.child.stdin.end();
  await c.exited;
});

test("a model that refuses the key: the prompt fails with Fathom's message saying what to do", async () => {
  const s = await server([{ fault: "http", status: 401, message: "Incorrect API key provided" }]);
  const c = connect(s);
  const { sessionId } = await c.open(workspace());
  await assert.rejects(
    c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] }),
    (error: { code?: number; message?: string }) => {
      assert.equal(error.code, -32603);
      assert.match(error.message ?? "", /key/i);
      return true;
    },
  );
  c.child.stdin.end();
  await c.exited;
});

test("malformed JSON and an unknown method get JSON-RPC errors", async () => {
  const s = await server([]);
  const { child, exited } = startAgent(s);
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stdin.write("{this is not json\n");
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
  );
  await until(() => out.includes('"id":1'));
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "no/such_method", params: {} })}\n`);
  await until(() => out.includes('"id":7'));
  const lines = out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number } });
  assert.equal(lines.find((l) => l.id === 7)?.error?.code, -32601);
  assert.ok(
    lines.some((l) => l.error?.code === -32700),
    out,
  );
  child.stdin.end();
  assert.equal(await exited, 0);
});
