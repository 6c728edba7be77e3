/**
 * Faults from the scripted server through the real SDK clients: what recovers, what
 * ends in a readable ModelError, and cancellation.
 */
import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { createModel } from "../../../src/core/model/createModel";
import { faults, startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect, ofType, request, SECRET, WIRES } from "./helpers";

let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer();
});
after(() => server.close());
beforeEach(() => {
  assert.equal(server.pending(), 0, "the previous test left scripted turns unplayed");
});

function requestsSince(n: number) {
  return server.requests.length - n;
}

for (const wire of WIRES) {
  describe(`${wire.name} faults`, () => {
    it("429 with retry-after (seconds): waits as told, then succeeds", async () => {
      const slept: number[] = [];
      server.push(faults.rateLimited({ seconds: 2 }), { text: "after the wait" });
      const model = wire.make(server, { retry: { sleep: async (ms) => void slept.push(ms) } });
      const run = await collect(model.stream(request()));
      assert.equal(run.error, undefined);
      assert.equal(run.done?.message.content, "after the wait");
      const retries = ofType(run, "retry");
      assert.equal(retries.length, 1);
      assert.equal(retries[0]?.delayMs, 2000);
      assert.match(retries[0]?.reason ?? "", /429/);
      assert.deepEqual(slept, [2000]);
    });

    it("429 with retry-after-ms: really waits, then succeeds", async () => {
      server.push(faults.rateLimited({ ms: 40 }), { text: "ok" });
      const t0 = Date.now();
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.done?.message.content, "ok");
      assert.equal(ofType(run, "retry")[0]?.delayMs, 40);
      assert.ok(Date.now() - t0 >= 35);
    });

    it("429 asking for a wait longer than we accept gives up at once", async () => {
      const n = server.requests.length;
      server.push(faults.rateLimited({ seconds: 3600 }));
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error?.kind, "rate_limited");
      assert.equal(run.error?.status, 429);
      assert.match(run.error?.message ?? "", /rate limit/i);
      assert.equal(requestsSince(n), 1);
    });

    for (const [label, fault] of [
      ["500", faults.serverError(500)],
      ["529 overloaded", faults.overloaded()],
      ["reset mid-stream before any output", faults.reset()],
      ["reset before the response headers", faults.resetBeforeHeaders()],
      ["a stream that ends without finishing", faults.truncate()],
    ] as const) {
      it(`${label}: retries with backoff, then succeeds`, async () => {
        const n = server.requests.length;
        server.push(fault, { text: "recovered" });
        const run = await collect(wire.make(server).stream(request()));
        assert.equal(run.error, undefined, run.error?.message);
        assert.equal(run.done?.message.content, "recovered");
        assert.equal(run.text, "recovered", "no duplicated output");
        const retries = ofType(run, "retry");
        assert.equal(retries.length, 1);
        assert.equal(retries[0]?.attempt, 1);
        assert.equal(requestsSince(n), 2);
      });
    }

    it("a reset after output was streamed fails instead of repeating it", async () => {
      const n = server.requests.length;
      server.push(faults.reset("Partial answer that"));
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.text, "Partial answer that");
      assert.equal(run.error?.kind, "network");
      assert.match(run.error?.message ?? "", /broke off/);
      assert.equal(requestsSince(n), 1);
    });

    it("retries are bounded: 4 × 500 with maxRetries 3 ends in an overloaded error", async () => {
      const n = server.requests.length;
      server.push(faults.serverError(), faults.serverError(), faults.serverError(), faults.http(503));
      const run = await collect(wire.make(server, { maxRetries: 3 }).stream(request()));
      assert.equal(run.error?.kind, "overloaded");
      assert.equal(run.error?.status, 503);
      assert.match(run.error?.message ?? "", /after 4 tries/);
      const delays = ofType(run, "retry").map((r) => r.delayMs);
      assert.equal(delays.length, 3);
      // Exponential with jitter in [0.5, 1): base 2 ms → 1..2, 2..4, 4..8.
      delays.forEach((d, i) => assert.ok(d >= 2 ** i && d <= 2 ** (i + 1), `delay ${i} = ${d}`));
      assert.equal(requestsSince(n), 4);
    });

    it("401 fails at once with what to fix, never showing the key", async () => {
      const n = server.requests.length;
      server.push(faults.http(401, { message: `Incorrect API key provided: ${SECRET}` }));
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error?.kind, "auth");
      assert.equal(run.error?.status, 401);
      const env = wire.name === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
      assert.equal(run.error?.message, `The API key was refused (401). Run "Fathom: Set API Key" or set ${env}.`);
      assert.equal(requestsSince(n), 1);
    });

    it("403 names the model and hides the key", async () => {
      server.push(faults.http(403, { message: `key ${SECRET} may not use this model` }));
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error?.kind, "auth");
      assert.ok(run.error?.message.includes(wire.model));
      assert.ok(!run.error?.message.includes(SECRET), run.error?.message);
    });

    it("404 names the model and the base URL", async () => {
      server.push(faults.notFound());
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error?.kind, "not_found");
      const base = wire.name === "openai" ? server.baseUrlOpenAI : server.baseUrlAnthropic;
      assert.equal(
        run.error?.message,
        `Model "${wire.model}" was not found at ${base} (404). Check fathom.model and fathom.baseUrl.`,
      );
    });

    it("400 passes on the server's explanation without retrying", async () => {
      const n = server.requests.length;
      server.push(faults.http(400, { message: "prompt is too long: 250000 tokens > 200000 maximum" }));
      const run = await collect(wire.make(server).stream(request()));
      assert.equal(run.error?.kind, "bad_request");
      assert.match(run.error?.message ?? "", /prompt is too long/);
      assert.equal(requestsSince(n), 1);
    });

    it("a stalled stream times out, is retried, and recovers", async () => {
      server.push(faults.stall(), { text: "back" });
      // Idle timeouts are generous enough that a loaded CI machine cannot trip them early.
      const run = await collect(
        wire.make(server, { streamIdleTimeoutMs: 800, firstOutputTimeoutMs: 800 }).stream(request()),
      );
      assert.equal(run.done?.message.content, "back");
      assert.match(ofType(run, "retry")[0]?.reason ?? "", /no data for 800 ms/);
    });

    it("a stream that keeps stalling ends in a timeout error", async () => {
      server.push(faults.stall(), faults.stall());
      const t0 = Date.now();
      const run = await collect(
        wire.make(server, { streamIdleTimeoutMs: 800, firstOutputTimeoutMs: 800, maxRetries: 1 }).stream(request()),
      );
      assert.equal(run.error?.kind, "timeout");
      assert.match(run.error?.message ?? "", /stopped sending/);
      assert.ok(Date.now() - t0 < 6_000);
    });

    it("a stall after output fails with a timeout, not a retry", async () => {
      const n = server.requests.length;
      server.push(faults.stall("Half an ans"));
      const run = await collect(wire.make(server, { streamIdleTimeoutMs: 800 }).stream(request()));
      assert.equal(run.text, "Half an ans");
      assert.equal(run.error?.kind, "timeout");
      assert.equal(requestsSince(n), 1);
    });

    it("cancelling during the stream ends with ModelError cancelled", async () => {
      server.push({ text: "a long answer that streams slowly, piece by piece", chunkDelayMs: 50 });
      const ac = new AbortController();
      const t0 = Date.now();
      const run = await collect(wire.make(server).stream(request({ signal: ac.signal })), (ev) => {
        if (ev.type === "text_delta") ac.abort();
      });
      assert.equal(run.error?.kind, "cancelled");
      assert.equal(ofType(run, "text_delta").length, 1);
      assert.ok(Date.now() - t0 < 1_000);
    });

    it("cancelling during a stall ends at once, without waiting for the idle timeout", async () => {
      const n = server.requests.length;
      server.push(faults.stall());
      const ac = new AbortController();
      let abortedAt = 0;
      // Abort once the server holds the request (a fixed delay can fire before it arrives on a busy machine).
      const poll = setInterval(() => {
        if (server.requests.length > n) {
          clearInterval(poll);
          abortedAt = Date.now();
          ac.abort();
        }
      }, 5);
      const run = await collect(wire.make(server).stream(request({ signal: ac.signal })));
      clearInterval(poll);
      assert.equal(run.error?.kind, "cancelled");
      assert.ok(abortedAt > 0 && Date.now() - abortedAt < 1_000);
    });

    it("cancelling during a backoff sleep ends at once", async () => {
      const n = server.requests.length;
      server.push(faults.serverError());
      const ac = new AbortController();
      const t0 = Date.now();
      const run = await collect(
        wire.make(server, { retryBaseDelayMs: 20_000 }).stream(request({ signal: ac.signal })),
        (ev) => {
          if (ev.type === "retry") setTimeout(() => ac.abort(), 10);
        },
      );
      assert.equal(run.error?.kind, "cancelled");
      assert.equal(run.error?.message, "The request was cancelled.");
      assert.ok(Date.now() - t0 < 1_000);
      assert.equal(requestsSince(n), 1);
    });
  });
}

