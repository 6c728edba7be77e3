import { test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { TerminalApprovalGate } from "../../../src/cli/terminalApprovalGate";
import { humanRenderer, jsonRenderer, redact } from "../../../src/cli/render";
import { type AgentEvent } from "../../../src/core/run/events";
import { newRunState } from "../../../src/core/run/runState";

/** Types each answer when a prompt (ending in ": ") appears, like a person would. */
function terminal(...answers: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (d: Buffer) => {
    shown += d.toString();
    if (shown.endsWith(": ") && answers.length) {
      const answer = answers.shift()!;
      setImmediate(() => input.write(`${answer}\n`));
    }
  });
  const gate = new TerminalApprovalGate({ input, output, onInterrupt: () => {} });
  return { gate, shown: () => shown };
}

const editRequest = {
  toolCallId: "c1",
  toolName: "edit_file",
  kind: "edit" as const,
  args: { file_path: "/a.ts" },
  proposal: { path: "/a.ts", before: "one\ntwo\n", after: "one\n2\n" },
};

test("shows the diff of an edit and approves on y", async () => {
  const t = terminal("y");
  const decision = await t.gate.request(editRequest, new AbortController().signal);
  assert.deepEqual(decision, { type: "approve" });
  assert.match(t.shown(), /edit_file wants to change \/a\.ts/);
  assert.match(t.shown(), /^-two$/m);
  assert.match(t.shown(), /^\+2$/m);
});

test("n asks for a reason, which goes to the model", async () => {
  const t = terminal("x", "n", "wrong file");
  const decision = await t.gate.request(
    { toolCallId: "c2", toolName: "execute", kind: "execute", args: { command: "rm x" }, command: "rm x" },
    new AbortController().signal,
  );
  assert.deepEqual(decision, { type: "reject", reason: "wrong file" });
  assert.match(t.shown(), /\$ rm x/);
  assert.match(t.shown(), /Please answer y or n/);
});

test("cancel while asking rejects", async () => {
  const controller = new AbortController();
  const input = new PassThrough();
  const gate = new TerminalApprovalGate({ input, output: new PassThrough(), onInterrupt: () => {} });
  setTimeout(() => controller.abort(), 10);
  assert.equal((await gate.request(editRequest, controller.signal)).type, "reject");
});

test("human renderer: answer on stdout, activity on stderr, secrets redacted", () => {
  let out = "";
  let err = "";
  const target = {
    out: { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WritableStream,
    err: { write: (s: string) => ((err += s), true) } as unknown as NodeJS.WritableStream,
    secrets: ["sk-very-secret-key"],
  };
  const render = humanRenderer(target);
  const events: AgentEvent[] = [
    { type: "text_delta", text: "Looking" },
    {
      type: "tool_call_finished",
      toolCallId: "c",
      toolName: "read_file",
      args: { file_path: "/a.ts" },
      content: "x",
      isError: false,
    },
    {
      type: "subagent",
      toolCallId: "t",
      subagentType: "general-purpose",
      event: {
        type: "tool_call_finished",
        toolCallId: "d",
        toolName: "grep",
        args: { pattern: "foo" },
        content: "No match",
        isError: true,
      },
    },
    { type: "todos_changed", todos: [{ content: "Fix", status: "in_progress" }] },
    { type: "error", kind: "auth", message: "key sk-very-secret-key refused" },
    { type: "text_delta", text: " done" },
    { type: "done", reason: "completed", finalText: "Looking done", state: newRunState() },
  ];
  for (const e of events) render(e);
  assert.equal(out, "Looking\n done\n");
  assert.match(err, /✓ read_file \/a\.ts/);
  assert.match(err, /\[general-purpose\] ✗ grep foo: No match/);
  assert.match(err, /\[>\] Fix/);
  assert.match(err, /error: key \[redacted\] refused/);
  assert.ok(!err.includes("sk-very-secret-key"));

  let json = "";
  jsonRenderer({ ...target, out: { write: (s: string) => ((json += s), true) } as unknown as NodeJS.WritableStream })(
    events[4]!,
  );
  assert.equal(json, '{"type":"error","kind":"auth","message":"key [redacted] refused"}\n');
  assert.equal(redact("short", ["abc"]), "short");
});

test("what the person approves looks like what runs: invisible characters marked, two lines as two, and why it is asked", async () => {
  const command = "npm test \u202E#\u200B\nrm -rf ~/project \u001b[2K";
  const t = terminal("n", "");
  await t.gate.request(
    {
      toolCallId: "c3",
      toolName: "execute",
      kind: "execute",
      args: { command, sandbox: false },
      command,
      reason: "It asks to run outside the OS sandbox.",
      mustAsk: true,
    },
    new AbortController().signal,
  );
  const shown = t.shown();
  // eslint-disable-next-line no-control-regex -- the point: no escape character reaches the terminal
  assert.doesNotMatch(shown, /[\u202E\u200B\u001b]/, "an invisible character reached the terminal");
  assert.match(shown, /\$ npm test <U\+202E>#<U\+200B>↵\n {4}rm -rf ~\/project <U\+001B>\[2K/);
  assert.match(shown, /Asked because: It asks to run outside the OS sandbox\./);

  const t2 = terminal("y");
  await t2.gate.request(
    { ...editRequest, proposal: { path: "/a.ts", before: "one\n", after: "one\u202E\n" } },
    new AbortController().signal,
  );
  assert.match(t2.shown(), /^\+one<U\+202E>$/m);
  const t3 = terminal("y");
  await t3.gate.request(
    { toolCallId: "c4", toolName: "mcp__x__y", kind: "other", args: { text: "a\u2066b" } },
    new AbortController().signal,
  );
  assert.match(t3.shown(), /"text": "a<U\+2066>b"/);
});
