import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  contextWindowOf,
  costOf,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_LOCAL_CONTEXT_WINDOW,
  defaultMaxOutputTokens,
  lookupModel,
  promptTokensOf,
} from "../../../src/core/model/modelTable";
import { createModel, DEFAULT_MODELS } from "../../../src/core/model/createModel";

const usage = {
  inputTokens: 1_000_000,
  outputTokens: 1_000_000,
  cacheReadTokens: 1_000_000,
  cacheWriteTokens: 1_000_000,
};

describe("model table", () => {
  it("matches dated ids, -latest and vendor prefixes to the base entry", () => {
    assert.equal(lookupModel("gpt-4o-2024-08-06"), lookupModel("gpt-4o"));
    assert.equal(lookupModel("claude-sonnet-4-20250514"), lookupModel("claude-sonnet-4"));
    assert.equal(lookupModel("claude-3-5-sonnet-latest"), lookupModel("claude-3-5-sonnet"));
    assert.equal(lookupModel("anthropic/claude-sonnet-4.5"), lookupModel("claude-sonnet-4-5"));
    assert.equal(lookupModel("openai/gpt-4.1"), lookupModel("gpt-4.1"));
    assert.ok(lookupModel("gpt-4.1"));
  });

  it("prefers the longest key and does not let a family swallow its siblings", () => {
    assert.equal(costOf("gpt-4o-mini-2024-07-18", usage), 0.15 + 0.6 + 0.075 + 0.15);
    assert.notEqual(lookupModel("gpt-4.1-mini"), lookupModel("gpt-4.1"));
    assert.notEqual(lookupModel("claude-sonnet-4-5-20250929"), lookupModel("claude-sonnet-4"));
    assert.equal(lookupModel("gpt-5.3-experimental"), undefined, "not priced as gpt-5");
    assert.equal(lookupModel("claude-sonnet-4-9"), undefined, "not priced as claude-sonnet-4");
  });

  it("prices every kind of token; unknown models have no price", () => {
    // gpt-4.1: $2 in, $8 out, $0.50 cached; OpenAI charges nothing extra to write its cache.
    assert.equal(costOf("gpt-4.1", usage), 2 + 8 + 0.5 + 2);
    // Opus 4.1: $15 in, $75 out, $1.50 cache read, $18.75 cache write.
    assert.equal(costOf("claude-opus-4-1-20250805", usage), 15 + 75 + 1.5 + 18.75);
    assert.equal(costOf("qwen2.5-coder:14b", usage), undefined);
    assert.equal(costOf("gpt-4.1", { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }), 0);
  });

  it("knows context windows, with a default for unknown models", () => {
    assert.equal(contextWindowOf("gpt-4.1-2025-04-14"), 1_047_576);
    assert.equal(contextWindowOf("gpt-4o"), 128_000);
    assert.equal(contextWindowOf("claude-haiku-4-5-20251001"), 200_000);
    assert.equal(contextWindowOf("some-new-model"), DEFAULT_CONTEXT_WINDOW);
    assert.equal(contextWindowOf("llama3.1:8b", { local: true }), DEFAULT_LOCAL_CONTEXT_WINDOW);
  });

  it("caps the default max output tokens", () => {
    assert.equal(defaultMaxOutputTokens("claude-3-5-haiku-20241022"), 8_192);
    assert.equal(defaultMaxOutputTokens("claude-sonnet-4-5"), 32_000);
    assert.equal(defaultMaxOutputTokens("mystery"), 8_192);
  });

  it("counts the whole prompt", () => {
    assert.equal(promptTokensOf({ inputTokens: 10, outputTokens: 99, cacheReadTokens: 200, cacheWriteTokens: 3 }), 213);
  });

  it("createModel fills the model, the window and honours an explicit window", () => {
    const m = createModel({ provider: "anthropic", model: "", apiKey: "x" });
    assert.equal(m.model, DEFAULT_MODELS.anthropic);
    assert.equal(m.provider, "anthropic");
    assert.equal(m.contextWindow, contextWindowOf(DEFAULT_MODELS.anthropic));
    assert.equal(createModel({ provider: "openai", model: "gpt-4o", contextWindow: 5000 }).contextWindow, 5000);
  });
});
