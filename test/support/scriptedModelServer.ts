/**
 * A scripted model server for tests: speaks OpenAI chat completions SSE
 * (POST /v1/chat/completions) and Anthropic messages SSE (POST /v1/messages), plays a
 * queue of scripted turns, injects faults, and records every request it received.
 *
 *   const server = await startScriptedModelServer([{ text: "Hello" }]);
 *   createModel({ provider: "openai-compatible", model: "m", baseUrl: server.baseUrlOpenAI });
 *   ...; server.requests[0].body.messages; await server.close();
 *
 * As a process (for the VS Code tests):
 *   node --import tsx test/support/scriptedModelServerMain.ts --script turns.json --port 0
 * prints its URL on stdout and exits when stdin closes (unless --keep-alive) or on SIGTERM. Turns can also be
 * added over HTTP: POST /__script (JSON array of turns), GET /__requests, POST /__reset.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { openaiStream, anthropicStream, errorBody, type Wire, type SseWriter } from "./scriptedWire";
import { modelListResponse, type ModelLists } from "./scriptedModelLists";

/**
 * How far the server is from OpenAI's own API, as local servers are (all off by default).
 * Changeable while running (`server.dialect`), or over HTTP with POST /__dialect.
 */
export interface Dialect {
  /** A request carrying `tools` is refused as Ollama refuses it for a model without a tool template. */
  noNativeTools?: boolean;
  /** A request carrying `stream_options` is refused (400), as some older servers do. */
  rejectStreamOptions?: boolean;
  /** A request carrying `response_format` is refused (400), as servers without structured output do. */
  rejectResponseFormat?: boolean;
  /** `stream_options.include_usage` is ignored: no usage chunk. */
  ignoreStreamOptions?: boolean;
  /** What the model-list endpoints answer (see scriptedModelLists.ts). */
  lists?: ModelLists;
}

export interface ScriptedToolCall {
  name: string;
  /** A string is sent verbatim (so it may be invalid or truncated JSON); an object is JSON-encoded. */
  arguments: string | Record<string, unknown>;
  id?: string;
}

