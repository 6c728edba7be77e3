import type { Attachment } from "../attachments";

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

/**
 * A model's reasoning (thinking) before its answer. Shown collapsed; sent back only where the
 * API requires it (Anthropic, with its signature, while thinking is on), never elsewhere.
 */
export interface ReasoningBlock {
  text: string;
  /** Anthropic's signature over the block (it must come back unchanged). */
  signature?: string;
  /** Anthropic's redacted thinking: opaque data to send back, nothing to show. */
  redacted?: string;
}

export type ChatMessage =
  /**
   * `images`: what the person pasted or dropped into the message (sent only to models that read
   * images). `attachments`: the chips they attached; the mentions middleware adds their text to
   * `content` before the model first sees the message (adapters read only `content`).
   */
  | { role: "user"; content: string; images?: ImagePart[]; attachments?: Attachment[] }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[]; reasoning?: ReasoningBlock[] }
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
  /**
   * The last request the run may make (its step limit, or a loop the guard stopped): a model
   * that can be held to a schema (constrained mode) is offered only its final `answer`.
   */
  answerOnly?: boolean;
  /** The reply must be one JSON value valid against `schema` (OpenAI's `response_format: json_schema`). */
  responseFormat?: { name: string; schema: Record<string, unknown> };
  /** Sampling the request asks for; absent fields are the server's own defaults (and are not sent). */
  sampling?: Sampling;
}

export interface Sampling {
  temperature?: number;
  seed?: number;
}

/** Streamed pieces of one model turn, in arrival order. */
export type ModelStreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; argumentsDelta: string }
  /** Reasoning (thinking) text, shown collapsed. */
  | { type: "reasoning_delta"; text: string }
  /** The answer's text so far is replaced by `text` (tool calls written in it were taken out). */
  | { type: "text_reset"; text: string }
  /** Something the person (and the log) should know about how the answer was read. */
  | { type: "notice"; code: ModelNoticeCode; message: string }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  /**
   * stopReason is normalized across providers: "end_turn", "tool_use", "max_tokens",
   * "content_filter", "refusal", or the provider's own word for anything else.
   */
  | {
      type: "done";
      message: Extract<ChatMessage, { role: "assistant" }>;
      usage: Usage;
      stopReason: string;
      /** The server reported no usage: tokens were estimated from characters. */
      usageEstimated?: boolean;
    };

export type ModelNoticeCode =
  /** Tool calls written in the answer's text were run (no native call came, or tools are text-only). */
  | "text_tool_calls"
  /** The server has no native tool calling: tools now go in the prompt, calls come back as text. */
  | "tools_as_text"
  /** The server refused `stream_options`: asked again without it (usage is then estimated). */
  | "no_stream_options"
  /** The server refused or ignored the reply schema of constrained mode: the next mode is used from now on. */
  | "constrained_off"
  /** A constrained call's arguments went into a loop: cut, and the call is not run. */
  | "looping_call";

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
    /** Already written for the person and not worth retrying: the retry loop passes it on as it is. */
    readonly final?: boolean,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

export type ModelProvider = "openai" | "anthropic" | "openai-compatible" | "vscode" | "scripted";

export interface ChatModel {
  readonly provider: ModelProvider;
  readonly model: string;
  /** Context window in tokens (from the model table or a setting). */
  readonly contextWindow: number;
  /** Whether images (pasted by the person, or from tools) may be sent to it. */
  readonly acceptsImages?: boolean;
  /** Dollars for one call's usage; undefined when the price is unknown. Default: the model table. */
  costOf?(usage: Usage): number | undefined;
  /** Streams one turn. Retries transient failures itself; throws ModelError when it gives up. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * How this model is best driven (asked once per run, before its first request): the tool-call
   * mode it will use and whether the agent should use the small-model profile. Absent: the full
   * profile, tools as the adapter sends them.
   */
  fit?(signal?: AbortSignal): Promise<ModelFit>;
}

/**
 * How tools reach a model and its calls come back (model/toolCalls/toolCallMode.ts): the API's own tool
 * calling, tools described in the prompt, no tools, or one schema-constrained JSON object a turn.
 */
export type ToolCallMode = "native" | "text" | "none" | "constrained";

/** "small": a short system prompt and only the core tools (agent/smallModelProfile.ts). */
export type AgentProfile = "full" | "small";

export interface ModelFit {
  toolCallMode: ToolCallMode;
  profile: AgentProfile;
  /** Why, in a few words, for the log ("SmolLM2 135M: 0.1B parameters, set by …"). */
  reason: string;
}
