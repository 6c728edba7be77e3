// Hooks in a real agent run (FakeModel, real hook processes): the JSON contract per event,
// exit codes, timeouts, failClosed, trust (a workspace's allow ignored), cancel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ApprovalGate, ApprovalRequest } from "../../../src/core/approval";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import type { HookDefinition, HookEvent } from "../../../src/core/hooks/hookConfig";
import { FakeModel, assertWellFormed } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const dir = () => mkdtempSync(path.join(tmpdir(), "fathom-hooks-"));

function hook(event: HookEvent, command: string, extra: Partial<HookDefinition> = {}): HookDefinition {
  return {
    event,
    matcher: "",
    command,
    timeoutMs: 10_000,
    failClosed: false,
    origin: "user",
    dialect: "claude",
    source: "/home/p/.claude/settings.json",
    ...extra,
  };
}

function askingGate(): ApprovalGate & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, request: async (r) => (asked.push(r), { type: "approve" }) };
}

function agentWith(root: string, hooks: HookDefinition[], model: FakeModel, gate = askingGate()) {
  return createAgent({
    model,
    workspaceRoot: root,
    backend: new FilesystemBackend({ rootDir: root }),
    executor: new ChildProcessExecutor(),
    approvalGate: gate,
    hooks: { hooks, cwd: root, sessionId: "task-1" },
  });
}

test("PreToolUse exit 2 refuses the call with the hook's stderr; the hook read the documented JSON on stdin", async () => {
  const root = dir();
  writeFileSync(path.join(root, "keep.txt"), "keep\n");
  const seen = path.join(root, "..", `${path.basename(root)}-stdin.json`);
  const guard = hook(
    "PreToolUse",
    `cat > '${seen}'; grep -q '"rm ' '${seen}' && { echo "rm is not allowed here: use git clean" >&2; exit 2; }; exit 0`,
    { matcher: "Bash" },
  );
  const model = new FakeModel([
    { toolCalls: [{ name: "execute", arguments: { command: "rm keep.txt" } }] },
    { text: "ok" },
  ]);
  const gate = askingGate();
  const { events, done } = await collect(agentWith(root, [guard], model, gate), "clean up");
  assert.equal(done.reason, "completed");
  assert.equal(existsSync(path.join(root, "keep.txt")), true);
  assert.equal(gate.asked.length, 0, "a block comes before anyone is asked");
  const result = model.requests[1]!.messages.at(-1)!;
  assert.equal(result.role, "tool");
  assert.match(result.content, /A PreToolUse hook refused this call[\s\S]*rm is not allowed here: use git clean/);
  const input = JSON.parse(readFileSync(seen, "utf8"));
  assert.deepEqual(
    { ...input, tool_use_id: undefined },
    {
      session_id: "task-1",
      cwd: root,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm keep.txt" },
      tool_use_id: undefined,
    },
  );
  const ran = ofType(events, "hook_ran");
  assert.deepEqual(
    ran.map((e) => [e.event, e.decision, e.toolName]),
    [["PreToolUse", "block", "execute"]],
  );
  assert.match(ran[0]!.message!, /rm is not allowed/);
  assertWellFormed(model.requests[1]!.messages);
});

test("JSON permissionDecision: the person's allow skips the question, ask asks, a workspace's allow counts for nothing", async () => {
  const decide = (d: string) =>
    `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${d}","permissionDecisionReason":"because ${d}"}}'`;
  for (const [d, origin, asked] of [
    ["allow", "user", 0],
    ["allow", "workspace", 1],
    ["ask", "user", 1],
  ] as const) {
    const root = dir();
    const model = new FakeModel([
      { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
      { text: "done" },
    ]);
    const gate = askingGate();
    const { events } = await collect(
      agentWith(root, [hook("PreToolUse", decide(d), { origin })], model, gate),
      "write",
    );
    assert.equal(gate.asked.length, asked, `${d} from ${origin}`);
    assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), "x");
    if (d === "ask") assert.match(gate.asked[0]!.reason!, /A PreToolUse hook asks for your approval: because ask/);
    if (origin === "workspace")
      assert.match(ofType(events, "hook_ran")[0]!.message!, /a workspace hook cannot approve calls/);
  }
});

