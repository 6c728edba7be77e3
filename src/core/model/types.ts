/**
 * The one model interface the agent loop talks to. Adapters (OpenAI, Anthropic,
 * OpenAI-compatible) translate it to and from their wire formats.
 */

export interface ToolCall {
  /** The provider's id for the call, echoed back with the result. */
  id: string;
  name: string;
  /** Raw JSON text exactly as the model produced it (it may be invalid; the loop validates). */
  arguments: string;
}

/** An image a tool returned (an MCP screenshot, say), base64 without the `data:` prefix. */
export interface ImagePart {
  mimeType: string;
  data: string;
}

export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; toolName: string; content: string; isError?: boolean; images?: ImagePart[] };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (derived from the tool's zod schema). */
  parameters: Record<string, unknown>;
}

/**
 * Tokens of one model call. `inputTokens` counts only uncached prompt tokens; the whole
 * prompt is inputTokens + cacheReadTokens + cacheWriteTokens (see promptTokensOf).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  maxOutputTokens?: number;
}

/** Streamed pieces of one model turn, in arrival order. */
export type ModelStreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; argumentsDelta: string }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  /**
   * stopReason is normalized across providers: "end_turn", "tool_use", "max_tokens",
   * "content_filter", "refusal", or the provider's own word for anything else.
   */
  | { type: "done"; message: Extract<ChatMessage, { role: "assistant" }>; usage: Usage; stopReason: string };

/**
 * Why a model call failed for good (after retries), as a value the UI can explain.
 * `kind` says what the person should fix.
 */
export type ModelErrorKind =
  | "auth" // 401/403: bad or missing key
  | "not_found" // 404: unknown model or wrong base URL
  | "bad_request" // 400: the request was refused
  | "rate_limited" // 429 after all retries
  | "overloaded" // 5xx/529 after all retries
  | "network" // connection refused/reset, DNS, after all retries
  | "timeout" // the stream stopped sending
  | "cancelled"
  | "unknown";

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

export interface ChatModel {
  readonly provider: "openai" | "anthropic" | "openai-compatible" | "scripted";
  readonly model: string;
  /** Context window in tokens (from the model table or a setting). */
  readonly contextWindow: number;
  /** Streams one turn. Retries transient failures itself; throws ModelError when it gives up. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}
