import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { classify, parseRetryAfter, scrub, toModelError } from "../../../src/core/model/errors";
import { abortableSleep, backoffDelay, withRetries } from "../../../src/core/model/retry";
import { ModelError, type ModelStreamEvent } from "../../../src/core/model/types";

const headers = (h: Record<string, string>) => new Headers(h);
const ctx = {
  provider: "openai" as const,
  model: "gpt-4.1",
  baseUrl: "https://api.openai.com/v1",
  apiKey: "sk-live-abcdef123456",
};

describe("retry-after", () => {
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    assert.equal(parseRetryAfter(headers({ "retry-after-ms": "250" })), 250);
    assert.equal(parseRetryAfter(headers({ "retry-after": "3" })), 3000);
    assert.equal(parseRetryAfter(headers({ "retry-after": "1.5" })), 1500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" }), now), 7000);
    assert.equal(
      parseRetryAfter(headers({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }), now),
      0,
      "a past date means now",
    );
    assert.equal(parseRetryAfter(headers({ "retry-after-ms": "40", "retry-after": "9" })), 40, "ms wins");
    assert.equal(parseRetryAfter(headers({ "retry-after": "soon" })), undefined);
    assert.equal(parseRetryAfter(headers({})), undefined);
  });
});

describe("backoff", () => {
  it("doubles, jitters within [0.5, 1] of the step, and caps", () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 };
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => backoffDelay(n, opts)),
      [50, 100, 200, 400, 500],
    );
    const hi = { ...opts, random: () => 0.999999 };
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => backoffDelay(n, hi)),
      [100, 200, 400, 800, 1000],
    );
  });

  it("an abortable sleep rejects with cancelled", async () => {
    const ac = new AbortController();
    const p = abortableSleep(60_000, ac.signal);
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof ModelError && e.kind === "cancelled");
  });
});

describe("classify", () => {
  const apiError = (status: number, body: unknown, h: Record<string, string> = {}) =>
    Object.assign(new Error(`${status} status`), { status, error: body, headers: headers(h) });

  it("sorts statuses into kinds and retryability", () => {
    assert.deepEqual(
      [400, 401, 403, 404, 408, 429, 500, 503, 529].map((s) => {
        const c = classify(apiError(s, {}));
        return [s, c.kind, c.retryable];
      }),
      [
        [400, "bad_request", false],
        [401, "auth", false],
        [403, "auth", false],
        [404, "not_found", false],
        [408, "network", true],
        [429, "rate_limited", true],
        [500, "overloaded", true],
        [503, "overloaded", true],
        [529, "overloaded", true],
      ],
    );
    assert.equal(classify(apiError(500, {}, { "x-should-retry": "false" })).retryable, false);
    assert.equal(classify(apiError(429, {}, { "retry-after": "2" })).retryAfterMs, 2000);
  });

  it("recognises network failures along the cause chain, and Anthropic's in-stream errors", () => {
    const reset = new TypeError("terminated", {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    assert.equal(classify(reset).kind, "network");
    const refused = Object.assign(new Error("Connection error."), {
      name: "APIConnectionError",
      cause: { code: "ECONNREFUSED" },
    });
    assert.deepEqual([classify(refused).kind, classify(refused).detail], ["network", "ECONNREFUSED"]);
    assert.equal(classify(new Error("socket hang up")).retryable, true);
    const overloaded = Object.assign(new Error("Overloaded"), {
      status: undefined,
      error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
    assert.deepEqual([classify(overloaded).kind, classify(overloaded).retryable], ["overloaded", true]);
    assert.deepEqual(
      [classify(new TypeError("x is undefined")).kind, classify(new TypeError("x")).retryable],
      ["unknown", false],
    );
  });

  it("never lets the key into a message", () => {
    assert.equal(scrub("bad key sk-live-abcdef123456 here", ctx.apiKey), "bad key *** here");
    assert.equal(
      scrub("Incorrect API key provided: sk-proj-ab********************wxyz."),
      "Incorrect API key provided: sk-proj-***.",
    );
    const c = classify(apiError(400, { message: `your key sk-live-abcdef123456 is odd` }), ctx.apiKey);
    const e = toModelError(c, ctx, 1);
    assert.ok(!e.message.includes(ctx.apiKey), e.message);
    assert.match(e.message, /refused the request \(400\): your key \*\*\* is odd/);
  });
});

describe("withRetries", () => {
  async function drain(it: AsyncIterable<ModelStreamEvent>) {
    const out: ModelStreamEvent[] = [];
    try {
      for await (const ev of it) out.push(ev);
    } catch (e) {
      return { out, err: e as ModelError };
    }
    return { out, err: undefined };
  }
  const done: ModelStreamEvent = {
    type: "done",
    message: { role: "assistant", content: "" },
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    stopReason: "end_turn",
  };

  it("does not count a slow consumer as a silent server", async () => {
    const r = withRetries(
      async function* (scope) {
        scope.touch();
        yield { type: "text_delta", text: "a" };
        yield done;
      },
      ctx,
      undefined,
      { streamIdleTimeoutMs: 30 },
    );
    const out: ModelStreamEvent[] = [];
    for await (const ev of r) {
      out.push(ev);
      await new Promise((res) => setTimeout(res, 80)); // longer than the idle timeout
    }
    assert.deepEqual(
      out.map((e) => e.type),
      ["text_delta", "done"],
    );
  });

  it("does not retry errors of our own code", async () => {
    let calls = 0;
    const { err } = await drain(
      withRetries(
        // eslint-disable-next-line require-yield
        async function* () {
          calls++;
          throw new TypeError("Cannot read properties of undefined");
        },
        ctx,
        undefined,
        { baseDelayMs: 1 },
      ),
    );
    assert.equal(calls, 1);
    assert.equal(err?.kind, "unknown");
  });
});
