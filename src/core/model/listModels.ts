/**
 * The models a provider offers, for the picker and `fathom models`: OpenAI's and any
 * OpenAI-compatible server's GET /v1/models, Anthropic's models list, and Ollama's tags (with
 * each model's context length and capabilities from /api/show). What the server does not say
 * comes from the person's overrides, then the built-in table. A server that cannot list models
 * gives an error to show, never an exception: the person can still type a model id.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { anthropicLib, openaiLib } from "../vendor/libraries";
import { ANTHROPIC_BASE_URL } from "./anthropicModel";
import { OPENAI_COMPATIBLE_DEFAULT_BASE_URL, type Provider } from "./createModel";
import { classify } from "./errors";
import { overrideFor, type ModelOverrides } from "./modelOverrides";
import { acceptsImages, lookupModel } from "./modelTable";
import { OPENAI_BASE_URL } from "./openaiModel";

export interface ListedModel {
  id: string;
  /** A display name when the server gives one that differs from the id. */
  name?: string;
  contextWindow?: number;
  /** US dollars per million tokens. */
  price?: { input: number; output: number };
  /** Reads images; undefined when unknown. */
  images?: boolean;
  /** Has native tool calling (Ollama says so); undefined when unknown. */
  tools?: boolean;
}

export interface ModelList {
  models: ListedModel[];
  /** Why the list is empty or partial, in words for the person. */
  error?: string;
}

export interface ListModelsOptions {
  provider: Provider;
  baseUrl?: string;
  apiKey?: string;
  overrides?: ModelOverrides;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

/** OpenAI's list also has embedding, audio, image and moderation models: not for chat. */
const NOT_CHAT =
  /embed|whisper|tts|dall-e|moderation|davinci|babbage|realtime|audio|transcribe|image|search|sora|computer-use/i;

export async function listModels(opts: ListModelsOptions): Promise<ModelList> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 10_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let result: ModelList;
  try {
    if (opts.provider === "anthropic") result = await anthropicModels(opts, signal);
    else if (opts.provider === "openai") {
      const listed = await openaiModels(opts, opts.baseUrl || OPENAI_BASE_URL, signal);
      result = { models: opts.baseUrl ? listed : listed.filter((m) => !NOT_CHAT.test(m.id)) };
    } else result = await compatibleModels(opts, signal);
  } catch (error) {
    result = { models: [], error: describe(error, opts, timeout.aborted) };
  }
  return { ...result, models: enrich(result.models, opts.overrides).sort((a, b) => a.id.localeCompare(b.id)) };
}

/** The table's and the person's knowledge over what the server said (the person's wins). */
function enrich(models: ListedModel[], overrides: ModelOverrides | undefined): ListedModel[] {
  return models.map((m) => {
    const known = lookupModel(m.id);
    const mine = overrideFor(overrides, m.id);
    const contextWindow = mine?.contextWindow ?? m.contextWindow ?? known?.contextWindow;
    const price = mine?.price ?? (known ? { input: known.price.input, output: known.price.output } : m.price);
    const images = mine?.images ?? m.images ?? (known ? acceptsImages(m.id) : undefined);
    const tools = mine?.tools ? mine.tools === "native" : m.tools;
    return {
      id: m.id,
      ...(m.name && m.name !== m.id ? { name: m.name } : {}),
      ...(contextWindow ? { contextWindow } : {}),
      ...(price ? { price: { input: price.input, output: price.output } } : {}),
      ...(images !== undefined ? { images } : {}),
      ...(tools !== undefined ? { tools } : {}),
    };
  });
}

async function openaiModels(opts: ListModelsOptions, baseUrl: string, signal: AbortSignal): Promise<ListedModel[]> {
  const client = new (openaiLib().OpenAI)({
    apiKey: opts.apiKey || "no-key",
    baseURL: baseUrl.replace(/\/+$/, ""),
    maxRetries: 0,
    fetch: opts.fetch,
    logLevel: "off",
    dangerouslyAllowBrowser: true,
  });
  const out: ListedModel[] = [];
  for await (const model of client.models.list({ signal })) {
    // OpenRouter adds context_length and per-token prices; LM Studio and others may add a context length.
    const extra = model as unknown as {
      context_length?: unknown;
      max_context_length?: unknown;
      pricing?: { prompt?: unknown; completion?: unknown };
    };
    const context = numberOf(extra.context_length) ?? numberOf(extra.max_context_length);
    const input = numberOf(extra.pricing?.prompt);
    const output = numberOf(extra.pricing?.completion);
    out.push({
      id: model.id,
      ...(context ? { contextWindow: context } : {}),
      ...(input !== undefined && output !== undefined ? { price: { input: input * 1e6, output: output * 1e6 } } : {}),
    });
  }
  return out;
}

