/**
 * ChatModel over OpenAI's chat completions API (streaming), with the official `openai`
 * client. Also serves OpenAI-compatible servers (Ollama, LM Studio, vLLM, OpenRouter).
 */
import type OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { knobs, type ErrorContext } from "./errors";
import { imagesToSend, withImageNote } from "./imageNote";
import { acceptsImages, costOf, defaultMaxOutputTokens, priceOf } from "./modelTable";
import type { ModelPrice } from "./modelOverrides";
import { failWith, withRetries, type AttemptScope, type RetryOptions } from "./retry";
import { sdkAdapterSetup, type SdkAdapterOptions } from "./sdkAdapter";
import { requestChars, TurnAccumulator } from "./turnAccumulator";
import { openaiLib } from "../vendor/libraries";
import {
  ModelError,
  type ChatMessage,
  type ChatModel,
  type ImagePart,
  type ModelRequest,
  type ModelStreamEvent,
  type ToolSpec,
  type Usage,
} from "./types";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

export interface OpenAIModelOptions extends SdkAdapterOptions {
  provider: "openai" | "openai-compatible";
  /** Optional for openai-compatible servers, which often need none. */
  apiKey?: string;
}

/**
 * Our messages in chat-completions shape. Tool messages carry text only, so images a tool
 * returned follow the run of tool results as one user message (when the model takes images).
 */
export function toOpenAIMessages(
  system: string,
  messages: ChatMessage[],
  opts: { images?: boolean } = {},
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  const sent = imagesToSend(messages, opts.images === true);
  let pendingImages: ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    out.push({ role: "user", content: pendingImages });
    pendingImages = [];
  };
  for (const msg of messages) {
    if (msg.role !== "tool") flushImages();
    if (msg.role === "user") {
      const images = sent.get(msg);
      const text = withImageNote(msg, images, opts.images === true);
      out.push({ role: "user", content: images?.length ? [{ type: "text", text }, ...images.map(imagePart)] : text });
    } else if (msg.role === "tool") {
      const images = sent.get(msg);
      out.push({
        role: "tool",
        tool_call_id: msg.toolCallId,
        content: withImageNote(msg, images, opts.images === true),
      });
      if (images?.length) {
        pendingImages.push({
          type: "text",
          text: `The image${images.length > 1 ? "s" : ""} ${msg.toolName} returned:`,
        });
        for (const image of images) pendingImages.push(imagePart(image));
      }
    } else {
      const calls = msg.toolCalls ?? [];
      out.push({
        role: "assistant",
        content: msg.content === "" && calls.length > 0 ? null : msg.content,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: "function" as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      });
    }
  }
  flushImages();
  return out;
}

function imagePart(image: ImagePart): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

export function toOpenAITools(tools: ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "content_filter",
};

export class OpenAIModel implements ChatModel {
  readonly provider: "openai" | "openai-compatible";
  readonly model: string;
  readonly acceptsImages: boolean;
  private readonly price: ModelPrice | undefined;
  readonly contextWindow: number;
  /** Cleared when the server refuses `stream_options` (some older OpenAI-compatible servers do). */
  private includeUsage = true;
  readonly baseUrl: string;
  /** Made at the first request: the client library loads only then (vendor/libraries.ts). */
  private clientInstance: OpenAI | undefined;
  private readonly clientOptions: ConstructorParameters<typeof OpenAI>[0];
  private readonly ctx: ErrorContext;
  private readonly retry: Partial<RetryOptions>;

  constructor(opts: OpenAIModelOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.acceptsImages = opts.acceptsImages ?? acceptsImages(opts.model);
    this.price = opts.price;
    this.contextWindow = opts.contextWindow;
    this.baseUrl = (opts.baseUrl || OPENAI_BASE_URL).replace(/\/+$/, "");
    this.retry = opts.retry ?? {};
    ({ ctx: this.ctx, clientOptions: this.clientOptions } = sdkAdapterSetup(opts.provider, opts, this.baseUrl));
  }

  private get client(): OpenAI {
    return (this.clientInstance ??= new (openaiLib().OpenAI)(this.clientOptions));
  }

  costOf(usage: Usage): number | undefined {
    return this.price ? priceOf(this.price, usage) : costOf(this.model, usage);
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    if (this.provider === "openai" && !this.ctx.apiKey && this.baseUrl === OPENAI_BASE_URL) {
      return failWith(new ModelError("auth", `No OpenAI API key is set. ${knobs(this.ctx).setKey}.`));
    }
    return this.streamWithUsageFallback(request);
  }

