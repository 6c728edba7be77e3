// The model lists of each kind of server, through the real clients against the scripted server.
import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { listModels } from "../../../src/core/model/listModels";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { SECRET } from "./helpers";

let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer();
});
after(() => server.close());
beforeEach(() => {
  server.dialect = {};
});

describe("listModels", () => {
  it("OpenAI: GET /v1/models with the key; context window and price from the table", async () => {
    server.dialect = {
      lists: { openai: [{ id: "gpt-4.1" }, { id: "text-embedding-3-small" }, { id: "my-fine-tune" }] },
    };
    const list = await listModels({ provider: "openai", baseUrl: server.baseUrlOpenAI, apiKey: SECRET });
    assert.equal(list.error, undefined);
    const gpt = list.models.find((m) => m.id === "gpt-4.1");
    assert.deepEqual(gpt, { id: "gpt-4.1", contextWindow: 1_047_576, price: { input: 2, output: 8 }, images: true });
    assert.deepEqual(
      list.models.find((m) => m.id === "my-fine-tune"),
      { id: "my-fine-tune" },
    );
  });

  it("OpenRouter-style context_length and per-token pricing are read", async () => {
    server.dialect = {
      lists: {
        openai: [
          { id: "vendor/some-model", contextLength: 65_536, pricing: { prompt: "0.0000005", completion: "0.0000015" } },
        ],
      },
    };
    const list = await listModels({ provider: "openai-compatible", baseUrl: server.baseUrlOpenAI });
    const [m] = list.models;
    assert.equal(m?.contextWindow, 65_536);
    assert.ok(
      Math.abs(m!.price!.input - 0.5) < 1e-9 && Math.abs(m!.price!.output - 1.5) < 1e-9,
      JSON.stringify(m?.price),
    );
  });

  it("Anthropic: every page of the models list, with display name and context window", async () => {
    const many = Array.from({ length: 130 }, (_, i) => ({
      id: `claude-test-${String(i).padStart(3, "0")}`,
      contextLength: 200_000,
    }));
    server.dialect = {
      lists: {
        anthropic: [{ id: "claude-sonnet-4-6", displayName: "Claude Sonnet 4.6", capabilities: ["vision"] }, ...many],
      },
    };
    const list = await listModels({ provider: "anthropic", baseUrl: server.baseUrlAnthropic, apiKey: SECRET });
    assert.equal(list.error, undefined);
    assert.equal(list.models.length, 131, "two pages of 100");
    const sonnet = list.models.find((m) => m.id === "claude-sonnet-4-6");
    assert.equal(sonnet?.name, "Claude Sonnet 4.6");
    assert.equal(sonnet?.contextWindow, 1_000_000, "the table knows it");
    assert.deepEqual(sonnet?.price, { input: 3, output: 15 });
    assert.equal(list.models.find((m) => m.id === "claude-test-007")?.contextWindow, 200_000);
  });

  it("Ollama: /api/tags, and each model's context length, tools and vision from /api/show", async () => {
    server.dialect = {
      lists: {
        ollama: [
          { id: "qwen2.5-coder:14b", contextLength: 32_768, capabilities: ["completion", "tools"] },
          { id: "llava:7b", contextLength: 4_096, capabilities: ["completion", "vision"] },
        ],
      },
    };
    const list = await listModels({ provider: "openai-compatible", baseUrl: server.baseUrlOpenAI });
    assert.equal(list.error, undefined);
    assert.deepEqual(list.models, [
      { id: "llava:7b", contextWindow: 4_096, images: true, tools: false },
      { id: "qwen2.5-coder:14b", contextWindow: 32_768, images: false, tools: true },
    ]);
  });

  it("the person's overrides win over the server and the table", async () => {
    server.dialect = {
      lists: { ollama: [{ id: "qwen2.5-coder:14b", contextLength: 32_768, capabilities: ["completion", "tools"] }] },
    };
    const list = await listModels({
      provider: "openai-compatible",
      baseUrl: server.baseUrlOpenAI,
      overrides: { "qwen2.5-coder:14b": { contextWindow: 131_072, tools: "text", price: { input: 0, output: 0 } } },
    });
    assert.deepEqual(list.models[0], {
      id: "qwen2.5-coder:14b",
      contextWindow: 131_072,
      price: { input: 0, output: 0 },
      images: false,
      tools: false,
    });
  });

  it("a server that cannot list models gives an error to show (never a throw) and no models", async () => {
    server.dialect = { lists: { openai: { status: 404, message: "Not Found" } } };
    const list = await listModels({ provider: "openai-compatible", baseUrl: server.baseUrlOpenAI });
    assert.deepEqual(list.models, []);
    assert.match(
      list.error!,
      new RegExp(
        `Could not list the models of ${server.baseUrlOpenAI.replace(/[.]/g, "\\.")} \\(404\\).*Type a model id instead`,
      ),
    );

    server.dialect = { lists: { openai: { status: 401 } } };
    const refused = await listModels({ provider: "openai", baseUrl: server.baseUrlOpenAI, apiKey: SECRET });
    assert.match(refused.error!, /\(401\): the API key was refused/);
    assert.doesNotMatch(refused.error!, /SECRET/);

    const down = await listModels({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:9/v1",
      timeoutMs: 3_000,
    });
    assert.match(down.error!, /could not be reached|did not list/);
  });
});