async function anthropicModels(opts: ListModelsOptions, signal: AbortSignal): Promise<ModelList> {
  const baseURL = (opts.baseUrl || ANTHROPIC_BASE_URL).replace(/\/+$/, "").replace(/\/v1$/, "");
  const client = new (anthropicLib().Anthropic)({
    apiKey: opts.apiKey || "no-key",
    baseURL,
    maxRetries: 0,
    fetch: opts.fetch,
    logLevel: "off",
    openTelemetry: false,
    dangerouslyAllowBrowser: true,
  });
  const models: ListedModel[] = [];
  for await (const info of client.models.list({ limit: 100 }, { signal })) {
    const extra = info as Partial<Anthropic.ModelInfo>;
    if (extra.lifecycle === "retired") continue;
    const images = extra.capabilities?.image_input?.supported;
    models.push({
      id: info.id,
      ...(info.display_name ? { name: info.display_name } : {}),
      ...(extra.max_input_tokens ? { contextWindow: extra.max_input_tokens } : {}),
      ...(typeof images === "boolean" ? { images } : {}),
    });
  }
  return { models };
}

/**
 * An OpenAI-compatible server: /v1/models, and Ollama's /api/tags beside it (Ollama's own list
 * says more: context length, tools, vision). Either answering is enough.
 */
async function compatibleModels(opts: ListModelsOptions, signal: AbortSignal): Promise<ModelList> {
  const baseUrl = (opts.baseUrl || OPENAI_COMPATIBLE_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const [openai, ollama] = await Promise.allSettled([
    openaiModels(opts, baseUrl, signal),
    ollamaModels(opts, baseUrl, signal),
  ]);
  // Ollama's /v1/models lists the same models with less said about them.
  if (ollama.status === "fulfilled") return { models: ollama.value };
  if (openai.status === "fulfilled") return { models: openai.value };
  throw openai.reason;
}

async function ollamaModels(opts: ListModelsOptions, baseUrl: string, signal: AbortSignal): Promise<ListedModel[]> {
  const root = baseUrl.replace(/\/v1$/, "");
  const doFetch = opts.fetch ?? fetch;
  const res = await doFetch(`${root}/api/tags`, { signal });
  if (!res.ok) throw new Error(`/api/tags answered ${res.status}`);
  const body = (await res.json()) as { models?: { name?: unknown; model?: unknown }[] };
  if (!Array.isArray(body.models)) throw new Error("/api/tags gave no model list");
  const names = body.models
    .map((m) => (typeof m.model === "string" ? m.model : typeof m.name === "string" ? m.name : ""))
    .filter(Boolean);
  // /api/show per model says its context length and what it can do; a few at a time.
  const shown = await mapLimited(names.slice(0, 50), 4, (name) =>
    ollamaShow(doFetch, root, name, signal).catch(() => undefined),
  );
  return names.map((id, i) => ({ id, ...(shown[i] ?? {}) }));
}

async function ollamaShow(
  doFetch: typeof fetch,
  root: string,
  model: string,
  signal: AbortSignal,
): Promise<Partial<ListedModel>> {
  const res = await doFetch(`${root}/api/show`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model }),
    signal,
  });
  if (!res.ok) return {};
  const body = (await res.json()) as { model_info?: Record<string, unknown>; capabilities?: unknown };
  const info = body.model_info ?? {};
  const arch = typeof info["general.architecture"] === "string" ? info["general.architecture"] : "";
  const context = numberOf(info[`${arch}.context_length`]);
  const caps = Array.isArray(body.capabilities)
    ? body.capabilities.filter((c): c is string => typeof c === "string")
    : undefined;
  return {
    ...(context ? { contextWindow: context } : {}),
    ...(caps ? { tools: caps.includes("tools"), images: caps.includes("vision") } : {}),
  };
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function numberOf(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : undefined;
}

function describe(error: unknown, opts: ListModelsOptions, timedOut: boolean): string {
  const where =
    opts.baseUrl ||
    (opts.provider === "anthropic"
      ? ANTHROPIC_BASE_URL
      : opts.provider === "openai"
        ? OPENAI_BASE_URL
        : OPENAI_COMPATIBLE_DEFAULT_BASE_URL);
  if (timedOut) return `${where} did not list its models within the time allowed. Type a model id instead.`;
  const c = classify(error, opts.apiKey);
  const status = c.status !== undefined ? ` (${c.status})` : "";
  const why =
    c.kind === "auth"
      ? "the API key was refused"
      : c.kind === "network"
        ? "it could not be reached"
        : c.detail || "it gave no list";
  return `Could not list the models of ${where}${status}: ${why}. Type a model id instead.`;
}