  private async *streamWithUsageFallback(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const run = () => withRetries((scope) => this.attempt(request, scope), this.ctx, request.signal, this.retry);
    if (!this.includeUsage) return yield* run();
    try {
      yield* run();
    } catch (error) {
      if (!(
        error instanceof ModelError &&
        error.kind === "bad_request" &&
        /stream_options|include_usage/i.test(error.message)
      ))
        throw error;
      this.includeUsage = false;
      yield {
        type: "notice",
        code: "no_stream_options",
        message: `${this.baseUrl} refused stream_options.include_usage; asking without it from now on (token counts are estimated).`,
      };
      yield* run();
    }
  }

  private body(request: ModelRequest): ChatCompletionCreateParamsStreaming {
    const maxTokens =
      request.maxOutputTokens ?? (this.provider === "openai" ? defaultMaxOutputTokens(this.model) : undefined);
    return {
      model: this.model,
      messages: toOpenAIMessages(request.system, request.messages, { images: this.acceptsImages }),
      ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
      stream: true,
      ...(this.includeUsage ? { stream_options: { include_usage: true } } : {}),
      // OpenAI's reasoning models accept only max_completion_tokens; other servers know max_tokens.
      ...(maxTokens === undefined
        ? {}
        : this.provider === "openai"
          ? { max_completion_tokens: maxTokens }
          : { max_tokens: maxTokens }),
      ...(request.sampling?.temperature !== undefined ? { temperature: request.sampling.temperature } : {}),
      ...(request.sampling?.seed !== undefined ? { seed: request.sampling.seed } : {}),
      // llama.cpp, Ollama, LM Studio and vLLM turn the schema into a grammar enforced from the first token.
      ...(request.responseFormat
        ? {
            response_format: {
              type: "json_schema",
              json_schema: { name: request.responseFormat.name, strict: true, schema: request.responseFormat.schema },
            },
          }
        : {}),
    };
  }

  private async *attempt(request: ModelRequest, scope: AttemptScope): AsyncGenerator<ModelStreamEvent> {
    const stream = await this.client.chat.completions.create(this.body(request), { signal: scope.signal });
    scope.touch();
    const turn = new TurnAccumulator({ thinkTags: this.provider === "openai-compatible" });
    /** Wire index → our call index; -1 while the name is still unknown. */
    const byWire = new Map<number, number>();
    const pendingArgs = new Map<number, { id?: string; name?: string; args: string }>();
    let finish: string | undefined;
    let usage: Usage | undefined;

    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
      scope.touch();
      if (chunk.usage) usage = toUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & {
        reasoning_content?: unknown;
        reasoning?: unknown;
      };
      // DeepSeek, vLLM and LM Studio stream reasoning as `reasoning_content`; OpenRouter and Ollama as `reasoning`.
      const reasoning =
        typeof delta.reasoning_content === "string"
          ? delta.reasoning_content
          : typeof delta.reasoning === "string"
            ? delta.reasoning
            : "";
      if (reasoning) yield* turn.addReasoning(reasoning);
      if (typeof delta.content === "string") yield* turn.addText(delta.content);
      for (const [pos, tc] of (delta.tool_calls ?? []).entries()) {
        const wire = typeof tc.index === "number" ? tc.index : pos;
        let ours = byWire.get(wire);
        // A server that reuses index 0 for every call: a new id means a new call.
        if (ours !== undefined && ours >= 0 && tc.id && turn.callAt(ours)?.id !== tc.id && turn.callAt(ours)?.name)
          ours = undefined;
        if (ours === undefined || ours < 0) {
          const pend = pendingArgs.get(wire) ?? { args: "" };
          pend.id ||= tc.id;
          pend.name ||= tc.function?.name || undefined;
          pend.args += tc.function?.arguments ?? "";
          if (!pend.name) {
            pendingArgs.set(wire, pend);
            byWire.set(wire, -1);
            continue;
          }
          pendingArgs.delete(wire);
          byWire.set(wire, yield* turn.startCall(pend.id, pend.name, pend.args));
          continue;
        }
        yield* turn.addArguments(ours, tc.function?.arguments ?? "");
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (!finish) throw new ModelError("network", "the stream ended before the model finished");
    const stopReason = turn.callCount > 0 && finish === "stop" ? "tool_use" : (STOP_REASONS[finish] ?? finish);
    yield turn.done(stopReason, usage, { requestChars: requestChars(request) });
  }
}

function toUsage(u: OpenAI.CompletionUsage): Usage {
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (u.prompt_tokens ?? 0) - cached),
    outputTokens: u.completion_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
