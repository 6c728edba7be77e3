/**
 * Turns whatever a provider SDK or the network threw into a classification the retry
 * loop can act on, and into a ModelError whose message tells the person what to fix.
 * Never puts the API key in a message.
 */
import { ModelError, type ModelErrorKind, type ModelProvider } from "./types";

/** Who we were talking to, for messages. */
export interface ErrorContext {
  provider: ModelProvider;
  model: string;
  baseUrl: string;
  /** The secret to scrub from any text we pass on. */
  apiKey?: string;
  /** Where the person sets things, so hints name their knobs (VS Code settings or CLI flags). */
  surface?: Surface;
}

export type Surface = "vscode" | "cli";

/** The names a hint uses for model, base URL and key, on each surface. */
export function knobs(ctx: { provider: ErrorContext["provider"]; surface?: Surface }): {
  model: string;
  baseUrl: string;
  setKey: string;
} {
  const env = ctx.provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  return ctx.surface === "cli"
    ? { model: "--model", baseUrl: "--base-url", setKey: `Set ${env}` }
    : { model: "fathom.model", baseUrl: "fathom.baseUrl", setKey: `Run "Fathom: Set API Key" or set ${env}` };
}

export interface Classified {
  kind: ModelErrorKind;
  status?: number;
  /** Worth another try (if nothing was streamed yet). */
  retryable: boolean;
  /** Server-requested wait, from retry-after-ms / retry-after. */
  retryAfterMs?: number;
  /** Short words for a retry event: "rate limited (429)". */
  reason: string;
  /** What the server or the socket said, scrubbed. */
  detail: string;
}

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
/** How servers say a request does not fit the model's context (OpenAI, vLLM, llama.cpp, LM Studio, Anthropic, Ollama). */
const CONTEXT_OVERFLOW =
  /context[_ ]length[_ ]exceeded|exceed_context_size|exceeds? (the )?(available |maximum )?context|maximum context length|context (window|length|size) (is )?(exceeded|too small)|prompt is too long|too many tokens|greater than the context length|input length .*exceeds/i;

/** Whether a refused request was refused for not fitting the model's context window. */
export function isContextOverflow(c: Pick<Classified, "kind" | "detail" | "reason">): boolean {
  return c.kind === "bad_request" && (c.reason === "context overflow" || CONTEXT_OVERFLOW.test(c.detail));
}

const NETWORK_WORDS =
  /socket hang up|terminated|other side closed|fetch failed|network|connection (error|reset|refused)|ECONN|premature close|stream ended/i;

function get(obj: unknown, key: string): unknown {
  return obj !== null && typeof obj === "object" ? (obj as Record<string, unknown>)[key] : undefined;
}

function headerOf(err: unknown, name: string): string | undefined {
  const h = get(err, "headers");
  if (!h) return undefined;
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? undefined;
  const v = (h as Record<string, unknown>)[name];
  return typeof v === "string" ? v : undefined;
}

/** Milliseconds the server asked us to wait, from `retry-after-ms` or `retry-after` (seconds or HTTP date). */
export function parseRetryAfter(
  headers: { get(name: string): string | null | undefined } | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms != null && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = headers.get("retry-after");
  if (ra == null || ra.trim() === "") return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs)) return secs >= 0 ? secs * 1000 : undefined;
  const date = Date.parse(ra);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Removes the API key and anything that looks like one. */
export function scrub(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join("***");
  return out.replace(/\b(sk-proj|sk-ant|sk)-[A-Za-z0-9_*-]{6,}/g, "$1-***");
}

/** Codes and messages along an error's cause chain. */
function causeChain(err: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 6; depth++) {
    const code = get(cur, "code");
    if (typeof code === "string") codes.push(code);
    const msg = get(cur, "message");
    if (typeof msg === "string") messages.push(msg);
    cur = get(cur, "cause");
  }
  return { codes, messages };
}

/** The server's own words from an SDK APIError body (OpenAI `{error:{message}}`, Anthropic `{type:"error",error:{type,message}}`). */
function serverMessage(err: unknown): { message?: string; type?: string } {
  const body = get(err, "error");
  const inner = get(body, "error") ?? body;
  const message = get(inner, "message");
  const type = get(inner, "type") ?? get(inner, "code");
  return {
    message: typeof message === "string" ? message : undefined,
    type: typeof type === "string" ? type : undefined,
  };
}

function short(text: string, max = 300): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}

