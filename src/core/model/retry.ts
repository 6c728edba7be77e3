/**
 * The retry loop shared by the adapters: exponential backoff with jitter on 429, 5xx,
 * 529 and network errors, honouring retry-after; an idle timeout per attempt; and
 * cancellation through the caller's AbortSignal, also while sleeping. An attempt that
 * already streamed output is never repeated (the caller would see it twice): it fails.
 */
import { classify, toModelError, type Classified, type ErrorContext } from "./errors";
import { ModelError, type ModelStreamEvent } from "./types";

export interface RetryOptions {
  /** Retries after the first request (so maxRetries 3 = at most 4 requests). */
  maxRetries: number;
  /** First backoff delay; doubles each retry, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A retry-after longer than this is not waited for: we give up instead. */
  maxRetryAfterMs: number;
  /** Abort an attempt whose stream sends nothing for this long, once output has begun. */
  streamIdleTimeoutMs: number;
  /**
   * Before the first output, the wait allowed instead: a server is silent while it reads the
   * prompt (llama.cpp on a CPU: 2,000 tokens at 20-40 tokens/s is a minute or more) and while a
   * reasoning model thinks.
   */
  firstOutputTimeoutMs: number;
  /** Injectable for tests. Must reject when the signal aborts. */
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random: () => number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  streamIdleTimeoutMs: 60_000,
  firstOutputTimeoutMs: 600_000,
  sleep: abortableSleep,
  random: Math.random,
};

/** What one attempt gets: the signal to pass to the SDK, and `touch()` to call on every chunk received. */
export interface AttemptScope {
  readonly signal: AbortSignal;
  touch(): void;
}

export type Attempt = (scope: AttemptScope) => AsyncIterable<ModelStreamEvent>;

const OUTPUT = new Set<ModelStreamEvent["type"]>([
  "text_delta",
  "reasoning_delta",
  "text_reset",
  "tool_call_start",
  "tool_call_delta",
]);

export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError("cancelled", "The request was cancelled."));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelError("cancelled", "The request was cancelled."));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Backoff for retry number `n` (1-based): base·2^(n-1), capped, scaled by a jitter factor in [0.5, 1). */
export function backoffDelay(n: number, opts: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs" | "random">): number {
  const exp = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (n - 1));
  return Math.round(exp * (0.5 + opts.random() * 0.5));
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/**
 * Runs `attempt` until it completes, retrying transient failures that happened before
 * any output. Yields the attempt's events plus a `retry` event before each wait.
 */
export async function* withRetries(
  attempt: Attempt,
  ctx: ErrorContext,
  signal: AbortSignal | undefined,
  options: Partial<RetryOptions> = {},
): AsyncGenerator<ModelStreamEvent> {
  const opts: RetryOptions = { ...DEFAULT_RETRY, ...options };
  const cancelled = () => new ModelError("cancelled", "The request was cancelled.");
  for (let tries = 1; ; tries++) {
    if (signal?.aborted) throw cancelled();
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onOuterAbort, { once: true });
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let yieldedOutput = false;
    const waitMs = () =>
      yieldedOutput ? opts.streamIdleTimeoutMs : Math.max(opts.firstOutputTimeoutMs, opts.streamIdleTimeoutMs);
    const touch = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error("idle timeout"));
      }, waitMs());
    };
    let failure: Classified | undefined;
    try {
      touch();
      for await (const ev of attempt({ signal: controller.signal, touch })) {
        if (timedOut) break;
        if (OUTPUT.has(ev.type)) yieldedOutput = true;
        // A slow consumer is not a silent server: stop the idle clock while suspended.
        if (timer) clearTimeout(timer);
        yield ev;
        if (ev.type === "done") return;
        touch();
      }
      if (timedOut) throw new Error("idle timeout");
      // The attempt ended without a `done`: treat as a dropped connection.
      throw new ModelError("network", "the stream ended before the model finished");
    } catch (err) {
      if (signal?.aborted) throw cancelled();
      if (err instanceof ModelError && err.final) throw err;
      failure = timedOut
        ? {
            kind: "timeout",
            retryable: true,
            reason: `no data for ${formatMs(waitMs())}`,
            detail: `nothing arrived for ${formatMs(waitMs())} (timeout)`,
          }
        : classify(err, ctx.apiKey);
    } finally {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", onOuterAbort);
      // Stops the SDK's request when the consumer stops early or we give up on this attempt.
      if (!controller.signal.aborted) controller.abort();
    }

    if (yieldedOutput) {
      const e = toModelError(failure, ctx, tries);
      throw new ModelError(e.kind, `${e.message} The answer broke off mid-way, so it was not retried.`, e.status);
    }
    const retryAfter = failure.retryAfterMs;
    const canRetry =
      failure.retryable && tries <= opts.maxRetries && (retryAfter === undefined || retryAfter <= opts.maxRetryAfterMs);
    if (!canRetry) throw toModelError(failure, ctx, tries);
    const delayMs = retryAfter ?? backoffDelay(tries, opts);
    yield { type: "retry", attempt: tries, delayMs, reason: failure.reason };
    await opts.sleep(delayMs, signal);
  }
}

/** A stream that fails at once with `err` (for errors found before any request, like a missing key). */
export function failWith(err: Error): AsyncIterable<ModelStreamEvent> {
  return {
    [Symbol.asyncIterator]() {
      return { next: () => Promise.reject(err) };
    },
  };
}
