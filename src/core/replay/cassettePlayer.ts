/**
 * Plays a cassette back with no network: a `fetch` for the SDK clients (createModel's `fetch`
 * option) that answers each model request with the recorded response whose request it
 * matches, streamed event by event, so the real `openai` / `@anthropic-ai/sdk` clients and
 * our adapters parse it as they parsed the original.
 *
 * Matching: the first unplayed recorded request with the same conversation (./divergence.ts)
 * answers, which is the next one in a straight replay, a retry's second answer after its
 * first, and the right branch of a cassette that merges several runs. When none matches, the
 * replay has diverged: the player keeps a readable report of the first difference against the
 * closest recorded request and answers 400, which ends the run (the SDKs do not retry it), or
 * plays `offRecord` when given (the demo, ./demoPlayer.ts).
 */
import { realpathSync } from "node:fs";
import {
  WORKSPACE_PLACEHOLDER,
  eventText,
  replaceInEvents,
  replaceInJson,
  replacer,
  type Cassette,
  type RecordedExchange,
} from "./cassette";
import { conversationOf, type Conversation } from "./conversation";
import { EXACT, firstDifference, setupNotes, sharedPrefix, type Difference, type MatchRules } from "./divergence";

export interface CassettePlayerOptions {
  rules?: MatchRules;
  /** Once every matching exchange was played, play the last again (the demo: a reload asks again). */
  reuse?: boolean;
  /** The workspace of this run: `{{workspace}}` in the recording stands for it. */
  workspaceRoot?: string;
  /** "recorded": events arrive with their recorded timing (the demo); default "instant". */
  pace?: "instant" | "recorded";
  /**
   * Played to a request the recording has no answer for, instead of the 400 that stops a
   * replay (the demo's closing note: the person may ask anything once it has played).
   */
  offRecord?: RecordedExchange;
  /** Told of every request the recording has no answer for (the demo logs them). */
  onDivergence?: (divergence: Divergence) => void;
}

export interface Divergence {
  /** Which model request of this run (1-based). */
  request: number;
  /** The closest recorded request (its seq), if any. */
  recordedSeq?: number;
  what: string;
  detail: string[];
  /** The whole report, several lines, for a person. */
  report: string;
}

export interface TimedChunk {
  /** Milliseconds after the response started. */
  at: number;
  text: string;
}

interface Entry {
  exchange: RecordedExchange;
  conversation: Conversation;
  played: boolean;
}

export class CassettePlayer {
  /** Give this to createModel. */
  readonly fetch: typeof fetch;
  /** The first divergence, once there is one. */
  divergence: Divergence | undefined;
  /** Model requests received. */
  requests = 0;
  private readonly entries: Entry[];
  private readonly rules: MatchRules;
  private readonly toPlaceholder: (text: string) => string;
  private readonly fromPlaceholder: (text: string) => string;

  constructor(
    readonly cassette: Cassette,
    private readonly options: CassettePlayerOptions = {},
  ) {
    this.rules = options.rules ?? EXACT;
    this.entries = cassette.exchanges.map((exchange) => ({
      exchange,
      conversation: conversationOf(exchange.request.path, exchange.request.body),
      played: false,
    }));
    const root = options.workspaceRoot;
    this.toPlaceholder = replacer(root ? [root, realPath(root)] : [], WORKSPACE_PLACEHOLDER);
    this.fromPlaceholder = root ? replacer([WORKSPACE_PLACEHOLDER], root) : (t) => t;
    this.fetch = (input, init) => this.serve(input, init);
  }

  /** Recorded exchanges this run has not played (a run that ended sooner than the recording). */
  unplayed(): number {
    return this.entries.filter((e) => !e.played).length;
  }

  /**
   * After the run: the divergence, or, when the run stopped before the recording did (a guard
   * stopped it, say), that as one. Undefined when the run followed the recording to its end.
   */
  verdict(): Divergence | undefined {
    if (this.divergence) return this.divergence;
    const left = this.unplayed();
    if (left === 0 || this.options.reuse) return undefined;
    const what = `the run ended after ${this.requests} model request${this.requests === 1 ? "" : "s"}; the recording has ${left} more`;
    return {
      request: this.requests,
      what,
      detail: [],
      report: `The replay ended before the recording: ${what}. The agent stopped on its own (a guard, a limit, an error) where the recorded run went on; its events say why.`,
    };
  }

