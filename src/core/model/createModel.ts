/**
 * One entry point from settings to a ChatModel.
 */
import { AnthropicModel } from "./anthropicModel";
import { contextWindowOf } from "./modelTable";
import type { ModelOverride } from "./modelOverrides";
import { OpenAIModel } from "./openaiModel";
import { probeFor } from "./fit/modelProbe";
import { withToolCallMode, type ToolCallModeModel } from "./toolCalls/toolCallMode";
import type { Surface } from "./errors";
import type { RetryOptions } from "./retry";
import type { ChatModel } from "./types";

export type Provider = "openai" | "anthropic" | "openai-compatible";

export interface CreateModelOptions {
  provider: Provider;
  /** Empty → the provider's default (DEFAULT_MODELS). */
  model: string;
  /** Empty → the provider's official endpoint. Required in practice for openai-compatible. */
  baseUrl?: string;
  /** Not needed by most local openai-compatible servers. */
  apiKey?: string;
  /** Overrides the model table. */
  contextWindow?: number;
  /** Retries after the first request (default 3: at most 4 requests). */
  maxRetries?: number;
  /** Abort a stream that sends nothing for this long once output has begun (default 60 000 ms). */
  streamIdleTimeoutMs?: number;
  /** Before the first output, wait this long (default 600 000 ms: a CPU-bound server reading a long prompt). */
  firstOutputTimeoutMs?: number;
  /** First backoff delay in ms (default 1000); small in tests. */
  retryBaseDelayMs?: number;
  /** Anything else about retrying (tests inject `sleep`). */
  retry?: Partial<RetryOptions>;
  fetch?: typeof fetch;
  /** Where the person sets the model (hints name VS Code settings or CLI flags); default vscode. */
  surface?: Surface;
  /** Extra HTTP headers (e.g. OpenRouter's HTTP-Referer). Never put the key here. */
  defaultHeaders?: Record<string, string>;
  /** Whether images from tools reach the model; default: known vision models only. */
  acceptsImages?: boolean;
  /** What the person set for this model (context window, tool calling, images, price); wins over the table. */
  override?: ModelOverride;
}

export const DEFAULT_MODELS: Record<Provider, string> = {
  openai: "gpt-4.1",
  anthropic: "claude-sonnet-5-5",
  "openai-compatible": "qwen2.5-coder:14b",
};

export const OPENAI_COMPATIBLE_DEFAULT_BASE_URL = "http://localhost:11434/v1";

/**
 * The adapter for the provider, inside the tool-call mode the override asks for; unset, the mode
 * and profile are chosen by the model's size (model/fit/modelFit.ts: constrained and small for a small
 * model, native and full for every other, hosted models included).
 */
export function createModel(opts: CreateModelOptions): ToolCallModeModel {
  const adapter = createAdapter(opts);
  const o = opts.override ?? {};
  const contextWindow = opts.contextWindow ?? o.contextWindow;
  const baseUrl = opts.baseUrl || (opts.provider === "openai-compatible" ? OPENAI_COMPATIBLE_DEFAULT_BASE_URL : "");
  const sampling = {
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
  };
  // A recording or replay (a fetch of its own) decides by name only, so both decide alike.
  const probe = opts.provider === "openai-compatible" && !opts.fetch ? probeFor(baseUrl, adapter.model) : undefined;
  return withToolCallMode(adapter, {
    ...(o.tools ? { mode: o.tools } : {}),
    ...(o.profile ? { profile: o.profile } : {}),
    ...(Object.keys(sampling).length ? { sampling } : {}),
    ...(contextWindow ? { contextWindow } : {}),
    key: `${opts.provider} ${baseUrl} ${adapter.model}`,
    ...(probe ? { probe } : {}),
  });
}

function createAdapter(opts: CreateModelOptions): ChatModel {
  const model = opts.model.trim() || DEFAULT_MODELS[opts.provider];
  const o = opts.override ?? {};
  const contextWindow = opts.contextWindow ?? o.contextWindow;
  const retry: Partial<RetryOptions> = { ...opts.retry };
  if (opts.maxRetries !== undefined) retry.maxRetries = opts.maxRetries;
  if (opts.streamIdleTimeoutMs !== undefined) retry.streamIdleTimeoutMs = opts.streamIdleTimeoutMs;
  if (opts.firstOutputTimeoutMs !== undefined) retry.firstOutputTimeoutMs = opts.firstOutputTimeoutMs;
  if (opts.retryBaseDelayMs !== undefined) retry.baseDelayMs = opts.retryBaseDelayMs;
  const common = {
    model,
    apiKey: opts.apiKey || undefined,
    retry,
    fetch: opts.fetch,
    defaultHeaders: opts.defaultHeaders,
    surface: opts.surface,
    ...(opts.acceptsImages !== undefined || o.images !== undefined
      ? { acceptsImages: opts.acceptsImages ?? o.images }
      : {}),
    ...(o.price ? { price: o.price } : {}),
  };
  switch (opts.provider) {
    case "anthropic":
      return new AnthropicModel({
        ...common,
        baseUrl: opts.baseUrl || undefined,
        contextWindow: contextWindow ?? contextWindowOf(model),
        ...(o.thinkingBudget ? { thinkingBudget: o.thinkingBudget } : {}),
      });
    case "openai":
      return new OpenAIModel({
        ...common,
        provider: "openai",
        baseUrl: opts.baseUrl || undefined,
        contextWindow: contextWindow ?? contextWindowOf(model),
      });
    case "openai-compatible":
      return new OpenAIModel({
        ...common,
        provider: "openai-compatible",
        baseUrl: opts.baseUrl || OPENAI_COMPATIBLE_DEFAULT_BASE_URL,
        contextWindow: contextWindow ?? contextWindowOf(model, { local: true }),
      });
    default: {
      const never: never = opts.provider;
      throw new Error(
        `Unknown provider "${String(never)}". Set fathom.provider to openai, anthropic or openai-compatible.`,
      );
    }
  }
}
