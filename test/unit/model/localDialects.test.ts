/**
 * Local and OpenAI-compatible servers as they really are, through the real `openai` client
 * against the scripted server: tool calls written as text, servers without native tools, no
 * `stream_options`, reasoning content, `<think>` tags, per-model overrides.
 */
import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createModel, type CreateModelOptions } from "../../../src/core/model/createModel";
import type { ChatMessage } from "../../../src/core/model/types";
import { forgetToolCallLessons } from "../../../src/core/model/toolCalls/toolCallMemory";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect, ofType, request, TOOLS } from "./helpers";

let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer();
});
after(() => server.close());
beforeEach(() => {
  // What a server refused is remembered per server and model for the process: each test starts afresh.
  forgetToolCallLessons();
  server.dialect = {};
  server.requests.length = 0;
});

const local = (o: Partial<CreateModelOptions> = {}) =>
  createModel({
    provider: "openai-compatible",
    model: "qwen2.5-coder:7b",
    baseUrl: server.baseUrlOpenAI,
    retryBaseDelayMs: 1,
    streamIdleTimeoutMs: 5_000,
    ...o,
  });

describe("tool calls written in the text", () => {
  it("runs a <tool_call> of a known tool when no native call came, and says so", async () => {
    server.push({
      text: 'I will list the folder.\n<tool_call>\n{"name": "ls", "arguments": {"path": "/src"}}\n</tool_call>',
    });
    const run = await collect(local().stream(request()));
    assert.equal(run.error, undefined);
    assert.ok(server.requests[0]!.body.tools?.length, "tools were sent natively");
    const calls = run.done?.message.toolCalls ?? [];
    assert.deepEqual(
      calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [["ls", { path: "/src" }]],
    );
    assert.equal(run.done?.message.content, "I will list the folder.");
    assert.equal(run.done?.stopReason, "tool_use");
    assert.deepEqual(
      ofType(run, "text_reset").map((e) => e.text),
      ["I will list the folder."],
    );
    const notice = ofType(run, "notice")[0];
    assert.equal(notice?.code, "text_tool_calls");
    assert.match(notice!.message, /Ran ls, which qwen2\.5-coder:7b wrote as text/);
    assert.deepEqual(
      ofType(run, "tool_call_start").map((e) => e.name),
      ["ls"],
    );
  });

  it("reads fenced JSON too, and leaves a JSON example of an unknown tool as text", async () => {
    server.push(
      { text: '```json\n{"name": "read_file", "arguments": {"file_path": "/a.ts"}}\n```' },
      { text: 'Example:\n```json\n{"name": "deploy", "arguments": {}}\n```' },
    );
    const first = await collect(local().stream(request()));
    assert.deepEqual(
      first.done?.message.toolCalls?.map((c) => c.name),
      ["read_file"],
    );
    const second = await collect(local().stream(request()));
    assert.equal(second.done?.message.toolCalls, undefined);
    assert.equal(ofType(second, "notice").length, 0);
    assert.match(second.done!.message.content, /deploy/);
  });

  it("prefers a native call: text that looks like a call is then only text", async () => {
    server.push({
      text: '<tool_call>{"name": "ls", "arguments": {"path": "/"}}</tool_call>',
      toolCalls: [{ name: "read_file", arguments: { file_path: "/b" } }],
    });
    const run = await collect(local().stream(request()));
    assert.deepEqual(
      run.done?.message.toolCalls?.map((c) => c.name),
      ["read_file"],
    );
    assert.equal(ofType(run, "text_reset").length, 0);
  });
});

