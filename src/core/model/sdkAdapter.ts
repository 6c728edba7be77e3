import type { ErrorContext, Surface } from "./errors";
import type { ModelPrice } from "./modelOverrides";
import type { RetryOptions } from "./retry";

/** The options both SDK adapters (Anthropic, OpenAI) take the same way. */
export interface SdkAdapterOptions {
  model: string;
  contextWindow: number;
  baseUrl?: string;
  apiKey?: string;
  retry?: Partial<RetryOptions>;
  fetch?: typeof fetch;
  defaultHeaders?: Record<string, string>;
  surface?: Surface;
  /** Whether images (the person's and tools') are sent; default from the model table. */
  acceptsImages?: boolean;
  /** $ per million tokens, when the model table does not know the model (or knows it wrong). */
  price?: ModelPrice;
}

/**
 * What both SDK adapters set up alike: the context errors are told in, and the client's options
 * (retries and timeouts are ours, in retry.ts; the key is always explicit).
 */
export function sdkAdapterSetup(provider: ErrorContext["provider"], opts: SdkAdapterOptions, baseUrl: string) {
  const ctx: ErrorContext = { provider, model: opts.model, baseUrl, apiKey: opts.apiKey, surface: opts.surface };
  const clientOptions = {
    // Always explicit: the SDK never goes looking for credentials on disk, and local servers that need
    // no key still get one (the client insists).
    apiKey: opts.apiKey || "no-key",
    baseURL: baseUrl,
    maxRetries: 0, // ours, in retry.ts
    timeout: 24 * 60 * 60 * 1000, // the idle timeout in retry.ts bounds each attempt instead
    fetch: opts.fetch,
    defaultHeaders: opts.defaultHeaders,
    logLevel: "off" as const,
    dangerouslyAllowBrowser: true, // runs in the extension host, not a web page
  };
  return { ctx, clientOptions };
}
