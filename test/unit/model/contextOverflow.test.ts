// A request that does not fit the server's context window: llama.cpp's llama-server answers
// 400 exceed_context_size_error (its real body, recorded from the real-model suite's server
// started with -c 512); OpenAI and vLLM say "maximum context length". The person is told that,
// and what to do, instead of "the server refused the request".
import { after, before, it } from "node:test";
import assert from "node:assert/strict";
import { createModel } from "../../../src/core/model/createModel";
import { isContextOverflow } from "../../../src/core/model/errors";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect, request } from "./helpers";

let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer();
});
after(() => server.close());

const LLAMA_CPP_BODY = {
  error: {
    code: 400,
    message: "request (2189 tokens) exceeds the available context size (512 tokens), try increasing it",
    type: "exceed_context_size_error",
    n_prompt_tokens: 2189,
    n_ctx: 512,
  },
};
const OPENAI_BODY = {
  error: {
    message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9021 tokens.",
    type: "invalid_request_error",
    code: "context_length_exceeded",
  },
};

for (const [name, body] of [
  ["llama.cpp", LLAMA_CPP_BODY],
  ["OpenAI / vLLM", OPENAI_BODY],
] as const) {
  it(`${name}: a context overflow says so and what to do, and is not retried`, async () => {
    const before = server.requests.length;
    server.push({ fault: "http", status: 400, body });
    const model = createModel({
      provider: "openai-compatible",
      model: "gemma-3-270m",
      baseUrl: server.baseUrlOpenAI,
      retryBaseDelayMs: 1,
      surface: "cli",
    });
    const run = await collect(model.stream(request()));
    assert.equal(server.requests.length, before + 1, "not retried");
    assert.equal(run.error?.kind, "bad_request");
    assert.match(run.error?.message ?? "", /no longer fits the model's context window \(400\)/);
    assert.match(
      run.error?.message ?? "",
      /Start a new task, or give the model a larger context window \(llama\.cpp's llama-server: -c/,
    );
    assert.ok(run.error?.message.includes(body.error.message), "the server's own words are kept");
  });
}

it("other refusals stay as they were", () => {
  assert.equal(
    isContextOverflow({ kind: "bad_request", reason: "refused (400)", detail: "tools: unknown field" }),
    false,
  );
  assert.equal(
    isContextOverflow({
      kind: "bad_request",
      reason: "refused (400)",
      detail: "prompt is too long: 210000 tokens > 200000 maximum",
    }),
    true,
  );
});
