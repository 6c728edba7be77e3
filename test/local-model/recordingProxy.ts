// A pass-through HTTP proxy on 127.0.0.1 in front of llama-server that keeps what the model
// really sent: each chat completion's streamed answer, put back together (text, reasoning,
// tool calls as the server split them, finish reason, usage, timings). The real-model suite
// checks Fathom against it ("every tool call the server sent was run or answered") and saves it
// (the recordings later tests replay).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedToolCall {
  index: number;
  id?: string;
  name: string;
  /** The arguments exactly as streamed (may be invalid JSON). */
  arguments: string;
}

export interface RecordedExchange {
  /** What the caller was doing (set with `label`). */
  label: string;
  status: number;
  /** Messages sent, and the tools offered (names only). */
  messageCount: number;
  lastMessage?: unknown;
  tools: string[];
  maxTokens?: number;
  /** The request held the reply to a schema (constrained mode's response_format). */
  constrained?: boolean;
  content: string;
  reasoning: string;
  toolCalls: RecordedToolCall[];
  finishReason?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  timings?: Record<string, number>;
  /** Error body when status >= 400. */
  error?: string;
  /** The stream ended without [DONE] (server died, connection cut). */
  cut?: boolean;
  ms: number;
}

export interface RecordingProxy {
  url: string;
  exchanges: RecordedExchange[];
  /** Labels the exchanges that follow. */
  label(text: string): void;
  close(): Promise<void>;
}

interface Delta {
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

/** An answer that was not streamed (`stream: false`): one chat-completions JSON body. */
function foldWhole(body: string, into: RecordedExchange): boolean {
  let whole: {
    choices?: {
      message?: {
        content?: string | null;
        reasoning_content?: string | null;
        tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
      };
      finish_reason?: string;
    }[];
    usage?: RecordedExchange["usage"];
    timings?: Record<string, number>;
  };
  try {
    whole = JSON.parse(body);
  } catch {
    return false;
  }
  const choice = whole.choices?.[0];
  if (!choice) return false;
  into.content = choice.message?.content ?? "";
  into.reasoning = choice.message?.reasoning_content ?? "";
  into.toolCalls = (choice.message?.tool_calls ?? []).map((tc, index) => ({
    index,
    ...(tc.id ? { id: tc.id } : {}),
    name: tc.function?.name ?? "",
    arguments: tc.function?.arguments ?? "",
  }));
  if (choice.finish_reason) into.finishReason = choice.finish_reason;
  if (whole.usage) into.usage = whole.usage;
  if (whole.timings) into.timings = whole.timings;
  into.cut = false;
  return true;
}

/** Folds the SSE text of an OpenAI chat-completions stream into one answer. */
export function foldStream(sse: string, into: RecordedExchange): void {
  if (!/^data: /m.test(sse) && foldWhole(sse, into)) return;
  const calls = new Map<number, RecordedToolCall>();
  for (const line of sse.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const data = line.slice(6).trim();
    if (data === "[DONE]") continue;
    let chunk: {
      choices?: { delta?: Delta; finish_reason?: string | null }[];
      usage?: RecordedExchange["usage"];
      timings?: Record<string, number>;
    };
    try {
      chunk = JSON.parse(data);
    } catch {
      continue;
    }
    if (chunk.usage) into.usage = chunk.usage;
    if (chunk.timings) into.timings = chunk.timings;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (delta.content) into.content += delta.content;
    if (delta.reasoning_content) into.reasoning += delta.reasoning_content;
    for (const [pos, tc] of (delta.tool_calls ?? []).entries()) {
      const index = tc.index ?? pos;
      const call = calls.get(index) ?? { index, name: "", arguments: "" };
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name += tc.function.name;
      if (tc.function?.arguments) call.arguments += tc.function.arguments;
      calls.set(index, call);
    }
    if (choice.finish_reason) into.finishReason = choice.finish_reason;
  }
  into.toolCalls = [...calls.values()];
  into.cut = !/^data: \[DONE\]/m.test(sse);
}

export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const exchanges: RecordedExchange[] = [];
  let label = "";
  const server: Server = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const body = Buffer.concat(parts);
      const started = Date.now();
      const upstreamReq = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          const out: Buffer[] = [];
          upRes.on("data", (c: Buffer) => {
            out.push(c);
            res.write(c);
          });
          let finished = false;
          // Once per exchange: a cut stream reports both "aborted" and "error".
          const finish = (cut: boolean) => {
            if (finished || !req.url?.endsWith("/chat/completions")) return;
            finished = true;
            let sent: {
              messages?: unknown[];
              tools?: { function?: { name?: string } }[];
              max_tokens?: number;
              response_format?: unknown;
            } = {};
            try {
              sent = JSON.parse(body.toString("utf8"));
            } catch {
              /* not JSON */
            }
            const ex: RecordedExchange = {
              label,
              status: upRes.statusCode ?? 0,
              messageCount: sent.messages?.length ?? 0,
              lastMessage: sent.messages?.at(-1),
              tools: (sent.tools ?? []).map((t) => t.function?.name ?? "?"),
              ...(sent.max_tokens ? { maxTokens: sent.max_tokens } : {}),
              ...(sent.response_format ? { constrained: true } : {}),
              content: "",
              reasoning: "",
              toolCalls: [],
              ms: Date.now() - started,
            };
            const text = Buffer.concat(out).toString("utf8");
            if (ex.status >= 400) ex.error = text.slice(0, 2000);
            else foldStream(text, ex);
            if (cut) ex.cut = true;
            exchanges.push(ex);
          };
          upRes.on("end", () => {
            finish(false);
            res.end();
          });
          upRes.on("error", () => {
            finish(true);
            res.destroy();
          });
          upRes.on("aborted", () => {
            finish(true);
            res.destroy();
          });
        },
      );
      upstreamReq.on("error", (err) => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `proxy: ${err.message}` } }));
      });
      // The caller hung up (cancel): hang up on the server too. (`res`, not `req`: a request's
      // close fires as soon as its body has been read.)
      res.on("close", () => {
        if (!res.writableEnded) upstreamReq.destroy();
      });
      upstreamReq.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, "")}`,
    exchanges,
    label: (text) => (label = text),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
