/**
 * Records a task's model traffic into a cassette (./cassette.ts): a `fetch` for the SDK clients
 * (createModel's `fetch` option) that passes every request through and copies it, and the
 * streamed response as it arrives, into the file. The adapters and SDKs are untouched, so what
 * is recorded is exactly what crossed the wire. An exchange is written when its response ends
 * (or fails), so a run that crashes keeps every finished exchange.
 */
import { appendFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  CASSETTE_VERSION,
  REQUEST_HEADERS,
  RESPONSE_HEADERS,
  WORKSPACE_PLACEHOLDER,
  keepHeaders,
  parseEvent,
  replaceInEvents,
  replaceInJson,
  replacer,
  type CassetteHeader,
  type RecordedEvent,
  type RecordedExchange,
} from "./cassette";

export interface CassetteRecorderOptions {
  file: string;
  header: Omit<CassetteHeader, "type" | "version" | "createdAt">;
  /** Stored as {{workspace}} (with its real path, if different). */
  workspaceRoot?: string;
  /** Scrubbed from everything written (the API key). */
  secrets?: readonly string[];
  /** The fetch to record (default: the global one). */
  fetch?: typeof fetch;
  /** Tags every exchange (to merge recordings of several runs into one cassette). */
  session?: string;
}

const REDACTED = "[redacted]";

export class CassetteRecorder {
  /** Give this to createModel. */
  readonly fetch: typeof fetch;
  private seq = 0;
  private written = 0;
  private readonly pending = new Set<Promise<void>>();
  private readonly scrub: (text: string) => string;

  constructor(private readonly options: CassetteRecorderOptions) {
    const secrets = replacer(options.secrets ?? [], REDACTED);
    const roots = options.workspaceRoot ? [options.workspaceRoot, realPath(options.workspaceRoot)] : [];
    const workspace = replacer(roots, WORKSPACE_PLACEHOLDER);
    this.scrub = (text) => workspace(secrets(text));
    mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true });
    const header: CassetteHeader = {
      type: "cassette",
      version: CASSETTE_VERSION,
      createdAt: new Date().toISOString(),
      ...options.header,
    };
    writeFileSync(options.file, `${JSON.stringify(replaceInJson(header, this.scrub))}\n`);
    const inner = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.fetch = (input, init) => this.record(inner, input, init);
  }

  /** Exchanges written so far. */
  get count(): number {
    return this.written;
  }

  /** Resolves when every response in flight has been written. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async record(
    inner: typeof fetch,
    input: Parameters<typeof fetch>[0],
    init: Parameters<typeof fetch>[1],
  ): Promise<Response> {
    const seq = ++this.seq;
    const request = new Request(input, init);
    // The SDKs send JSON text; any other body is read from a copy and the copy's original sent.
    const plain = init?.body === undefined || init.body === null || typeof init.body === "string";
    const bodyText = plain ? ((init?.body as string | undefined) ?? "") : await request.clone().text();
    let body: unknown = bodyText;
    try {
      body = bodyText ? JSON.parse(bodyText) : undefined;
    } catch {
      // Not JSON: kept as text.
    }
    const exchange: RecordedExchange = {
      type: "exchange",
      seq,
      ...(this.options.session ? { session: this.options.session } : {}),
      request: {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: keepHeaders(request.headers, REQUEST_HEADERS),
        body,
      },
    };
    let response: Response;
    try {
      response = plain ? await inner(input, init) : await inner(request);
    } catch (error) {
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      this.write({
        ...exchange,
        error: { message: (error as Error).message, ...(typeof code === "string" ? { code } : {}) },
      });
      throw error;
    }
    const headers = keepHeaders(response.headers, RESPONSE_HEADERS);
    const streamed = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    if (!response.body) {
      this.write({ ...exchange, response: { status: response.status, headers, body: null } });
      return response;
    }
    const started = Date.now();
    const decoder = new TextDecoder();
    let text = "";
    const events: RecordedEvent[] = [];
    const takeEvents = (final: boolean) => {
      const blocks = text.split(/\r?\n\r?\n/);
      text = final ? "" : (blocks.pop() ?? "");
      for (const block of final ? blocks.filter((b) => b.trim() !== "") : blocks) {
        const event = parseEvent(block, Date.now() - started);
        if (event) events.push(event);
      }
    };
    let finished = false;
    let done!: () => void;
    const written = new Promise<void>((resolve) => (done = resolve));
    this.pending.add(written);
    const finish = (incomplete: boolean) => {
      if (finished) return;
      finished = true;
      text += decoder.decode();
      let recorded: RecordedExchange;
      if (streamed) {
        takeEvents(true);
        recorded = {
          ...exchange,
          response: { status: response.status, headers, events, ...(incomplete ? { incomplete: true } : {}) },
        };
      } else {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // An error page, say: kept as text.
        }
        recorded = {
          ...exchange,
          response: { status: response.status, headers, body: parsed, ...(incomplete ? { incomplete: true } : {}) },
        };
      }
      this.write(recorded);
      this.pending.delete(written);
      done();
    };
    const tee = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        text += decoder.decode(chunk, { stream: true });
        if (streamed) takeEvents(false);
        controller.enqueue(chunk);
      },
      flush: () => finish(false),
    });
    const piped = response.body.pipeThrough(tee);
    // A reader that stops early (cancel, idle timeout) still leaves the part it got on record.
    const reader = piped.getReader();
    const copy = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done: end } = await reader.read();
          if (end) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          finish(true);
          controller.error(error);
        }
      },
      cancel(reason) {
        finish(true);
        return reader.cancel(reason);
      },
    });
    return new Response(copy, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  private write(exchange: RecordedExchange): void {
    const events = exchange.response?.events;
    const { response, ...rest } = exchange;
    const scrubbed: RecordedExchange = {
      ...replaceInJson(rest, this.scrub),
      ...(response
        ? {
            response: {
              ...replaceInJson({ ...response, events: undefined }, this.scrub),
              ...(events ? { events: replaceInEvents(events, this.scrub) } : {}),
            },
          }
        : {}),
    };
    appendFileSync(this.options.file, `${JSON.stringify(scrubbed)}\n`);
    this.written++;
  }
}

function realPath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}
