// Constrained mode end to end through the real `openai` client against the scripted server
// (issue 33): the request body per mode, the small profile's "hello", a byte-identical prompt
// prefix, degrading when a server refuses or ignores `response_format` (once, remembered), a
// malformed call that never writes, the last step offering only the answer, a repeated read
// answered from its result, and a loop ending in an answer instead of a stop.
import { after, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { countTokens } from "gpt-tokenizer";
import { createAgent, type AgentOptions } from "../../../src/core/agent/createAgent";
import { REUSED_NOTE } from "../../../src/core/agent/toolRunner";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel } from "../../../src/core/model/createModel";
import type { ModelOverride } from "../../../src/core/model/modelOverrides";
import { forgetToolCallLessons } from "../../../src/core/model/toolCalls/toolCallMemory";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { collect, ofType } from "../../support/agentTestKit";

const servers: ScriptedModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
beforeEach(() => forgetToolCallLessons());

const SMALL = "smollm2-135m-instruct";
const reply = (tool: string, args: Record<string, unknown>) => ({ text: JSON.stringify({ tool, arguments: args }) });

async function setup(
  turns: ScriptedTurn[],
  opts: { model?: string; override?: ModelOverride; agent?: Partial<AgentOptions>; server?: ScriptedModelServer } = {},
) {
  const server = opts.server ?? (await startScriptedModelServer());
  if (!opts.server) servers.push(server);
  server.push(...turns);
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-constrained-"));
  const agent = createAgent({
    model: createModel({
      provider: "openai-compatible",
      model: opts.model ?? SMALL,
      baseUrl: server.baseUrlOpenAI,
      retryBaseDelayMs: 1,
      ...(opts.override ? { override: opts.override } : {}),
    }),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalPolicy: { edit: "auto", execute: "auto" },
    rules: false,
    ...opts.agent,
  });
  return { server, dir, agent };
}

/** The tool names a constrained request's schema offers. */
function offered(body: { response_format?: { json_schema?: { schema?: Record<string, unknown> } } }): string[] {
  const schema = body.response_format?.json_schema?.schema ?? {};
  const branches = (schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema];
  return branches.map((b) => (b.properties as Record<string, { const?: string }>).tool?.const ?? "?");
}

/** What the server reads as the prompt: the messages' text. */
const promptTokens = (body: { messages: { content?: unknown }[] }) =>
  countTokens(
    body.messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n"),
  );

test("a small model by its name: constrained mode and the small profile; hello is a few hundred tokens; the answer streams as text", async () => {
  const { server, agent } = await setup([reply("answer", { text: "Hello! How can I help?" })]);
  const { events, done } = await collect(agent, "hello");
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "Hello! How can I help?");
  assert.equal(
    ofType(events, "text_delta")
      .map((e) => e.text)
      .join(""),
    "Hello! How can I help?",
  );
  const body = server.requests[0]!.body;
  assert.equal(body.tools, undefined, "no tools field: the tools are in the schema");
  assert.equal(body.tool_choice, undefined);
  assert.equal(body.response_format.type, "json_schema");
  assert.equal(body.response_format.json_schema.strict, true);
  assert.deepEqual(offered(body), ["ls", "read_file", "write_file", "edit_file", "execute", "answer"]);
  assert.equal(body.temperature, 0);
  assert.equal(body.max_tokens, 2_400);
  const tokens = promptTokens(body);
  assert.ok(tokens <= 500, `hello's first request is ${tokens} tokens`);
});

test("the request body per mode: native and text are as before, with no reply schema or sampling unless set", async () => {
  const native = await setup([{ text: "hi" }], { model: "qwen2.5-coder:14b" });
  await collect(native.agent, "hello");
  const nb = native.server.requests[0]!.body;
  assert.ok(nb.tools.length >= 9, "the full profile's tools, natively");
  for (const field of ["response_format", "temperature", "seed", "tool_choice"])
    assert.equal(nb[field], undefined, field);
  const fullTokens = promptTokens(nb) + countTokens(JSON.stringify(nb.tools));
  assert.ok(fullTokens > 1_200, `the full profile stays as it was (${fullTokens} tokens)`);

  const text = await setup([{ text: "hi" }], { override: { tools: "text", temperature: 0.7, seed: 3 } });
  await collect(text.agent, "hello");
  const tb = text.server.requests[0]!.body;
  assert.equal(tb.tools, undefined);
  assert.equal(tb.response_format, undefined);
  assert.match(tb.messages[0].content, /<tool_call>/);
  assert.deepEqual([tb.temperature, tb.seed], [0.7, 3], "sampling set by the person is sent in any mode");

  const chosen = await setup([reply("answer", { text: "hi" })], {
    model: "qwen2.5-coder:14b",
    override: { tools: "constrained", profile: "full", temperature: 0.7, seed: 1 },
  });
  await collect(chosen.agent, "hello");
  const cb = chosen.server.requests[0]!.body;
  assert.deepEqual([cb.temperature, cb.seed], [0.7, 1], "the person's sampling wins over greedy");
  assert.ok(
    offered(cb).includes("grep") && offered(cb).includes("task"),
    "the full profile offers every tool in the schema",
  );
});