describe("other failures", () => {
  it("an already-aborted signal sends nothing", async () => {
    const n = server.requests.length;
    const ac = new AbortController();
    ac.abort();
    const run = await collect(WIRES[0]!.make(server).stream(request({ signal: ac.signal })));
    assert.equal(run.error?.kind, "cancelled");
    assert.equal(requestsSince(n), 0);
  });

  it("a refused connection is retried, then named with the fix", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const model = createModel({
      provider: "openai-compatible",
      model: "llama3",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      maxRetries: 2,
      retryBaseDelayMs: 1,
    });
    const run = await collect(model.stream(request()));
    assert.equal(run.error?.kind, "network");
    assert.equal(ofType(run, "retry").length, 2);
    assert.match(
      run.error?.message ?? "",
      new RegExp(`127\\.0\\.0\\.1:${port}/v1 after 3 tries.*ECONNREFUSED.*server is running`),
    );
  });

  it("an exhausted script answers with a loud 500 that is not retried", async () => {
    const n = server.requests.length;
    const run = await collect(WIRES[1]!.make(server).stream(request()));
    assert.equal(run.error?.kind, "overloaded");
    assert.match(run.error?.message ?? "", /script exhausted/);
    assert.equal(requestsSince(n), 1);
  });

  it("stopping early aborts the request", async () => {
    server.push({ text: "one two three four five six seven eight nine ten", chunkDelayMs: 20 });
    const stream = WIRES[0]!.make(server).stream(request());
    for await (const ev of stream) {
      if (ev.type === "text_delta") break;
    }
    // The next turn is served normally: nothing is left hanging on the server's queue.
    server.push({ text: "next" });
    const run = await collect(WIRES[0]!.make(server).stream(request()));
    assert.equal(run.done?.message.content, "next");
  });
});