/** Classifies an SDK or network error. `apiKey` is scrubbed from the detail. */
export function classify(err: unknown, apiKey?: string): Classified {
  if (err instanceof ModelError) {
    const retryable = err.kind === "network" || err.kind === "overloaded" || err.kind === "rate_limited";
    return { kind: err.kind, status: err.status, retryable, reason: err.kind, detail: scrub(err.message, apiKey) };
  }
  const status = get(err, "status");
  const { message: srvMsg, type: srvType } = serverMessage(err);
  const rawMsg = typeof get(err, "message") === "string" ? (get(err, "message") as string) : String(err);
  const detail = short(scrub(srvMsg ?? rawMsg.replace(/^\d{3}\s+/, ""), apiKey));
  const shouldRetry = headerOf(err, "x-should-retry");
  const retryAfterMs = parseRetryAfter({ get: (n) => headerOf(err, n) });

  if (typeof status === "number") {
    const forbidRetry = shouldRetry === "false";
    if (status === 401 || status === 403)
      return { kind: "auth", status, retryable: false, reason: `refused (${status})`, detail };
    if (status === 404) return { kind: "not_found", status, retryable: false, reason: "not found (404)", detail };
    if (status === 429)
      return {
        kind: "rate_limited",
        status,
        retryable: !forbidRetry,
        retryAfterMs,
        reason: "rate limited (429)",
        detail,
      };
    if (status === 408 || status === 409)
      return {
        kind: "network",
        status,
        retryable: !forbidRetry,
        retryAfterMs,
        reason: `request timed out (${status})`,
        detail,
      };
    if (status >= 500)
      return {
        kind: "overloaded",
        status,
        retryable: !forbidRetry,
        retryAfterMs,
        reason:
          status === 529 || srvType === "overloaded_error" ? `overloaded (${status})` : `server error (${status})`,
        detail,
      };
    if (status >= 400) {
      const overflow = CONTEXT_OVERFLOW.test(`${srvType ?? ""} ${detail}`);
      return {
        kind: "bad_request",
        status,
        retryable: false,
        reason: overflow ? "context overflow" : `refused (${status})`,
        detail,
      };
    }
  }
  // An error event inside an Anthropic stream carries a type but no status.
  if (srvType === "overloaded_error" || srvType === "api_error")
    return {
      kind: "overloaded",
      retryable: true,
      reason: srvType === "api_error" ? "server error" : "overloaded",
      detail,
    };
  if (srvType === "rate_limit_error") return { kind: "rate_limited", retryable: true, reason: "rate limited", detail };

  const { codes, messages } = causeChain(err);
  const netCode = codes.find((c) => NETWORK_CODES.has(c));
  const name = get(err, "name");
  if (netCode || name === "APIConnectionError" || messages.some((m) => NETWORK_WORDS.test(m))) {
    const words = netCode ?? messages.find((m) => NETWORK_WORDS.test(m)) ?? "connection error";
    return {
      kind: "network",
      retryable: true,
      reason: `network error (${short(words, 60)})`,
      detail: short(scrub(words, apiKey)),
    };
  }
  return { kind: "unknown", retryable: false, reason: "error", detail };
}

/** The ModelError a person sees when we give up. `tries` counts requests made. */
export function toModelError(c: Classified, ctx: ErrorContext, tries: number): ModelError {
  const st = c.status !== undefined ? ` (${c.status})` : "";
  const after = tries > 1 ? ` after ${tries} tries` : "";
  const said = c.detail ? `: ${c.detail}` : "";
  const names = knobs(ctx);
  let text: string;
  switch (c.kind) {
    case "auth":
      text =
        c.status === 403
          ? `Access was denied (403)${said}. Check that your API key may use model "${ctx.model}".`
          : `The API key was refused${st}. ${names.setKey}.`;
      break;
    case "not_found":
      text = `Model "${ctx.model}" was not found at ${ctx.baseUrl}${st}. Check ${names.model} and ${names.baseUrl}.`;
      break;
    case "bad_request":
      text = isContextOverflow(c)
        ? `The conversation no longer fits the model's context window${st}${said}. Start a new task, or give the model a larger context window (llama.cpp's llama-server: -c / --ctx-size; Ollama: num_ctx; LM Studio: the model's context length) or use a model with a larger one.`
        : `The model server refused the request${st}${said}.`;
      break;
    case "rate_limited":
      text = `The rate limit was hit${st}${after}${said}. Wait a minute and try again, or check your plan's limits.`;
      break;
    case "overloaded":
      text = `The model server is overloaded or failing${st}${after}${said}. Try again later.`;
      break;
    case "network":
      text = `Could not get an answer from ${ctx.baseUrl}${after} (${c.detail || "network error"}). Check your network and ${names.baseUrl}${
        ctx.provider === "openai-compatible" ? ", and that the server is running" : ""
      }.`;
      break;
    case "timeout":
      text = `The model stopped sending${after}: ${c.detail}. Try again; if it keeps happening the server may be overloaded.`;
      break;
    case "cancelled":
      text = "The request was cancelled.";
      break;
    default:
      text = `The model call failed${st}${said}.`;
  }
  return new ModelError(c.kind, scrub(text, ctx.apiKey), c.status);
}
