/**
 * Asks a local OpenAI-compatible server how big a model is, once, before its first request (never
 * at activation): llama.cpp's `/v1/models` gives `meta.n_params` and `meta.n_ctx`, Ollama's
 * `/api/show` gives `details.parameter_size` ("1.2B") and `<arch>.context_length`. Only servers
 * on this machine or the local network are asked (a hosted router's list is large and says
 * nothing of size); any failure or silence is "unknown", never an error, within 2 seconds.
 */
import { billionsFromId, type ModelProbe, type ProbeResult } from "./modelFit";

const TIMEOUT_MS = 2_000;

/** Whether `baseUrl` is on this machine or a private network. */
export function isLocalServer(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  return (
    host === "localhost" ||
    host.endsWith(".local") ||
    host === "::1" ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^f[cd][0-9a-f]{2}:/.test(host) ||
    host === "host.docker.internal"
  );
}

/** A probe of `model` at `baseUrl` (an OpenAI-compatible `/v1` URL), or undefined when the server is not local. */
export function probeFor(baseUrl: string, model: string, doFetch: typeof fetch = fetch): ModelProbe | undefined {
  if (!isLocalServer(baseUrl)) return undefined;
  return async () => {
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    const [llama, ollama] = await Promise.all([
      llamaCpp(doFetch, baseUrl, model, signal),
      ollamaShow(doFetch, baseUrl, model, signal),
    ]);
    const found = { ...ollama, ...llama };
    return found.billions === undefined && found.contextWindow === undefined ? undefined : found;
  };
}

async function json(doFetch: typeof fetch, url: string, init: RequestInit): Promise<unknown> {
  try {
    const res = await doFetch(url, init);
    if (!res.ok) return undefined;
    return await res.json();
  } catch {
    return undefined;
  }
}

async function llamaCpp(
  doFetch: typeof fetch,
  baseUrl: string,
  model: string,
  signal: AbortSignal,
): Promise<ProbeResult> {
  const body = (await json(doFetch, `${baseUrl.replace(/\/+$/, "")}/models`, { signal })) as
    { data?: { id?: unknown; meta?: Record<string, unknown> }[] } | undefined;
  const models = Array.isArray(body?.data) ? body.data : [];
  // llama-server serves one model under its alias; other servers list many, of which ours is one.
  const entry = models.find((m) => m.id === model) ?? (models.length === 1 ? models[0] : undefined);
  const meta = entry?.meta ?? {};
  const params = positive(meta.n_params);
  const context = positive(meta.n_ctx) ?? positive(meta.n_ctx_train);
  return { ...(params ? { billions: params / 1e9 } : {}), ...(context ? { contextWindow: context } : {}) };
}

async function ollamaShow(
  doFetch: typeof fetch,
  baseUrl: string,
  model: string,
  signal: AbortSignal,
): Promise<ProbeResult> {
  const root = baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  const body = (await json(doFetch, `${root}/api/show`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model }),
    signal,
  })) as { details?: { parameter_size?: unknown }; model_info?: Record<string, unknown> } | undefined;
  if (!body) return {};
  const size =
    typeof body.details?.parameter_size === "string" ? billionsFromId(` ${body.details.parameter_size}`) : undefined;
  const info = body.model_info ?? {};
  const arch = typeof info["general.architecture"] === "string" ? info["general.architecture"] : "";
  const context = positive(info[`${arch}.context_length`]);
  const params = positive(info["general.parameter_count"]);
  return {
    ...((size ?? params) ? { billions: size ?? params! / 1e9 } : {}),
    ...(context ? { contextWindow: context } : {}),
  };
}

function positive(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;
}
