// Issue 12, item 4: an image an MCP tool returns (server-everything's get-tiny-image) reaches a
// model that takes images, through the real openai and @anthropic-ai/sdk clients against the
// scripted server, and a text-only model is told it was not shown. Only the latest images are resent.
import { describe, it, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { McpHub } from "../../../src/core/mcp/mcpHub";
import { createModel, type Provider } from "../../../src/core/model/createModel";
import { toOpenAIMessages } from "../../../src/core/model/openaiModel";
import { toAnthropicMessages } from "../../../src/core/model/anthropicModel";
import type { ChatMessage } from "../../../src/core/model/types";
import { startScriptedModelServer } from "../../support/scriptedModelServer";
import { collect } from "../../support/agentTestKit";

const ROOT = path.resolve(__dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "fathom-mcp-img-"));
const hub = new McpHub(
  [
    {
      name: "everything",
      transport: "stdio",
      command: process.execPath,
      args: [path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")],
      env: {},
      headers: {},
      disabled: false,
      timeoutMs: 20_000,
      autoApprove: [],
      disabledTools: [],
      source: "test",
    },
  ],
  { workspaceRoot: dir },
);
const closers: (() => Promise<unknown>)[] = [() => hub.stop()];
before(async () => assert.deepEqual(await hub.start(), []));
after(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function run(provider: Provider, model: string) {
  const server = await startScriptedModelServer([
    { toolCalls: [{ name: "mcp__everything__get-tiny-image", arguments: {} }] },
    { text: "It is the MCP logo." },
  ]);
  closers.push(() => server.close());
  const agent = createAgent({
    model: createModel({
      provider,
      model,
      baseUrl: provider === "anthropic" ? server.baseUrlAnthropic : server.baseUrlOpenAI,
      apiKey: "sk-test",
      retryBaseDelayMs: 1,
    }),
    workspaceRoot: dir,
    rules: false,
    tools: hub.tools().tools,
    deferToolsOverChars: 1_000_000,
  });
  await collect(agent, "what does the tiny image show?");
  return server.requests[1]!.body;
}

describe("images from MCP tools", () => {
  it("OpenAI: the image follows the tool results as a user message with a data URL", async () => {
    const body = await run("openai", "gpt-4.1");
    const toolIndex = body.messages.findIndex((m: { role: string }) => m.role === "tool");
    assert.match(body.messages[toolIndex].content, /\[image 1: image\/png, \d+ KB\]/);
    const next = body.messages[toolIndex + 1];
    assert.equal(next.role, "user");
    const image = next.content.find((p: { type: string }) => p.type === "image_url");
    assert.match(image.image_url.url, /^data:image\/png;base64,iVBORw0KGgo/);
  });

  it("Anthropic: the image is a block inside the tool_result", async () => {
    const body = await run("anthropic", "claude-sonnet-5-5");
    const result = body.messages
      .flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
      .find((b: { type: string }) => b.type === "tool_result");
    assert.ok(Array.isArray(result.content), JSON.stringify(result));
    const image = result.content.find((b: { type: string }) => b.type === "image");
    assert.equal(image.source.type, "base64");
    assert.equal(image.source.media_type, "image/png");
    assert.match(image.source.data, /^iVBORw0KGgo/);
  });

  it("a model not known to take images (a local one) gets no image and is told so", async () => {
    const body = await run("openai-compatible", "qwen2.5-coder:14b");
    assert.ok(!JSON.stringify(body).includes("iVBORw0KGgo"), "no image bytes are sent");
    const tool = body.messages.find((m: { role: string }) => m.role === "tool");
    assert.match(tool.content, /1 image not shown: the model in use takes text only/);
  });

  it("only the latest 3 images are resent with each request", () => {
    const png = { mimeType: "image/png", data: "AAAA" };
    const messages: ChatMessage[] = [
      { role: "user", content: "shots" },
      {
        role: "assistant",
        content: "",
        toolCalls: [1, 2, 3, 4].map((i) => ({ id: `c${i}`, name: "shot", arguments: "{}" })),
      },
    ];
    for (const i of [1, 2, 3, 4])
      messages.push({ role: "tool", toolCallId: `c${i}`, toolName: "shot", content: `shot ${i}`, images: [png] });
    const openai = toOpenAIMessages("", messages, { images: true });
    assert.equal(JSON.stringify(openai).split("data:image/png").length - 1, 3);
    assert.match(JSON.stringify(openai[2]), /shot 1.*1 image not shown: only the latest 3 images are sent/);
    const anthropic = toAnthropicMessages(messages, { images: true });
    assert.equal(JSON.stringify(anthropic).split('"type":"image"').length - 1, 3);
  });
});
