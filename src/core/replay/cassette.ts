/**
 * The cassette: a JSONL file with every model request of a task and the streamed response it
 * got, as it crossed the wire. Line 1 is a header; each further line is one exchange. The
 * recorder (./recordingFetch.ts) writes it, the player (./cassettePlayer.ts) serves it back to
 * the real `openai` / `@anthropic-ai/sdk` clients. Keys and auth headers are never written:
 * only the request headers in REQUEST_HEADERS and the response headers in RESPONSE_HEADERS
 * are kept, and any secret the recorder was given is scrubbed from the text.
 *
 * The workspace's absolute path is stored as `{{workspace}}`, so a cassette recorded in one
 * folder replays in another (evals copy each scenario to a fresh temporary folder).
 */
import { readFileSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

export const CASSETTE_VERSION = 1;
export const WORKSPACE_PLACEHOLDER = "{{workspace}}";

export interface CassetteHeader {
  type: "cassette";
  version: typeof CASSETTE_VERSION;
  /** How the recorded run reached its model; a replay uses the same adapter. */
  provider: "openai" | "anthropic" | "openai-compatible";
  model: string;
  createdAt: string;
  /** The person's first message, replayed when no prompt is given. */
  prompt?: string;
  /** How the run was set up (CLI flags such as yes, sandbox), to explain a divergence. */
  options?: Record<string, unknown>;
  /** What the recording is, for whoever reads the file. */
  note?: string;
}

/** One server-sent event. `json` when its data parsed as JSON, else the raw `data`. */
export interface RecordedEvent {
  /** Milliseconds after the response headers arrived. */
  at: number;
  event?: string;
  json?: unknown;
  data?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** A streamed (text/event-stream) response. */
  events?: RecordedEvent[];
  /** Any other response: the parsed JSON body, or its text. */
  body?: unknown;
  /** The client stopped reading before the end (a cancel, an idle timeout). */
  incomplete?: boolean;
}

export interface RecordedExchange {
  type: "exchange";
  /** Order in which the requests were sent (lines are written as responses end). */
  seq: number;
  /** Which recorded run it came from, when a cassette merges several (the demo's branches). */
  session?: string;
  request: { method: string; path: string; headers: Record<string, string>; body: unknown };
  response?: RecordedResponse;
  /** The request failed without a response (connection refused, reset). */
  error?: { message: string; code?: string };
}

export interface Cassette {
  header: CassetteHeader;
  /** In `seq` order. */
  exchanges: RecordedExchange[];
  file?: string;
}

/** Request headers worth keeping: none of them carries a key. */
export const REQUEST_HEADERS = new Set(["content-type", "anthropic-version", "anthropic-beta"]);
/** Response headers that change what a client does (retries), and content-type. */
export const RESPONSE_HEADERS = new Set([
  "content-type",
  "retry-after",
  "retry-after-ms",
  "x-should-retry",
  "x-request-id",
  "request-id",
]);

export function keepHeaders(
  headers: Headers | Record<string, string> | undefined,
  keep: Set<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const take = (value: string, name: string) => {
    if (keep.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  };
  if (headers instanceof Headers) headers.forEach(take);
  else for (const [name, value] of Object.entries(headers)) take(value, name);
  return out;
}

/** Replaces every string's `from` with `to`, deep, in a JSON value (a fresh copy). */
export function replaceInJson<T>(value: T, replace: (text: string) => string): T {
  if (typeof value === "string") return replace(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => replaceInJson(v, replace)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceInJson(v, replace);
    return out as T;
  }
  return value;
}

/** A function replacing each of `needles` (longest first, empty ones ignored) with `by`. */
export function replacer(needles: readonly (string | undefined)[], by: string): (text: string) => string {
  const list = [...new Set(needles.filter((n): n is string => Boolean(n && n.length >= 2)))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => list.reduce((t, n) => (t.includes(n) ? t.split(n).join(by) : t), text);
}

type Fragment = { holder: Record<string, unknown>; key: string };

/** The streamed text fragments of one event, each with the stream (text block, tool call) it belongs to. */
function fragmentsOf(json: unknown): { stream: string; fragment: Fragment }[] {
  const out: { stream: string; fragment: Fragment }[] = [];
  const o = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : undefined);
  const e = o(json);
  if (!e) return out;
  // Anthropic: content_block_delta with text_delta / input_json_delta, by block index.
  const delta = o(e.delta);
  if (e.type === "content_block_delta" && delta) {
    if (typeof delta.text === "string")
      out.push({ stream: `block ${String(e.index)}`, fragment: { holder: delta, key: "text" } });
    if (typeof delta.partial_json === "string")
      out.push({ stream: `block ${String(e.index)}`, fragment: { holder: delta, key: "partial_json" } });
  }
  // OpenAI: choices[].delta.content and .tool_calls[].function.arguments.
  for (const choice of Array.isArray(e.choices) ? e.choices : []) {
    const d = o(o(choice)?.delta);
    if (!d) continue;
    const c = String(o(choice)?.index ?? 0);
    if (typeof d.content === "string")
      out.push({ stream: `choice ${c} text`, fragment: { holder: d, key: "content" } });
    for (const call of Array.isArray(d.tool_calls) ? d.tool_calls : []) {
      const fn = o(o(call)?.function);
      if (fn && typeof fn.arguments === "string")
        out.push({
          stream: `choice ${c} call ${String(o(call)?.index ?? 0)}`,
          fragment: { holder: fn, key: "arguments" },
        });
    }
  }
  return out;
}

/**
 * `replace` applied to a streamed response (a fresh copy). Text and tool arguments arrive in
 * fragments that may split a path (or a key) anywhere, so each stream's fragments are joined,
 * replaced as a whole, and when that changed anything the whole text goes in its first
 * fragment (the others left empty): the same events, the same timing, the same result for the
 * client that joins them.
 */
export function replaceInEvents(events: readonly RecordedEvent[], replace: (text: string) => string): RecordedEvent[] {
  const copy = events.map((e) => (e.json !== undefined ? { ...e, json: structuredClone(e.json) } : { ...e }));
  const streams = new Map<string, Fragment[]>();
  for (const e of copy) {
    for (const { stream, fragment } of fragmentsOf(e.json))
      streams.set(stream, [...(streams.get(stream) ?? []), fragment]);
  }
  for (const fragments of streams.values()) {
    const joined = fragments.map((f) => f.holder[f.key] as string).join("");
    const replaced = replace(joined);
    if (replaced === joined) continue;
    fragments.forEach((f, i) => (f.holder[f.key] = i === 0 ? replaced : ""));
  }
  return copy.map((e) =>
    e.json !== undefined
      ? { ...e, json: replaceInJson(e.json, replace) }
      : e.data !== undefined
        ? { ...e, data: replace(e.data) }
        : e,
  );
}

export class CassetteError extends Error {}

/**
 * Reads a cassette: plain, gzipped (`.gz`) or brotli-compressed (`.br`, how the extension ships
 * the demo's). Throws a CassetteError naming the file and line of what is wrong.
 */
export function readCassette(file: string): Cassette {
  let text: string;
  try {
    const bytes = readFileSync(file);
    text = (
      file.endsWith(".gz") ? gunzipSync(bytes) : file.endsWith(".br") ? brotliDecompressSync(bytes) : bytes
    ).toString("utf8");
  } catch (error) {
    throw new CassetteError(`cannot read the recording ${file}: ${(error as Error).message}`);
  }
  return { ...parseCassette(text, file), file };
}

export function parseCassette(text: string, file = "recording"): Cassette {
  const lines = text.split("\n");
  let header: CassetteHeader | undefined;
  const exchanges: RecordedExchange[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new CassetteError(
        `${file}:${i + 1}: not JSON (${(error as Error).message}). A recording has one JSON object per line.`,
      );
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (!header) {
      const h = value as Partial<CassetteHeader>;
      if (type !== "cassette")
        throw new CassetteError(
          `${file}:${i + 1}: the first line must be the header ({"type":"cassette",…}); is this a recording made with --record?`,
        );
      if (h.version !== CASSETTE_VERSION)
        throw new CassetteError(
          `${file}: recording version ${String(h.version)}; this Fathom reads version ${CASSETTE_VERSION}.`,
        );
      if (h.provider !== "openai" && h.provider !== "anthropic" && h.provider !== "openai-compatible")
        throw new CassetteError(
          `${file}: the header's provider ${JSON.stringify(h.provider)} is not openai, anthropic or openai-compatible.`,
        );
      if (typeof h.model !== "string") throw new CassetteError(`${file}: the header has no model.`);
      header = h as CassetteHeader;
      continue;
    }
    const x = value as Partial<RecordedExchange>;
    if (
      type !== "exchange" ||
      typeof x.seq !== "number" ||
      !x.request ||
      typeof x.request.path !== "string" ||
      (!x.response && !x.error)
    ) {
      throw new CassetteError(
        `${file}:${i + 1}: not an exchange (needs type "exchange", seq, request and response or error).`,
      );
    }
    exchanges.push(x as RecordedExchange);
  }
  if (!header) throw new CassetteError(`${file} is empty: no header line.`);
  exchanges.sort((a, b) => a.seq - b.seq);
  return { header, exchanges };
}

/** The text of a cassette: header, then the exchanges in `seq` order. */
export function formatCassette(cassette: Pick<Cassette, "header" | "exchanges">): string {
  return (
    [cassette.header, ...[...cassette.exchanges].sort((a, b) => a.seq - b.seq)]
      .map((v) => JSON.stringify(v))
      .join("\n") + "\n"
  );
}

/** The SSE text of one recorded event (with its blank-line terminator). */
export function eventText(e: RecordedEvent): string {
  const data = e.json !== undefined ? JSON.stringify(e.json) : (e.data ?? "");
  return `${e.event !== undefined ? `event: ${e.event}\n` : ""}${data
    .split("\n")
    .map((line) => `data: ${line}`)
    .join("\n")}\n\n`;
}

/** Parses one SSE block (the text between blank lines). Comments (`: ping`) are kept as data-less events. */
export function parseEvent(block: string, at: number): RecordedEvent | undefined {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith("event:")) event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (event === undefined && data.length === 0) return undefined;
  const raw = data.join("\n");
  try {
    const json: unknown = JSON.parse(raw);
    if (typeof json === "object" && json !== null) return { at, ...(event !== undefined ? { event } : {}), json };
  } catch {
    // Not JSON ([DONE], say): kept as it came.
  }
  return { at, ...(event !== undefined ? { event } : {}), data: raw };
}
