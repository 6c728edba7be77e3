/**
 * Anthropic's thinking blocks and the person's images, through the real `@anthropic-ai/sdk`
 * against the scripted server: thinking streams as reasoning, comes back signed while thinking
 * is on (the API needs it to continue a tool-use turn), and never otherwise.
 */
import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createModel, type CreateModelOptions } from "../../../src/core/model/createModel";
import type { ChatMessage } from "../../../src/core/model/types";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { signatureOf } from "../../support/scriptedWire";
import { collect, ofType, request, SECRET } from "./helpers";

let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer();
});
after(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const claude = (o: Partial<CreateModelOptions> = {}) =>
  createModel({
    provider: "anthropic",
    model: "claude-sonnet-4-6",
    baseUrl: server.baseUrlAnthropic,
    apiKey: SECRET,
    retryBaseDelayMs: 1,
    streamIdleTimeoutMs: 5_000,
    ...o,
  });

describe("Anthropic thinking", () => {
  it("a thinking budget turns thinking on; thinking streams as reasoning with its signature kept", async () => {
    const thinking = "I need the file first, so I call read_file.";
    server.push({
      reasoning: thinking,
      redactedThinking: "EuYBCkQYAiJA",
      toolCalls: [{ name: "read_file", arguments: { file_path: "/a.ts" }, id: "toolu_1" }],
    });
    const model = claude({ override: { thinkingBudget: 4000 } });
    const run = await collect(model.stream(request()));
    assert.equal(run.error, undefined, run.error?.message);
    const body = server.requests[0]!.body;
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 4000 });
    assert.ok(body.max_tokens > 4000, "max_tokens stays above the budget");
    assert.equal(
      ofType(run, "reasoning_delta")
        .map((e) => e.text)
        .join(""),
      thinking,
    );
    assert.deepEqual(run.done?.message.reasoning, [
      { text: thinking, signature: signatureOf(thinking) },
      { text: "", redacted: "EuYBCkQYAiJA" },
    ]);

    // The tool-use turn continues: its thinking goes back first, signed and unchanged.
    server.push({ text: "It exports a." });
    const history: ChatMessage[] = [
      { role: "user", content: "Hello" },
      run.done!.message,
      { role: "tool", toolCallId: "toolu_1", toolName: "read_file", content: "export const a = 1;" },
    ];
    await collect(model.stream(request({ messages: history })));
    const assistant = server.requests[1]!.body.messages[1];
    assert.deepEqual(assistant.content.slice(0, 2), [
      { type: "thinking", thinking, signature: signatureOf(thinking) },
      { type: "redacted_thinking", data: "EuYBCkQYAiJA" },
    ]);
    assert.equal(assistant.content[2].type, "tool_use");
  });

  it("without thinking on, and for reasoning another model produced, nothing is sent back", async () => {
    const history: ChatMessage[] = [
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Hi.", reasoning: [{ text: "signed", signature: "sig_x" }] },
      { role: "user", content: "And?" },
    ];
    server.push({ text: "a" });
    await collect(claude().stream(request({ messages: history })));
    assert.equal(server.requests[0]!.body.thinking, undefined);
    assert.doesNotMatch(server.requests[0]!.rawBody, /"thinking"|sig_x/);

    const fromDeepSeek: ChatMessage[] = [
      { role: "user", content: "Hello" },
      { role: "assistant", content: "Hi.", reasoning: [{ text: "unsigned reasoning" }] },
      { role: "user", content: "And?" },
    ];
    server.push({ text: "b" });
    await collect(claude({ override: { thinkingBudget: 2048 } }).stream(request({ messages: fromDeepSeek })));
    assert.doesNotMatch(server.requests[1]!.rawBody, /unsigned reasoning/);
  });
});

describe("the person's images on the Anthropic wire", () => {
  it("go as image blocks before the text, for a model that reads images", async () => {
    server.push({ text: "A cat." });
    const image = { mimeType: "image/jpeg", data: "/9j/4AAQSkZJRg==" };
    await collect(
      claude().stream(request({ messages: [{ role: "user", content: "What is this?", images: [image] }] })),
    );
    const content = server.requests[0]!.body.messages[0].content;
    assert.deepEqual(content[0], {
      type: "image",
      source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQSkZJRg==" },
    });
    assert.equal(content[1].type, "text");
    assert.equal(content[1].text, "What is this?");
  });

  it("are left out for a model set to take no images, and the model is told", async () => {
    server.push({ text: "?" });
    await collect(
      claude({ override: { images: false } }).stream(
        request({
          messages: [{ role: "user", content: "What is this?", images: [{ mimeType: "image/png", data: "AAAA" }] }],
        }),
      ),
    );
    const content = server.requests[0]!.body.messages[0].content;
    assert.equal(content.length, 1);
    assert.match(content[0].text, /The person attached 1 image that is not shown/);
  });
});