  /** The recorded exchange that answers this request, or the divergence (also kept in `divergence`). */
  match(path: string, body: unknown): { exchange: RecordedExchange } | { divergence: Divergence } {
    const request = ++this.requests;
    const now = conversationOf(path, replaceInJson(body, this.toPlaceholder));
    const fits = (e: Entry) => firstDifference(e.conversation, now, this.rules) === undefined;
    const entry =
      this.entries.find((e) => !e.played && fits(e)) ??
      (this.options.reuse ? this.entries.findLast((e) => fits(e)) : undefined);
    if (entry) {
      entry.played = true;
      return { exchange: entry.exchange };
    }
    const divergence = this.diverged(request, now);
    this.divergence ??= divergence;
    this.options.onDivergence?.(divergence);
    return { divergence };
  }

  private diverged(request: number, now: Conversation): Divergence {
    // The recorded request sharing the longest start with this one; of equals, an unplayed one.
    let closest: Entry | undefined;
    let best = -1;
    for (const e of this.entries) {
      const shared = sharedPrefix(e.conversation, now, this.rules);
      if (shared > best || (shared === best && closest?.played && !e.played)) [closest, best] = [e, shared];
    }
    const difference: Difference = closest
      ? firstDifference(closest.conversation, now, this.rules)!
      : { index: 0, what: "the recording has no model requests at all", detail: [] };
    const at = closest ? ` (closest recorded request: #${closest.exchange.seq} of ${this.entries.length})` : "";
    const item = closest ? ` at message ${difference.index + 1}` : "";
    const setup = closest ? setupNotes(closest.conversation, now) : [];
    const options = this.cassette.header.options;
    const lines = [
      `The replay left the recording at model request ${request}${at}:`,
      `  ${item ? `${item.trim()}: ` : ""}${difference.what}`,
      ...difference.detail.map((d) => `    ${d}`),
      ...setup.map((n) => `  ${n}`),
      ...(options && Object.keys(options).length ? [`  The recording was made with ${JSON.stringify(options)}.`] : []),
      "The recorded answers no longer fit this conversation, so the run stopped. If the agent or the task changed on purpose, record it again (--record).",
    ];
    return {
      request,
      ...(closest ? { recordedSeq: closest.exchange.seq } : {}),
      what: difference.what,
      detail: difference.detail,
      report: lines.join("\n"),
    };
  }

  /** The response's SSE text in timed chunks, with `{{workspace}}` put back (for a server that plays it). */
  chunks(exchange: RecordedExchange): TimedChunk[] {
    return replaceInEvents(exchange.response?.events ?? [], this.fromPlaceholder).map((e) => ({
      at: e.at,
      text: eventText(e),
    }));
  }

  /** The response's non-streamed body text, with `{{workspace}}` put back. */
  bodyText(exchange: RecordedExchange): string {
    const body = exchange.response?.body;
    if (body === undefined || body === null) return "";
    return typeof body === "string"
      ? this.fromPlaceholder(body)
      : JSON.stringify(replaceInJson(body, this.fromPlaceholder));
  }

  private async serve(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]): Promise<Response> {
    const request = new Request(input, init);
    const text = typeof init?.body === "string" ? init.body : await request.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // compared as text
    }
    const path = new URL(request.url).pathname;
    const found = this.match(path, body);
    const offRecord = this.options.offRecord;
    if ("divergence" in found && !offRecord) return divergenceResponse(path, found.divergence);
    const exchange = "exchange" in found ? found.exchange : offRecord!;
    if (exchange.error || !exchange.response) {
      throw Object.assign(new TypeError(`fetch failed (as recorded: ${exchange.error?.message ?? "no response"})`), {
        cause: { code: exchange.error?.code },
      });
    }
    const { status, headers } = exchange.response;
    if (!exchange.response.events)
      return new Response(status === 204 ? null : this.bodyText(exchange), { status, headers });
    const chunks = this.chunks(exchange);
    const paced = this.options.pace === "recorded";
    const signal = init?.signal ?? undefined;
    const encoder = new TextEncoder();
    const started = Date.now();
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = chunks[next++];
        if (!chunk) return controller.close();
        if (paced) await sleep(chunk.at - (Date.now() - started), signal);
        if (signal?.aborted) return controller.error(signal.reason);
        controller.enqueue(encoder.encode(chunk.text));
      },
    });
    return new Response(stream, { status, headers });
  }
}

function divergenceResponse(path: string, divergence: Divergence): Response {
  const message = `Replay: the run left the recording at model request ${divergence.request}: ${divergence.what}`;
  const body = path.endsWith("/messages")
    ? { type: "error", error: { type: "invalid_request_error", message } }
    : { error: { message, type: "invalid_request_error", code: "replay_diverged" } };
  return new Response(JSON.stringify(body), {
    status: 400,
    headers: { "content-type": "application/json", "x-should-retry": "false" },
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

function realPath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}