export interface ScriptedUsage {
  /** Uncached input tokens (default: request body length / 4). */
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** A normal answer. `{}` is an empty answer. */
export interface AnswerTurn {
  text?: string;
  /** Reasoning before the answer (OpenAI wire: reasoning_content, or `reasoning` with reasoningField; Anthropic: a signed thinking block). */
  reasoning?: string;
  reasoningField?: "reasoning_content" | "reasoning";
  /** Anthropic: a redacted_thinking block. */
  redactedThinking?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Wire-level finish reason; default stop/end_turn, or tool_calls/tool_use when there are calls. */
  stopReason?: string;
  /** Pause between SSE events (default 0: events are still written separately). */
  chunkDelayMs?: number;
}

export type FaultTurn =
  /** An HTTP error. Without `body`, a provider-shaped error body is made from `message`. */
  | { fault: "http"; status: number; headers?: Record<string, string>; body?: unknown; message?: string }
  /**
   * Destroys the connection. "mid-stream" (default): after the stream opened and `text` (if any) was
   * sent; "before-headers": as soon as the request arrives.
   */
  | { fault: "reset"; text?: string; when?: "mid-stream" | "before-headers" }
  /** Sends the stream's start and `text`, then nothing more, keeping the connection open. */
  | { fault: "stall"; text?: string }
  /** Sends the start and `text`, then ends the response cleanly without finishing the message. */
  | { fault: "truncate"; text?: string };

/**
 * A response exactly as recorded (a cassette's, see src/core/replay): the status, headers and
 * SSE text chunks, each written `at` ms after the response started.
 */
export interface RawTurn {
  raw: { status: number; headers: Record<string, string>; chunks?: { at: number; text: string }[]; body?: string };
}

export type StaticTurn = AnswerTurn | FaultTurn | RawTurn;
/** A turn may be decided from the request the model was sent. */
export type ScriptedTurn = StaticTurn | ((request: RecordedRequest) => StaticTurn | Promise<StaticTurn>);

export interface RecordedRequest {
  wire: Wire | "other";
  method: string;
  path: string;
  /** Lower-cased header names. Includes authorization / x-api-key as sent. */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when it was not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  rawBody: string;
  /** Which scripted turn answered (0-based), if any. */
  turnIndex?: number;
  /** `Date.now()` when the request had been read. */
  receivedAt?: number;
  /** `Date.now()` right after the first event of the answer was written. */
  firstChunkAt?: number;
  /** `Date.now()` right after the last event of a complete answer was written (before the response ended). */
  lastChunkAt?: number;
}

export interface ScriptedModelServer {
  url: string;
  baseUrlOpenAI: string;
  baseUrlAnthropic: string;
  /** Every model request received, in order, including ones answered with faults (control endpoints are not recorded). */
  requests: RecordedRequest[];
  /** Requests that are not model calls (a client's preconnect, an unknown route), answered 404. */
  others: RecordedRequest[];
  push(...turns: ScriptedTurn[]): void;
  /** The server's departures from OpenAI's API; change it at any time. */
  dialect: Dialect;
  /** Turns not yet played. */
  pending(): number;
  close(): Promise<void>;
}

export interface StartOptions {
  port?: number;
  host?: string;
  /** Keep the process alive while listening (standalone mode). Default false: the server is unref'd. */
  ref?: boolean;
  dialect?: Dialect;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startScriptedModelServer(
  initial: ScriptedTurn[] = [],
  options: StartOptions = {},
): Promise<ScriptedModelServer> {
  const queue: ScriptedTurn[] = [...initial];
  const requests: RecordedRequest[] = [];
  const others: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let played = 0;
  const state = { dialect: options.dialect ?? {} };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    // Control endpoints for the standalone process.
    if (path === "/__script" && req.method === "POST") {
      const turns: unknown = JSON.parse(rawBody || "[]");
      queue.push(...(Array.isArray(turns) ? (turns as StaticTurn[]) : [turns as StaticTurn]));
      return sendJson(res, 200, { pending: queue.length });
    }
    if (path === "/__requests") return sendJson(res, 200, requests);
    if (path === "/__reset" && req.method === "POST") {
      queue.length = 0;
      requests.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/__dialect" && req.method === "POST") {
      state.dialect = JSON.parse(rawBody || "{}") as Dialect;
      return sendJson(res, 200, { ok: true });
    }
    const listed = modelListResponse(req.method ?? "GET", req.url ?? "/", req.headers, rawBody, state.dialect.lists);
    if (listed) return sendJson(res, listed.status, listed.body);

    const wire: Wire | "other" =
      path.endsWith("/chat/completions") && req.method === "POST"
        ? "openai"
        : path.endsWith("/messages") && req.method === "POST"
          ? "anthropic"
          : "other";
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = {
      wire,
      method: req.method ?? "",
      path,
      headers,
      body,
      rawBody,
      receivedAt: Date.now(),
    };
    // Model requests only: a preconnect (HEAD) or a stray request is kept apart.
    if (wire === "other") {
      others.push(record);
      return sendJson(res, 404, { error: { message: `scripted model server: no route for ${req.method} ${path}` } });
    }
    requests.push(record);
    if (body === undefined)
      return sendJson(res, 400, errorBody(wire, 400, "scripted model server: request body is not JSON"));
    const refusal = dialectRefusal(state.dialect, wire, record.body);
    if (refusal) return sendJson(res, 400, errorBody(wire, 400, refusal));

    const next = queue.shift();
    if (next === undefined) {
      const msg = `scripted model server: script exhausted (request #${requests.length}, ${played} turns played)`;
      return sendJson(res, 500, errorBody(wire, 500, msg), { "x-should-retry": "false" });
    }
    record.turnIndex = played++;
    const turn = typeof next === "function" ? await next(record) : next;
    await play(wire, turn, record, req, res);
  }

  async function play(
    wire: Wire,
    turn: StaticTurn,
    record: RecordedRequest,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    if ("raw" in turn) return playRaw(turn.raw, record, res);
    if ("fault" in turn && turn.fault === "http") {
      const b = turn.body ?? errorBody(wire, turn.status, turn.message);
      return sendJson(res, turn.status, b, turn.headers);
    }
    if ("fault" in turn && turn.fault === "reset" && turn.when === "before-headers") {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      [wire === "openai" ? "x-request-id" : "request-id"]: `req_scripted_${record.turnIndex ?? 0}`,
    });
    res.flushHeaders();
    let closed = false;
    res.on("close", () => (closed = true));
    const delay = "fault" in turn ? 0 : (turn.chunkDelayMs ?? 0);
    const write: SseWriter = async (event, data) => {
      if (closed) return;
      res.write(
        `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`,
      );
      await (delay > 0 ? sleep(delay) : new Promise<void>((r) => setImmediate(r)));
    };
    const streamer = wire === "openai" ? openaiStream : anthropicStream;
    const includeUsage =
      wire === "openai"
        ? record.body?.stream_options?.include_usage === true && !state.dialect.ignoreStreamOptions
        : true;
    const model = typeof record.body?.model === "string" ? record.body.model : "scripted";