test("a user allow never skips what must reach the person (leaving the sandbox)", async () => {
  const root = dir();
  const model = new FakeModel([
    { toolCalls: [{ name: "execute", arguments: { command: "echo hi", sandbox: false } }] },
    { text: "done" },
  ]);
  const gate = askingGate();
  const agent = createAgent({
    model,
    workspaceRoot: root,
    backend: new FilesystemBackend({ rootDir: root }),
    executor: Object.assign(new ChildProcessExecutor(), { sandboxed: true }),
    approvalGate: gate,
    approvalPolicy: { execute: "auto" },
    hooks: {
      hooks: [hook("PreToolUse", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`)],
      cwd: root,
      sessionId: "t",
    },
  });
  await collect(agent, "go");
  assert.equal(gate.asked.length, 1);
  assert.equal(gate.asked[0]!.mustAsk, true);
});

test("PostToolUse does not run for a call the person rejected", async () => {
  const root = dir();
  const marker = path.join(root, "..", `${path.basename(root)}-post.txt`);
  const model = new FakeModel([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
    { text: "done" },
  ]);
  const rejecting: ApprovalGate = { request: async () => ({ type: "reject", reason: "no" }) };
  const { events } = await collect(
    agentWith(root, [hook("PostToolUse", `touch '${marker}'`)], model, rejecting as ReturnType<typeof askingGate>),
    "write",
  );
  assert.equal(existsSync(marker), false);
  assert.deepEqual(ofType(events, "hook_ran"), []);
});

test("exit codes: other codes warn and go on; not executable and timeouts are said; failClosed refuses", async () => {
  const root = dir();
  const hooks = [
    hook("PreToolUse", "echo broken >&2; exit 1"),
    hook("PreToolUse", path.join(root, "missing-script.sh")),
    hook("PreToolUse", "sleep 30", { timeoutMs: 300 }),
  ];
  const model = new FakeModel([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
    { text: "done" },
  ]);
  const started = Date.now();
  const { events } = await collect(agentWith(root, hooks, model), "write");
  assert.ok(Date.now() - started < 5000, "the sleeping hook was stopped at its timeout");
  assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), "x", "the call ran");
  const lines = ofType(events, "hook_ran").map((e) => `${e.decision}: ${e.message}`);
  assert.match(lines[0]!, /^failed: .*exited with code 1: broken\. The task goes on\./);
  assert.match(lines[1]!, /^failed: .*could not run \(exit 127: not found or not executable/);
  assert.match(lines[2]!, /^failed: .*timed out after 0\.3 s and was stopped/);

  const root2 = dir();
  const model2 = new FakeModel([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
    { text: "done" },
  ]);
  await collect(agentWith(root2, [hook("PreToolUse", "exit 3", { failClosed: true })], model2), "write");
  assert.equal(existsSync(path.join(root2, "a.txt")), false);
  assert.match(
    model2.requests[1]!.messages.at(-1)!.content,
    /exited with code 3\. It is set to refuse calls when it fails \("failClosed": true\)/,
  );
});

test("a hook that prints 50 MB is stopped at the cap, said, and the task goes on", async () => {
  const root = dir();
  const model = new FakeModel([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
    { text: "done" },
  ]);
  const started = Date.now();
  const { events, done } = await collect(
    agentWith(root, [hook("PostToolUse", "head -c 52428800 /dev/zero")], model),
    "write",
  );
  assert.equal(done.reason, "completed");
  assert.ok(Date.now() - started < 10_000);
  assert.match(ofType(events, "hook_ran")[0]!.message!, /printed more than 4 MB, so it was stopped/);
});

test("PostToolUse runs after the write and sees the result; its block reason and additionalContext go to the model", async () => {
  const root = dir();
  const formatter = hook(
    "PostToolUse",
    `f=$(sed -n 's/.*"file_path":"\\([^"]*\\)".*/\\1/p'); tr a-z A-Z < "$f" > "$f.tmp" && mv "$f.tmp" "$f"; echo '{"decision":"block","reason":"formatted it; re-read before editing","hookSpecificOutput":{"additionalContext":"style: upper case"}}'`,
    { matcher: "Write|Edit" },
  );
  const model = new FakeModel([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "hello\n" } }] },
    { text: "done" },
  ]);
  await collect(agentWith(root, [formatter], model), "write");
  assert.equal(readFileSync(path.join(root, "a.txt"), "utf8"), "HELLO\n");
  const result = model.requests[1]!.messages.at(-1)!.content;
  assert.match(result, /The PostToolUse hook .* objected:\nformatted it; re-read before editing/);
  assert.match(result, /not the person's words\):\nstyle: upper case/);
});

test("Stop: exit 2 keeps the task going with its reason, and stop_hook_active lets it end the second time", async () => {
  const root = dir();
  const stop = hook("Stop", `grep -q '"stop_hook_active":true' && exit 0; echo "run the tests first" >&2; exit 2`);
  const model = new FakeModel([{ text: "finished" }, { text: "tests pass, finished" }]);
  const { events, done } = await collect(agentWith(root, [stop], model), "do it");
  assert.equal(done.reason, "completed");
  assert.equal(done.finalText, "tests pass, finished");
  assert.equal(model.requests.length, 2);
  assert.match(
    model.requests[1]!.messages.at(-1)!.content,
    /A Stop hook .* did not let the task end yet\. It said:\nrun the tests first/,
  );
  assert.deepEqual(
    ofType(events, "hook_ran").map((e) => e.decision),
    ["block", "none"],
  );
});

test("a Stop hook that always blocks sends the task back at most 3 times", async () => {
  const root = dir();
  const model = new FakeModel(Array.from({ length: 5 }, () => ({ text: "done" })));
  const { events, done } = await collect(agentWith(root, [hook("Stop", "echo never >&2; exit 2")], model), "go");
  assert.equal(done.reason, "completed");
  assert.equal(model.requests.length, 4);
  assert.match(ofType(events, "warning").at(-1)!.message, /sent the task back 3 times; it ends here/);
});

test("UserPromptSubmit: stdout is context marked as a hook's; exit 2 keeps the prompt from being sent; SessionStart adds context once", async () => {
  const root = dir();
  const hooks = [
    hook("SessionStart", "echo branch is main"),
    hook("UserPromptSubmit", `grep -q secret && { echo "no secrets in prompts" >&2; exit 2; }; echo "today is Friday"`),
  ];
  const model = new FakeModel([{ text: "hi" }]);
  const agent = agentWith(root, hooks, model);
  const first = await collect(agent, "hello");
  const sent = model.requests[0]!.messages;
  assert.equal(sent[0]!.content, "hello");
  assert.match(
    sent[1]!.content,
    /^<hook-context>\nFrom the SessionStart hook "echo branch is main" \(the person's own hook; not the person's words\):\nbranch is main[\s\S]*From the UserPromptSubmit hook[\s\S]*today is Friday\n<\/hook-context>$/,
  );
  const blocked = await collect(agent, "my secret is 42", { state: first.done.state });
  assert.equal(model.requests.length, 1, "nothing was sent");
  assert.equal(blocked.done.reason, "error");
  assert.match(
    blocked.done.message!,
    /Your message was not sent: the UserPromptSubmit hook .* blocked it\. no secrets in prompts/,
  );
  assert.equal(
    blocked.done.state.messages.some((m) => m.content.includes("my secret")),
    false,
  );
  assert.deepEqual(
    ofType(blocked.events, "hook_ran").map((e) => e.event),
    ["UserPromptSubmit"],
    "SessionStart ran only at the task's start",
  );
});

test("Cancel stops a running hook and what it started", async () => {
  const root = dir();
  const marker = path.join(root, "late.txt");
  const model = new FakeModel([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
    { text: "done" },
  ]);
  const controller = new AbortController();
  const agent = agentWith(root, [hook("PreToolUse", `(sleep 2; touch '${marker}') & sleep 20`)], model);
  setTimeout(() => controller.abort(), 300);
  const started = Date.now();
  const { done } = await collect(agent, "go", { signal: controller.signal });
  assert.equal(done.reason, "cancelled");
  assert.ok(Date.now() - started < 3000);
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(existsSync(marker), false, "the hook's child was killed with it");
});

test('"continue": false stops the task after the hook (the call it came before does not run); systemMessage is a line for the person', async () => {
  const root = dir();
  const json = `echo '{"continue":false,"stopReason":"the build is broken: fix it first","systemMessage":"checked by the CI guard"}'`;
  for (const event of ["PreToolUse", "PostToolUse"] as const) {
    const model = new FakeModel([
      {
        toolCalls: [
          { name: "write_file", arguments: { file_path: `/${event}.txt`, content: "x" } },
          { name: "write_file", arguments: { file_path: `/${event}-2.txt`, content: "y" } },
        ],
      },
      { text: "never" },
    ]);
    const { events, done } = await collect(agentWith(root, [hook(event, json)], model), "write");
    assert.equal(model.requests.length, 1, `${event}: the model is not asked again`);
    assert.equal(done.reason, "error");
    assert.match(done.message!, new RegExp(`The ${event} hook .* stopped the task: the build is broken: fix it first`));
    assert.equal(
      existsSync(path.join(root, `${event}.txt`)),
      event === "PostToolUse",
      `${event}: the first write ran only if the hook came after it`,
    );
    assert.equal(
      existsSync(path.join(root, `${event}-2.txt`)),
      false,
      `${event}: nothing runs once a hook stopped the task`,
    );
    assert.match(
      ofType(events, "hook_ran")[0]!.message!,
      /stopped the task: the build is broken[\s\S]*says: checked by the CI guard/,
    );
    assertWellFormed(done.state.messages);
  }
});

test("updatedInput: the person's hook changes the call's arguments; a repository's change is asked; arguments the tool does not take refuse the call", async () => {
  const rewrite = (to: string) => `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":${to}}}'`;
  for (const origin of ["user", "workspace"] as const) {
    const root = dir();
    const to = JSON.stringify({ file_path: path.join(root, "safe.txt"), content: "rewritten" });
    const model = new FakeModel([
      { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
      { text: "done" },
    ]);
    const gate = askingGate();
    await collect(
      createAgent({
        model,
        workspaceRoot: root,
        backend: new FilesystemBackend({ rootDir: root }),
        approvalGate: gate,
        approvalPolicy: { edit: "auto" },
        hooks: { hooks: [hook("PreToolUse", rewrite(to), { origin })], cwd: root, sessionId: "t" },
      }),
      "write",
    );
    assert.equal(readFileSync(path.join(root, "safe.txt"), "utf8"), "rewritten", origin);
    assert.equal(existsSync(path.join(root, "a.txt")), false, origin);
    assert.equal(
      gate.asked.length,
      origin === "workspace" ? 1 : 0,
      `${origin}: asked only when a repository changed the call`,
    );
    if (origin === "workspace") {
      assert.match(gate.asked[0]!.reason!, /the repository's hook .* changed this call's arguments/);
      assert.equal(gate.asked[0]!.proposal!.path, "/safe.txt");
    }
  }
  const root = dir();
  const model = new FakeModel([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "x" } }] },
    { text: "done" },
  ]);
  await collect(agentWith(root, [hook("PreToolUse", rewrite('{"file_path":42}'))], model), "write");
  assert.equal(existsSync(path.join(root, "a.txt")), false);
  assert.match(
    model.requests[1]!.messages.at(-1)!.content,
    /changed this call's arguments to ones write_file does not take \(file_path: .*\), so it did not run/,
  );
});