test("the prompt prefix is byte-identical from request to request (the server's prompt cache holds)", async () => {
  const { server, dir, agent } = await setup([
    reply("read_file", { file_path: "/notes.txt" }),
    reply("answer", { text: "They say hi." }),
  ]);
  writeFileSync(path.join(dir, "notes.txt"), "hi\n");
  const { done } = await collect(agent, "What do my notes say?");
  assert.equal(done.finalText, "They say hi.");
  const [first, second] = server.requests.map((r) => r.body);
  assert.equal(
    JSON.stringify(second.messages.slice(0, 2)),
    JSON.stringify(first.messages),
    "system and the person's message, unchanged",
  );
  assert.equal(
    second.messages[2].content,
    JSON.stringify({ tool: "read_file", arguments: { file_path: "/notes.txt" } }),
    "the call as the model wrote it",
  );
  assert.match(second.messages[3].content, /^Result of read_file:\n/);
  assert.equal(JSON.stringify(second.response_format), JSON.stringify(first.response_format));
});

test("a server that refuses response_format (400): native from then on, said once, remembered for the next task", async () => {
  const server = await startScriptedModelServer([], { dialect: { rejectResponseFormat: true } });
  servers.push(server);
  const first = await setup([{ text: "Hi there." }], { server });
  const { events, done } = await collect(first.agent, "hello");
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "Hi there.");
  const warnings = ofType(events, "warning").filter((w) => w.code === "model_adapted");
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0]!.message,
    /Constrained tool calls are off for smollm2-135m-instruct here: the server refused the reply schema/,
  );
  assert.deepEqual(
    server.requests.map((r) => [Boolean(r.body.response_format), Boolean(r.body.tools)]),
    [
      [true, false],
      [false, true],
    ],
  );
  // A new task (a new model object, the same server and model): straight to native, nothing said again.
  const second = await setup([{ text: "Hi again." }], { server });
  const again = await collect(second.agent, "hello");
  assert.equal(again.done.finalText, "Hi again.");
  assert.equal(ofType(again.events, "warning").filter((w) => w.code === "model_adapted").length, 0);
  assert.equal(server.requests[2]!.body.response_format, undefined);
});

test("a server that ignores response_format (prose comes back): the request is asked again natively, once, and remembered", async () => {
  const { server, agent } = await setup([
    { text: "Sure, I can help you with that! What do you need?" },
    { toolCalls: [{ name: "ls", arguments: {} }] },
    { text: "Empty." },
  ]);
  const { events, done } = await collect(agent, "what is here?");
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "Empty.");
  const warning = ofType(events, "warning").find((w) => w.code === "model_adapted");
  assert.match(warning!.message, /its reply did not follow the reply schema \(response_format was ignored\)/);
  assert.deepEqual(
    server.requests.map((r) => Boolean(r.body.response_format)),
    [true, false, false],
  );
  assert.ok(server.requests[1]!.body.tools.length > 0);
  assert.equal(
    ofType(events, "text_delta")
      .map((e) => e.text)
      .join("")
      .includes("Sure, I can"),
    false,
    "the ignored reply is not shown",
  );
});

test("a server that honours the schema once is trusted: a later odd reply is the model's answer, not a reason to change modes", async () => {
  const { server, agent } = await setup([reply("ls", {}), { text: "nothing to see" }]);
  const { events, done } = await collect(agent, "look");
  assert.equal(done.finalText, "nothing to see");
  assert.equal(ofType(events, "warning").filter((w) => w.code === "model_adapted").length, 0);
  assert.ok(server.requests.every((r) => r.body.response_format));
});

