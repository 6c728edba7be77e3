/**
 * The real `openai` and `@anthropic-ai/sdk` clients against the scripted server:
 * streaming text and tool calls, usage and cost, and what goes over the wire.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createModel } from "../../../src/core/model/createModel";
import { costOf } from "../../../src/core/model/modelTable";
import type { ChatMessage } from "../../../src/core/model/types";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect, ofType, request, SECRET, WIRES } from "./helpers";

let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer();
});
after(() => server.close());

/** A conversation with an assistant tool call, a good and a failed tool result. */
const HISTORY: ChatMessage[] = [
  { role: "user", content: "Read a.ts and b.ts" },
  {
    role: "assistant",
    content: "Reading both.",
    toolCalls: [
      { id: "call_1", name: "read_file", arguments: '{"file_path":"/a.ts"}' },
      { id: "call_2", name: "read_file", arguments: '{"file_path":"/b.ts"}' },
    ],
  },
  { role: "tool", toolCallId: "call_1", toolName: "read_file", content: "     1\texport const a = 1;" },
  { role: "tool", toolCallId: "call_2", toolName: "read_file", content: "Error: /b.ts does not exist", isError: true },
  { role: "user", content: "Thanks, go on" },
];

for (const wire of WIRES) {
  describe(`${wire.name} wire`, () => {
    it("streams text in several deltas and ends with the assembled message", async () => {
      const text = "Hello! I can help with that refactoring.";
      server.push({ text });
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error, undefined);
      const deltas = ofType(run, "text_delta");
      assert.ok(deltas.length >= 3, `expected several deltas, got ${deltas.length}`);
      assert.equal(run.text, text);
      assert.equal(run.done?.message.content, text);
      assert.equal(run.done?.message.toolCalls, undefined);
      assert.equal(run.done?.stopReason, "end_turn");
      assert.equal(run.events.at(-1)?.type, "done");
    });

    it("assembles tool calls from split argument deltas, in order", async () => {
      const args1 = { file_path: "/src/extension.ts", offset: 10, limit: 200 };
      server.push({
        text: "Let me look.",
        toolCalls: [
          { name: "read_file", arguments: args1, id: "call_abc" },
          { name: "ls", arguments: { path: "/src" } },
        ],
      });
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error, undefined);
      const starts = ofType(run, "tool_call_start");
      assert.deepEqual(
        starts.map((s) => [s.index, s.name]),
        [
          [0, "read_file"],
          [1, "ls"],
        ],
      );
      assert.equal(starts[0]?.id, "call_abc");
      assert.ok(starts[1]?.id, "a generated id");
      const deltas0 = ofType(run, "tool_call_delta").filter((d) => d.index === 0);
      assert.ok(deltas0.length >= 3, `arguments should arrive split, got ${deltas0.length} deltas`);
      assert.deepEqual(JSON.parse(deltas0.map((d) => d.argumentsDelta).join("")), args1);
      // Every delta of a call comes after its start.
      const firstDelta1 = run.events.findIndex((e) => e.type === "tool_call_delta" && e.index === 1);
      const start1 = run.events.findIndex((e) => e.type === "tool_call_start" && e.index === 1);
      assert.ok(start1 >= 0 && start1 < firstDelta1);
      const calls = run.done?.message.toolCalls ?? [];
      assert.equal(calls.length, 2);
      assert.deepEqual(JSON.parse(calls[0]?.arguments ?? ""), args1);
      assert.deepEqual(JSON.parse(calls[1]?.arguments ?? ""), { path: "/src" });
      assert.equal(calls[1]?.id, starts[1]?.id);
      assert.equal(run.done?.message.content, "Let me look.");
      assert.equal(run.done?.stopReason, "tool_use");
    });

    it("reports usage with cache tokens and prices it", async () => {
      const cacheWrite = wire.name === "anthropic" ? 500 : 0;
      server.push({ text: "ok", usage: { input: 1000, output: 200, cacheRead: 3000, cacheWrite } });
      const run = await collect(wire.make(server).stream(request()));
      const usage = run.done?.usage;
      assert.deepEqual(usage, {
        inputTokens: 1000,
        outputTokens: 200,
        cacheReadTokens: 3000,
        cacheWriteTokens: cacheWrite,
      });
      const cost = costOf(wire.model, usage!);
      const expected =
        wire.name === "openai"
          ? (1000 * 2 + 200 * 8 + 3000 * 0.5) / 1e6
          : (1000 * 3 + 200 * 15 + 3000 * 0.3 + 500 * 3.75) / 1e6;
      assert.ok(cost !== undefined && Math.abs(cost - expected) < 1e-12, `cost ${cost} vs ${expected}`);
    });

    it("passes invalid or truncated tool-call JSON and unknown tool names through untouched", async () => {
      server.push({
        toolCalls: [
          { name: "read_file", arguments: '{"file_path": "/src/a' },
          { name: "launch_rockets", arguments: "{not json}" },
        ],
      });
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error, undefined);
      const calls = run.done?.message.toolCalls ?? [];
      assert.equal(calls[0]?.arguments, '{"file_path": "/src/a');
      assert.equal(calls[1]?.name, "launch_rockets");
      assert.equal(calls[1]?.arguments, "{not json}");
    });

    it("handles an empty answer", async () => {
      server.push({});
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error, undefined);
      assert.equal(run.done?.message.content, "");
      assert.equal(run.done?.message.toolCalls, undefined);
      assert.equal(ofType(run, "text_delta").length, 0);
    });

    it("lets a scripted turn answer from the request it received", async () => {
      server.push((req) => {
        const msgs = req.body.messages as { role: string; content: unknown }[];
        const last = msgs.at(-1)?.content;
        const said = typeof last === "string" ? last : (last as { text: string }[])[0]?.text;
        return { text: `You said: ${said}` };
      });
      const run = await collect(
        wire.make(server).stream(request({ messages: [{ role: "user", content: "ping 42" }] })),
      );
      assert.equal(run.done?.message.content, "You said: ping 42");
    });

    it("sends the key, the tools and the history in the wire format", async () => {
      const before = server.requests.length;
      server.push({ text: "fine" });
      await collect(wire.make(server).stream(request({ messages: HISTORY, maxOutputTokens: 1234 })));
      const rec = server.requests[before];
      assert.ok(rec);
      const auth = rec.headers["authorization"] ?? rec.headers["x-api-key"] ?? "";
      assert.ok(auth.includes(SECRET), "the API key is sent");
      const body = rec.body;
      assert.equal(body.stream, true);
      if (wire.name === "openai") {
        assert.equal(rec.path, "/v1/chat/completions");
        assert.deepEqual(body.stream_options, { include_usage: true });
        assert.equal(body.max_completion_tokens, 1234);
        assert.deepEqual(body.tools[0], {
          type: "function",
          function: { name: "read_file", description: "Read a file", parameters: TOOLS_0 },
        });
        assert.deepEqual(body.messages[0], { role: "system", content: "You are Fathom." });
        assert.deepEqual(body.messages[2], {
          role: "assistant",
          content: "Reading both.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"file_path":"/a.ts"}' } },
            { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"file_path":"/b.ts"}' } },
          ],
        });
        assert.deepEqual(body.messages[3], {
          role: "tool",
          tool_call_id: "call_1",
          content: "     1\texport const a = 1;",
        });
        assert.equal(body.messages[4].tool_call_id, "call_2");
        assert.deepEqual(body.messages[5], { role: "user", content: "Thanks, go on" });
      } else {
        assert.equal(rec.path, "/v1/messages");
        assert.equal(body.max_tokens, 1234);
        assert.deepEqual(body.system, [
          { type: "text", text: "You are Fathom.", cache_control: { type: "ephemeral" } },
        ]);
        assert.deepEqual(body.tools[0], { name: "read_file", description: "Read a file", input_schema: TOOLS_0 });
        assert.deepEqual(body.tools[1].cache_control, { type: "ephemeral" }, "breakpoint on the last tool");
        assert.equal(body.messages.length, 3, "tool results and the next user message merge into one user turn");
        assert.deepEqual(body.messages[1], {
          role: "assistant",
          content: [
            { type: "text", text: "Reading both." },
            { type: "tool_use", id: "call_1", name: "read_file", input: { file_path: "/a.ts" } },
            { type: "tool_use", id: "call_2", name: "read_file", input: { file_path: "/b.ts" } },
          ],
        });
        const last = body.messages[2].content;
        assert.deepEqual(last[0], {
          type: "tool_result",
          tool_use_id: "call_1",
          content: "     1\texport const a = 1;",
        });
        assert.equal(last[1].is_error, true);
        assert.deepEqual(last[2], { type: "text", text: "Thanks, go on", cache_control: { type: "ephemeral" } });
        assert.deepEqual(
          body.messages[0].content[0].cache_control,
          { type: "ephemeral" },
          "breakpoint on the previous user turn",
        );
        const breakpoints = (rec.rawBody.match(/"cache_control"/g) ?? []).length;
        assert.equal(breakpoints, 4, "at most 4 breakpoints, all used");
      }
    });
  });
}

const TOOLS_0 = { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] };

describe("openai-compatible", () => {
  it("needs no API key: sends a placeholder and the server's base URL", async () => {
    server.push({ text: "local model here" });
    const model = createModel({
      provider: "openai-compatible",
      model: "qwen2.5-coder:14b",
      baseUrl: server.baseUrlOpenAI,
    });
    assert.equal(model.provider, "openai-compatible");
    assert.equal(model.contextWindow, 32_768);
    const run = await collect(model.stream(request()));
    assert.equal(run.done?.message.content, "local model here");
    const rec = server.requests.at(-1);
    assert.equal(rec?.body.model, "qwen2.5-coder:14b");
    assert.equal(rec?.headers["authorization"], "Bearer no-key");
    assert.equal(rec?.body.max_completion_tokens, undefined);
  });

  it("asks for a key when the official OpenAI endpoint has none, without a request", async () => {
    const model = createModel({ provider: "openai", model: "gpt-4.1" });
    const run = await collect(model.stream(request()));
    assert.equal(run.error?.kind, "auth");
    assert.match(run.error?.message ?? "", /Fathom: Set API Key.*OPENAI_API_KEY/);
  });
});