    if ("fault" in turn) {
      // Start of a stream and maybe some text, then the fault.
      await streamer(write, { text: turn.text ?? "" }, { model, rawBody: record.rawBody, includeUsage, partial: true });
      if (turn.fault === "reset") res.socket?.destroy();
      else if (turn.fault === "truncate") res.end();
      // "stall": leave it open; close() or the client's abort ends it.
      return;
    }
    let lastWriteAt = 0;
    const timed: SseWriter = async (event, data) => {
      lastWriteAt = Date.now();
      record.firstChunkAt ??= lastWriteAt;
      await write(event, data);
    };
    await streamer(timed, turn, { model, rawBody: record.rawBody, includeUsage, partial: false });
    if (!closed) record.lastChunkAt = lastWriteAt;
    res.end();
  }

  async function playRaw(raw: RawTurn["raw"], record: RecordedRequest, res: ServerResponse): Promise<void> {
    res.writeHead(raw.status, raw.headers);
    if (raw.body !== undefined || !raw.chunks) return void res.end(raw.body ?? "");
    res.flushHeaders();
    let closed = false;
    res.on("close", () => (closed = true));
    const started = Date.now();
    for (const chunk of raw.chunks) {
      if (closed) return;
      const wait = chunk.at - (Date.now() - started);
      await (wait > 0 ? sleep(wait) : new Promise<void>((r) => setImmediate(r)));
      res.write(chunk.text);
      record.firstChunkAt ??= Date.now();
    }
    if (!closed) record.lastChunkAt = Date.now();
    res.end();
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `scripted model server failed: ${String(err)}` } });
      else res.destroy();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    if (!options.ref) s.unref();
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  if (!options.ref) server.unref();
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;

  return {
    url,
    baseUrlOpenAI: `${url}/v1`,
    baseUrlAnthropic: url,
    requests,
    others,
    push: (...turns) => void queue.push(...turns),
    get dialect() {
      return state.dialect;
    },
    set dialect(d: Dialect) {
      state.dialect = d;
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What a local server says when it refuses a request for its dialect, or undefined. */
function dialectRefusal(
  dialect: Dialect,
  wire: Wire,
  body: { model?: unknown; tools?: unknown[]; stream_options?: unknown; response_format?: unknown },
): string | undefined {
  if (wire !== "openai") return undefined;
  if (dialect.noNativeTools && Array.isArray(body.tools) && body.tools.length > 0)
    return `registry.ollama.ai/library/${String(body.model)} does not support tools`;
  if (dialect.rejectStreamOptions && body.stream_options !== undefined)
    return "Unrecognized request argument supplied: stream_options";
  if (dialect.rejectResponseFormat && body.response_format !== undefined)
    return "Unrecognized request argument supplied: response_format";
  return undefined;
}

/** Ready-made faults. */
export const faults = {
  http: (
    status: number,
    opts: { headers?: Record<string, string>; message?: string; body?: unknown } = {},
  ): FaultTurn => ({
    fault: "http",
    status,
    ...opts,
  }),
  rateLimited: (retryAfter: { seconds?: number; ms?: number; date?: Date } = { seconds: 1 }): FaultTurn => ({
    fault: "http",
    status: 429,
    headers: {
      ...(retryAfter.seconds !== undefined ? { "retry-after": String(retryAfter.seconds) } : {}),
      ...(retryAfter.ms !== undefined ? { "retry-after-ms": String(retryAfter.ms) } : {}),
      ...(retryAfter.date ? { "retry-after": retryAfter.date.toUTCString() } : {}),
    },
  }),
  serverError: (status = 500): FaultTurn => ({ fault: "http", status }),
  overloaded: (): FaultTurn => ({ fault: "http", status: 529 }),
  unauthorized: (): FaultTurn => ({ fault: "http", status: 401 }),
  notFound: (): FaultTurn => ({ fault: "http", status: 404 }),
  reset: (text?: string): FaultTurn => ({ fault: "reset", text }),
  resetBeforeHeaders: (): FaultTurn => ({ fault: "reset", when: "before-headers" }),
  stall: (text?: string): FaultTurn => ({ fault: "stall", text }),
  truncate: (text?: string): FaultTurn => ({ fault: "truncate", text }),
};