test("a malformed call never writes: it fails with the error and the tool's schema (once), and the model can fix it", async () => {
  const { server, dir, agent } = await setup([
    reply("write_file", { file_path: "/a.txt" }),
    reply("write_file", { file_path: "/a.txt" }),
    reply("write", { file_path: "/a.txt", content: "A" }),
    reply("answer", { text: "Wrote it." }),
  ]);
  const { events, done } = await collect(agent, "write a");
  assert.equal(done.reason, "completed", done.message);
  const results = ofType(events, "tool_call_finished");
  assert.match(
    results[0]!.content,
    /invalid arguments for write_file[\s\S]*content[\s\S]*Its arguments, as JSON Schema: \{/,
  );
  assert.doesNotMatch(results[1]!.content, /as JSON Schema/, "the schema goes back once");
  assert.equal(results[2]!.isError, false);
  assert.match(results[2]!.content, /Your call was read as write_file .*tool "write" read as write_file/);
  assert.ok(existsSync(path.join(dir, "a.txt")));
  // Until the repaired call, nothing was written.
  assert.equal(ofType(events, "tool_call_finished").filter((r) => !r.isError).length, 1);
  assert.equal(server.requests.length, 4);
});

test("on the last allowed step only the answer is offered", async () => {
  const { server, agent } = await setup([reply("ls", {}), reply("answer", { text: "An empty folder." })], {
    agent: { maxSteps: 2 },
  });
  const { done } = await collect(agent, "what is here?");
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "An empty folder.");
  assert.deepEqual(offered(server.requests[0]!.body), [
    "ls",
    "read_file",
    "write_file",
    "edit_file",
    "execute",
    "answer",
  ]);
  assert.deepEqual(offered(server.requests[1]!.body), ["answer"]);
});

test("an identical repeated read is answered from its result with a note, and then only the answer is offered", async () => {
  const { server, dir, agent } = await setup([
    reply("read_file", { file_path: "/a.txt" }),
    () => {
      // Changed behind the agent's back: the repeated call is not run again, so it still says "one".
      writeFileSync(path.join(dir, "a.txt"), "two\n");
      return reply("read_file", { file_path: "/a.txt" });
    },
    reply("answer", { text: "It says one." }),
  ]);
  writeFileSync(path.join(dir, "a.txt"), "one\n");
  const { events, done } = await collect(agent, "what does a.txt say?");
  const results = ofType(events, "tool_call_finished");
  assert.doesNotMatch(results[0]!.content, /\[Note\]/);
  assert.match(results[1]!.content, /one[\s\S]*The same call as before/);
  assert.ok(results[1]!.content.includes(REUSED_NOTE));
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "It says one.");
  assert.deepEqual(offered(server.requests[2]!.body), ["answer"]);
});

test("a loop the guard stops ends in an answer, not a stop", async () => {
  const edit = reply("edit_file", { file_path: "/a.txt", old_string: "missing", new_string: "x" });
  const { server, dir, agent } = await setup([
    edit,
    edit,
    edit,
    edit,
    edit,
    reply("answer", { text: "I could not find it." }),
  ]);
  writeFileSync(path.join(dir, "a.txt"), "one\n");
  const { events, done } = await collect(agent, "change missing to x in a.txt");
  const results = ofType(events, "tool_call_finished");
  assert.match(results[4]!.content, /Not run: you have made this exact call 5 times.*Now answer the person/);
  assert.ok(
    ofType(events, "warning").some(
      (w) => w.code === "repetition" && /Only the final answer is offered next/.test(w.message),
    ),
  );
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "I could not find it.");
  assert.deepEqual(offered(server.requests[5]!.body), ["answer"]);
});

test("a call whose arguments loop is cut and never runs; an answer closed with the wrong quote ends there (SmolLM2-135M's replies)", async () => {
  const looping = `{"tool":"write_file","arguments":{"file_path":"/config.ini","content":"${"This is a file. ".repeat(60)}"}}`;
  const { dir, agent } = await setup([
    { text: looping, chunkDelayMs: 0 },
    {
      text: `{"tool":"answer","arguments":{"text":"The launch code is PURPLE-42.'}} }. This is a JSON object: {\\"\\n\\n}"}}`,
    },
  ]);
  writeFileSync(path.join(dir, "config.ini"), "port = 3000\n");
  const { events, done } = await collect(agent, "change the port");
  const warning = ofType(events, "warning").find((w) => w.code === "model_adapted");
  assert.match(
    warning!.message,
    /wrote the same text over and over in the arguments of write_file: stopped there, and the call is not run/,
  );
  const [result] = ofType(events, "tool_call_finished");
  assert.equal(result!.isError, true);
  assert.match(result!.content, /not valid JSON/);
  assert.equal(readFileSync(path.join(dir, "config.ini"), "utf8"), "port = 3000\n", "nothing written");
  assert.equal(done.reason, "completed", done.message);
  assert.equal(done.finalText, "The launch code is PURPLE-42.");
});
