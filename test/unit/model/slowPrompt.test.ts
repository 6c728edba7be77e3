// llama.cpp's llama-server on a CPU sends its response headers at once, then nothing while it
// reads the prompt (Fathom's first request, ~2,000 tokens, took 100 s at 20 tokens/s in the
// real-model suite), then the answer. Fathom's 60 s idle timeout cut that silence and sent the
// whole prompt again. The wait before the first output is now its own, longer timeout; once the
// answer streams, a silent server still times out as before.
import { after, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createModel } from "../../../src/core/model/createModel";
import { collect, request } from "./helpers";

const servers: Server[] = [];
after(() => servers.forEach((s) => s.closeAllConnections?.() ?? s.close()));

/** Replays llama-server's timing: headers, `silentMs` of silence, then the answer in chunks. */
async function llamaLike(silentMs: number, stallAfterFirstMs = 0): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    // The prompt's sends only (not a probe of the model's size).
    if (req.url?.endsWith("/chat/completions")) requests++;
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (delta: Record<string, unknown>, finish: string | null = null) =>
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }], object: "chat.completion.chunk", model: "smollm2-135m-instruct" })}\n\n`,
        );
      await new Promise((r) => setTimeout(r, silentMs));
      if (res.destroyed) return;
      send({ role: "assistant", content: null });
      send({ content: "I'm here" });
      if (stallAfterFirstMs) await new Promise((r) => setTimeout(r, stallAfterFirstMs));
      if (res.destroyed) return;
      send({ content: " to help." });
      send({}, "stop");
      res.end("data: [DONE]\n\n");
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => requests };
}

it("a long silence while the server reads the prompt is waited for, not cut and resent", async () => {
  const server = await llamaLike(900);
  const model = createModel({
    provider: "openai-compatible",
    model: "smollm2-135m-instruct",
    override: { tools: "native" },
    baseUrl: server.url,
    streamIdleTimeoutMs: 300,
    firstOutputTimeoutMs: 5_000,
    retryBaseDelayMs: 1,
  });
  const run = await collect(model.stream(request()));
  assert.equal(run.error, undefined, run.error?.message);
  assert.equal(run.done?.message.content, "I'm here to help.");
  assert.equal(server.requests(), 1, "the prompt was sent once");
});

it("once the answer streams, a silent server still times out", async () => {
  const server = await llamaLike(0, 2_000);
  const model = createModel({
    provider: "openai-compatible",
    model: "smollm2-135m-instruct",
    override: { tools: "native" },
    baseUrl: server.url,
    streamIdleTimeoutMs: 300,
    firstOutputTimeoutMs: 5_000,
    retryBaseDelayMs: 1,
  });
  const run = await collect(model.stream(request()));
  assert.equal(run.error?.kind, "timeout");
  assert.match(run.error?.message ?? "", /nothing arrived for 300 ms/);
});

it("the default waits ten minutes for the first output", async () => {
  const { DEFAULT_RETRY } = await import("../../../src/core/model/retry");
  assert.equal(DEFAULT_RETRY.firstOutputTimeoutMs, 600_000);
  assert.equal(DEFAULT_RETRY.streamIdleTimeoutMs, 60_000);
});
