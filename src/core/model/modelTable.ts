/**
 * What we know about common models: context window, largest output, and list prices
 * in US dollars per million tokens. Unknown models get no price (usage is shown in
 * tokens only) and a default context window.
 */
import type { Usage } from "./types";

export interface ModelInfo {
  contextWindow: number;
  /** Largest `max_tokens` the model accepts. */
  maxOutputTokens: number;
  /** $ per million tokens. */
  price: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

function m(
  contextWindow: number,
  maxOutputTokens: number,
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite: number = input,
): ModelInfo {
  return { contextWindow, maxOutputTokens, price: { input, output, cacheRead, cacheWrite } };
}

/**
 * Keyed by model id without a date suffix. Prices as published by OpenAI and Anthropic
 * (checked 2026); models not listed (e.g. tiered ones like claude-haiku-5-5) show tokens only. OpenAI does not charge extra for writing
 * its prompt cache, so its cacheWrite equals the input price. Anthropic's cacheWrite is
 * the 5-minute cache (1.25 × input).
 */
const TABLE: Record<string, ModelInfo> = {
  // OpenAI
  "gpt-4.1": m(1_047_576, 32_768, 2.0, 8.0, 0.5),
  "gpt-4.1-mini": m(1_047_576, 32_768, 0.4, 1.6, 0.1),
  "gpt-4.1-nano": m(1_047_576, 32_768, 0.1, 0.4, 0.025),
  "gpt-4o": m(128_000, 16_384, 2.5, 10.0, 1.25),
  "gpt-4o-mini": m(128_000, 16_384, 0.15, 0.6, 0.075),
  o3: m(200_000, 100_000, 2.0, 8.0, 0.5),
  "o3-mini": m(200_000, 100_000, 1.1, 4.4, 0.55),
  "o4-mini": m(200_000, 100_000, 1.1, 4.4, 0.275),
  "gpt-5": m(400_000, 128_000, 1.25, 10.0, 0.125),
  "gpt-5-mini": m(400_000, 128_000, 0.25, 2.0, 0.025),
  "gpt-5-nano": m(400_000, 128_000, 0.05, 0.4, 0.005),
  "gpt-5.1": m(400_000, 128_000, 1.25, 10.0, 0.125),
  "gpt-5-codex": m(400_000, 128_000, 1.25, 10.0, 0.125),
  "gpt-5.1-codex": m(400_000, 128_000, 1.25, 10.0, 0.125),
  "gpt-5.2": m(400_000, 128_000, 1.75, 14.0, 0.175),
  "gpt-5.4": m(1_050_000, 128_000, 2.5, 15.0, 0.25),
  // Anthropic
  "claude-fable-5-1": m(1_000_000, 128_000, 10.0, 50.0, 0.25, 12.5),
  "claude-fable-5": m(1_000_000, 128_000, 10.0, 50.0, 1.0, 12.5),
  "claude-mythos-5-1": m(1_000_000, 128_000, 10.0, 50.0, 0.25, 12.5),
  "claude-mythos-5": m(1_000_000, 128_000, 10.0, 50.0, 1.0, 12.5),
  "claude-opus-5-5": m(1_000_000, 128_000, 4.0, 20.0, 0.4, 5.0),
  "claude-opus-5": m(1_000_000, 128_000, 5.0, 25.0, 0.5, 6.25),
  "claude-sonnet-5-5": m(1_000_000, 128_000, 2.0, 10.0, 0.2, 2.5),
  "claude-sonnet-5": m(1_000_000, 128_000, 2.0, 10.0, 0.2, 2.5),
  "claude-opus-4-8": m(1_000_000, 128_000, 5.0, 25.0, 0.5, 6.25),
  "claude-opus-4-7": m(1_000_000, 128_000, 5.0, 25.0, 0.5, 6.25),
  "claude-opus-4-6": m(1_000_000, 128_000, 5.0, 25.0, 0.5, 6.25),
  "claude-sonnet-4-6": m(1_000_000, 128_000, 3.0, 15.0, 0.3, 3.75),
  "claude-opus-4-5": m(200_000, 64_000, 5.0, 25.0, 0.5, 6.25),
  "claude-opus-4-1": m(200_000, 32_000, 15.0, 75.0, 1.5, 18.75),
  "claude-opus-4": m(200_000, 32_000, 15.0, 75.0, 1.5, 18.75),
  "claude-sonnet-4-5": m(200_000, 64_000, 3.0, 15.0, 0.3, 3.75),
  "claude-sonnet-4": m(200_000, 64_000, 3.0, 15.0, 0.3, 3.75),
  "claude-haiku-4-5": m(200_000, 64_000, 1.0, 5.0, 0.1, 1.25),
  "claude-3-7-sonnet": m(200_000, 64_000, 3.0, 15.0, 0.3, 3.75),
  "claude-3-5-sonnet": m(200_000, 8_192, 3.0, 15.0, 0.3, 3.75),
  "claude-3-5-haiku": m(200_000, 8_192, 0.8, 4.0, 0.08, 1.0),
  "claude-3-opus": m(200_000, 4_096, 15.0, 75.0, 1.5, 18.75),
  "claude-3-haiku": m(200_000, 4_096, 0.25, 1.25, 0.03, 0.3),
};

/** What may follow a table key: a date (`-20250514`, `-2024-08-06`), `-latest`, or nothing. */
const SUFFIX = /^(?:-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)?(?:-v\d+(?::\d+)?)?$/;

/** Default window for a model we do not know: generous for hosted APIs, modest for local servers. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_LOCAL_CONTEXT_WINDOW = 32_768;
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

function normalize(model: string): string {
  let id = model.trim().toLowerCase();
  // OpenRouter and similar prefix the vendor: "anthropic/claude-sonnet-4.5", "openai/gpt-4.1".
  const slash = id.lastIndexOf("/");
  if (slash >= 0) id = id.slice(slash + 1);
  // Anthropic ids use dashes for versions; some routers use dots ("claude-sonnet-4.5").
  if (id.startsWith("claude")) id = id.replace(/\./g, "-");
  return id;
}

/** The table entry for a model id (dated suffixes and vendor prefixes allowed), if known. */
export function lookupModel(model: string): ModelInfo | undefined {
  const id = normalize(model);
  let best: { key: string; info: ModelInfo } | undefined;
  for (const [key, info] of Object.entries(TABLE)) {
    if (!id.startsWith(key) || !SUFFIX.test(id.slice(key.length))) continue;
    if (!best || key.length > best.key.length) best = { key, info };
  }
  return best?.info;
}

/** Known models that take text only; every other model in the table also reads images. */
const TEXT_ONLY = new Set(["o3-mini"]);

/**
 * Whether images a tool returned can be sent to the model. Unknown models (most local ones)
 * get a description instead, since a text-only server rejects the whole request otherwise.
 */
export function acceptsImages(model: string): boolean {
  const id = normalize(model);
  const info = lookupModel(model);
  return info !== undefined && ![...TEXT_ONLY].some((key) => id.startsWith(key) && SUFFIX.test(id.slice(key.length)));
}

/** Context window in tokens; `local` picks the smaller default for self-hosted servers. */
export function contextWindowOf(model: string, opts: { local?: boolean } = {}): number {
  return lookupModel(model)?.contextWindow ?? (opts.local ? DEFAULT_LOCAL_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW);
}

/** A sensible `max_tokens` for one turn: the model's limit, capped so a turn stays bounded. */
export function defaultMaxOutputTokens(model: string, cap = 32_000): number {
  return Math.min(lookupModel(model)?.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS, cap);
}

/**
 * Cost in US dollars of one call, or undefined for a model without a known price.
 * `usage.inputTokens` excludes cached tokens (see Usage), so each count is priced once.
 */
export function costOf(model: string, usage: Usage): number | undefined {
  const info = lookupModel(model);
  return info ? priceOf(info.price, usage) : undefined;
}

/** Dollars for `usage` at `price` ($ per million tokens; cache prices default to the input price). */
export function priceOf(
  price: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
  usage: Usage,
): number {
  const p = { cacheRead: price.input, cacheWrite: price.input, ...price };
  return (
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheReadTokens * p.cacheRead +
      usage.cacheWriteTokens * p.cacheWrite) /
    1_000_000
  );
}

/** Every prompt token of a call: uncached input plus cache reads and writes. */
export function promptTokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}