describe("a server without native tool calling", () => {
  it("is told once, then gets its tools in the prompt and its calls are read from its text", async () => {
    server.dialect = { noNativeTools: true };
    server.push(
      { text: '<tool_call>{"name": "read_file", "arguments": {"file_path": "/a.ts"}}</tool_call>' },
      { text: "The file exports a." },
    );
    const model = local();
    const first = await collect(model.stream(request()));
    assert.equal(first.error, undefined, first.error?.message);
    assert.equal(ofType(first, "notice")[0]?.code, "tools_as_text");
    assert.match(ofType(first, "notice")[0]!.message, /does not support tools/);
    assert.deepEqual(
      first.done?.message.toolCalls?.map((c) => c.name),
      ["read_file"],
    );
    // The refused request, then the same one with tools in the prompt.
    assert.equal(server.requests.length, 2);
    const textual = server.requests[1]!.body;
    assert.equal(textual.tools, undefined);
    assert.match(textual.messages[0].content, /<tool_call>\{"name": "<tool name>"/);
    assert.match(textual.messages[0].content, /"name":"read_file"/);

    // The next turn: no tools field from the start; the call and its result are text.
    const history: ChatMessage[] = [
      { role: "user", content: "Hello" },
      { ...first.done!.message },
      {
        role: "tool",
        toolCallId: first.done!.message.toolCalls![0]!.id,
        toolName: "read_file",
        content: "export const a = 1;",
      },
    ];
    const second = await collect(model.stream(request({ messages: history })));
    assert.equal(second.done?.message.content, "The file exports a.");
    assert.equal(server.requests.length, 3, "no second refusal");
    const sent = server.requests[2]!.body.messages as { role: string; content: string }[];
    assert.deepEqual(
      sent.map((m) => m.role),
      ["system", "user", "assistant", "user"],
    );
    assert.match(
      sent[2]!.content,
      /<tool_call>\{"name":"read_file","arguments":\{"file_path":"\/a.ts"\}\}<\/tool_call>/,
    );
    assert.match(sent[3]!.content, /<tool_result name="read_file">\nexport const a = 1;\n<\/tool_result>/);
  });

  it("tools: text in the overrides asks that way from the first request; tools: none sends no tools at all", async () => {
    server.push(
      { text: '<tool_call>{"name": "ls", "arguments": {}}</tool_call>' },
      { text: '<tool_call>{"name": "ls", "arguments": {}}</tool_call>' },
    );
    const text = await collect(local({ override: { tools: "text" } }).stream(request()));
    assert.equal(server.requests[0]!.body.tools, undefined);
    assert.match(server.requests[0]!.body.messages[0].content, /# Calling tools/);
    assert.deepEqual(
      text.done?.message.toolCalls?.map((c) => c.name),
      ["ls"],
    );
    assert.match(ofType(text, "notice")[0]!.message, /tools are sent in the prompt/);

    const none = await collect(local({ override: { tools: "none" } }).stream(request()));
    assert.equal(server.requests[1]!.body.tools, undefined);
    assert.doesNotMatch(server.requests[1]!.body.messages[0].content, /Calling tools/);
    assert.equal(none.done?.message.toolCalls, undefined, "nothing is run with tools: none");
  });
});

describe("usage", () => {
  it("comes from stream_options.include_usage where the server offers it", async () => {
    server.push({ text: "hi", usage: { input: 120, output: 7 } });
    const run = await collect(local().stream(request()));
    assert.deepEqual(server.requests[0]!.body.stream_options, { include_usage: true });
    assert.equal(run.done?.usage.inputTokens, 120);
    assert.equal(run.done?.usage.outputTokens, 7);
    assert.equal(run.done?.usageEstimated, undefined);
  });

  it("is estimated from characters when the server ignores include_usage", async () => {
    server.dialect = { ignoreStreamOptions: true };
    server.push({ text: "x".repeat(400) });
    const run = await collect(local().stream(request()));
    assert.equal(run.done?.usageEstimated, true);
    assert.equal(run.done?.usage.outputTokens, 100);
    assert.ok(run.done!.usage.inputTokens > 10);
  });

  it("a server that refuses stream_options is asked again without it, and from then on", async () => {
    server.dialect = { rejectStreamOptions: true };
    server.push({ text: "first" }, { text: "second" });
    const model = local();
    const first = await collect(model.stream(request()));
    assert.equal(first.error, undefined, first.error?.message);
    assert.equal(first.done?.message.content, "first");
    assert.equal(ofType(first, "notice")[0]?.code, "no_stream_options");
    assert.equal(first.done?.usageEstimated, true);
    await collect(model.stream(request()));
    assert.deepEqual(
      server.requests.map((r) => r.body.stream_options !== undefined),
      [true, false, false],
    );
  });
});

describe("reasoning", () => {
  for (const field of ["reasoning_content", "reasoning"] as const) {
    it(`${field} deltas stream as reasoning, are kept on the message, and are never sent back`, async () => {
      server.push({ reasoning: "The user greets me. I should greet back.", reasoningField: field, text: "Hello!" });
      const model = local({ model: "deepseek-reasoner" });
      const run = await collect(model.stream(request()));
      assert.equal(
        ofType(run, "reasoning_delta")
          .map((e) => e.text)
          .join(""),
        "The user greets me. I should greet back.",
      );
      assert.ok(ofType(run, "reasoning_delta").length >= 3, "streamed in pieces");
      assert.equal(run.done?.message.content, "Hello!");
      assert.deepEqual(run.done?.message.reasoning, [{ text: "The user greets me. I should greet back." }]);
      server.push({ text: "ok" });
      await collect(
        model.stream(
          request({
            messages: [{ role: "user", content: "Hi" }, run.done!.message, { role: "user", content: "again" }],
          }),
        ),
      );
      const resent = server.requests.at(-1)!.rawBody;
      assert.doesNotMatch(resent, /reasoning|greet back/, "DeepSeek refuses reasoning_content in input");
    });
  }

  it("<think>…</think> at the start of the text is reasoning, however it is split", async () => {
    server.push({ text: "<think>\nShort plan: answer.\n</think>\n\nThe answer is 4." });
    const run = await collect(local().stream(request()));
    assert.equal(run.done?.message.content, "The answer is 4.");
    assert.equal(run.done?.message.reasoning?.[0]?.text.trim(), "Short plan: answer.");
    assert.equal(run.text, "The answer is 4.", "no tag reached the answer's deltas");
    server.push({ text: "No thinking, just <think> mentioned." });
    const plain = await collect(local().stream(request()));
    assert.equal(plain.done?.message.content, "No thinking, just <think> mentioned.");
    assert.equal(plain.done?.message.reasoning, undefined);
  });
});

describe("overrides of models the table does not know", () => {
  it("context window, images and price", () => {
    const plain = local();
    assert.equal(plain.contextWindow, 32_768);
    assert.equal(plain.acceptsImages, false);
    assert.equal(
      plain.costOf({ inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }),
      undefined,
    );
    const mine = local({ override: { contextWindow: 131_072, images: true, price: { input: 0.5, output: 1.5 } } });
    assert.equal(mine.contextWindow, 131_072);
    assert.equal(mine.acceptsImages, true);
    assert.equal(
      mine.costOf({ inputTokens: 1_000_000, outputTokens: 2_000_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 0 }),
      0.5 + 3 + 0.5,
    );
  });

  it("sends the person's image only to a model that reads images, and tells one that does not", async () => {
    const image = { mimeType: "image/png", data: "iVBORw0KGgo=" };
    const messages: ChatMessage[] = [{ role: "user", content: "What is in this screenshot?", images: [image] }];
    server.push({ text: "a" }, { text: "b" });
    await collect(local({ override: { images: true } }).stream(request({ messages })));
    await collect(local().stream(request({ messages })));
    const withImage = server.requests[0]!.body.messages[1].content;
    assert.deepEqual(withImage, [
      { type: "text", text: "What is in this screenshot?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    ]);
    const without = server.requests[1]!.body.messages[1].content;
    assert.equal(typeof without, "string");
    assert.match(without, /The person attached 1 image that is not shown: the model in use takes text only/);
    assert.doesNotMatch(server.requests[1]!.rawBody, /iVBORw0KGgo/);
  });

  it("tools in every request, not only the first", async () => {
    server.push({ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "done" });
    const model = local();
    const first = await collect(model.stream(request()));
    await collect(
      model.stream(
        request({
          messages: [
            { role: "user", content: "Hello" },
            first.done!.message,
            { role: "tool", toolCallId: first.done!.message.toolCalls![0]!.id, toolName: "ls", content: "a" },
          ],
        }),
      ),
    );
    assert.deepEqual(
      server.requests.map((r) => r.body.tools?.length),
      [TOOLS.length, TOOLS.length],
    );
  });
});
