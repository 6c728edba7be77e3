/**
 * The two wire formats the scripted model server speaks: OpenAI chat-completion chunks
 * and Anthropic message stream events, chunked the way real servers chunk them.
 */
import { randomBytes } from "node:crypto";

export type Wire = "openai" | "anthropic";
export type SseWriter = (event: string | undefined, data: unknown) => Promise<void>;

export interface WireTurn {
  text?: string;
  /**
   * Reasoning before the answer. OpenAI wire: `reasoning_content` deltas (`reasoning` with
   * reasoningField "reasoning"); Anthropic wire: a signed thinking block.
   */
  reasoning?: string;
  reasoningField?: "reasoning_content" | "reasoning";
  /** Anthropic: a redacted_thinking block with this data after the thinking. */
  redactedThinking?: string;
  toolCalls?: { name: string; arguments: string | Record<string, unknown>; id?: string }[];
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  stopReason?: string;
}

export interface StreamOptions {
  model: string;
  rawBody: string;
  /** OpenAI: send the final usage chunk (stream_options.include_usage). */
  includeUsage: boolean;
  /** Stop after the text: no block end, no finish, no usage (for faults). */
  partial: boolean;
}

const SIZES = [4, 7, 3, 9, 5, 2, 6, 8];

/** Splits text into several token-like pieces (at least 3 when it has 3+ characters). */
export function chunks(text: string): string[] {
  if (text === "") return [];
  const cap = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  let i = 0;
  let k = 0;
  while (i < text.length) {
    const n = Math.min(SIZES[k++ % SIZES.length] ?? 4, cap);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const id = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;
const argsText = (a: string | Record<string, unknown>) => (typeof a === "string" ? a : JSON.stringify(a));

function usageOf(turn: WireTurn, rawBody: string) {
  const produced = (turn.text ?? "") + (turn.toolCalls ?? []).map((c) => c.name + argsText(c.arguments)).join("");
  return {
    input: turn.usage?.input ?? Math.ceil(rawBody.length / 4),
    output: turn.usage?.output ?? Math.max(1, Math.ceil(produced.length / 4)),
    cacheRead: turn.usage?.cacheRead ?? 0,
    cacheWrite: turn.usage?.cacheWrite ?? 0,
  };
}

export async function openaiStream(write: SseWriter, turn: WireTurn, opts: StreamOptions): Promise<void> {
  const base = {
    id: id("chatcmpl-"),
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: opts.model,
    system_fingerprint: "fp_scripted",
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(opts.includeUsage ? { usage: null } : {}),
  });
  await write(undefined, chunk({ role: "assistant", content: "", refusal: null }));
  const field = turn.reasoningField ?? "reasoning_content";
  for (const piece of chunks(turn.reasoning ?? "")) await write(undefined, chunk({ content: null, [field]: piece }));
  for (const piece of chunks(turn.text ?? "")) await write(undefined, chunk({ content: piece }));
  if (opts.partial) return;
  const calls = turn.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    await write(
      undefined,
      chunk({
        tool_calls: [
          { index, id: call.id ?? id("call_"), type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of chunks(argsText(call.arguments))) {
      await write(undefined, chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  await write(undefined, chunk({}, turn.stopReason ?? (calls.length > 0 ? "tool_calls" : "stop")));
  if (opts.includeUsage) {
    const u = usageOf(turn, opts.rawBody);
    const prompt = u.input + u.cacheRead + u.cacheWrite;
    await write(undefined, {
      ...base,
      choices: [],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: u.output,
        total_tokens: prompt + u.output,
        prompt_tokens_details: { cached_tokens: u.cacheRead, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    });
  }
  await write(undefined, "[DONE]");
}

export async function anthropicStream(write: SseWriter, turn: WireTurn, opts: StreamOptions): Promise<void> {
  const u = usageOf(turn, opts.rawBody);
  await write("message_start", {
    type: "message_start",
    message: {
      id: id("msg_"),
      type: "message",
      role: "assistant",
      model: opts.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: u.input,
        cache_creation_input_tokens: u.cacheWrite,
        cache_read_input_tokens: u.cacheRead,
        output_tokens: 1,
      },
    },
  });
  let index = 0;
  if (turn.reasoning) {
    await write("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "thinking", thinking: "", signature: "" },
    });
    for (const piece of chunks(turn.reasoning)) {
      await write("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "thinking_delta", thinking: piece },
      });
    }
    await write("content_block_delta", {
      type: "content_block_delta",
      index,
      delta: { type: "signature_delta", signature: signatureOf(turn.reasoning) },
    });
    await write("content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  if (turn.redactedThinking) {
    await write("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "redacted_thinking", data: turn.redactedThinking },
    });
    await write("content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  const text = turn.text ?? "";
  if (text !== "" || opts.partial) {
    await write("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "text", text: "" },
    });
    await write("ping", { type: "ping" });
    for (const piece of chunks(text)) {
      await write("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: piece },
      });
    }
    if (opts.partial) return;
    await write("content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  const calls = turn.toolCalls ?? [];
  for (const call of calls) {
    await write("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.id ?? id("toolu_"), name: call.name, input: {} },
    });
    for (const piece of chunks(argsText(call.arguments))) {
      await write("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      });
    }
    await write("content_block_stop", { type: "content_block_stop", index });
    index++;
  }
  await write("message_delta", {
    type: "message_delta",
    delta: { stop_reason: turn.stopReason ?? (calls.length > 0 ? "tool_use" : "end_turn"), stop_sequence: null },
    usage: { output_tokens: u.output },
  });
  await write("message_stop", { type: "message_stop" });
}

/** The signature the scripted Anthropic server gives a thinking block (tests check it comes back unchanged). */
export function signatureOf(thinking: string): string {
  return `sig_${Buffer.from(thinking).toString("base64").slice(0, 24)}`;
}

const OPENAI_ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: {
    type: "invalid_request_error",
    code: "unsupported_country_region_territory",
    message: "You may not use this model.",
  },
  404: {
    type: "invalid_request_error",
    code: "model_not_found",
    message: "The model does not exist or you do not have access to it.",
  },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests." },
  500: { type: "server_error", code: null, message: "The server had an error while processing your request." },
  503: { type: "server_error", code: null, message: "The engine is currently overloaded." },
  529: { type: "server_error", code: null, message: "Overloaded." },
};
const ANTHROPIC_ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request." },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
  404: { type: "not_found_error", message: "model: not found" },
  429: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit." },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

/** An error body shaped like the provider's. */
export function errorBody(wire: Wire, status: number, message?: string): unknown {
  if (wire === "openai") {
    const e = OPENAI_ERRORS[status] ?? {
      type: status >= 500 ? "server_error" : "invalid_request_error",
      code: null,
      message: `Error ${status}.`,
    };
    return { error: { message: message ?? e.message, type: e.type, param: null, code: e.code } };
  }
  const e = ANTHROPIC_ERRORS[status] ?? {
    type: status >= 500 ? "api_error" : "invalid_request_error",
    message: `Error ${status}.`,
  };
  return { type: "error", error: { type: e.type, message: message ?? e.message }, request_id: id("req_") };
}
