/**
 * ChatModel over OpenAI's chat completions API (streaming), with the official `openai`
 * client. Also serves OpenAI-compatible servers (Ollama, LM Studio, vLLM, OpenRouter).
 */
import OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { knobs, type ErrorContext, type Surface } from "./errors";
import { imagesToSend, withImageNote } from "./imageNote";
import { acceptsImages, defaultMaxOutputTokens } from "./modelTable";
import { failWith, withRetries, type AttemptScope, type RetryOptions } from "./retry";
import { ModelError, type ChatMessage, type ChatModel, type ModelRequest, type ModelStreamEvent, type ToolCall, type ToolSpec, type Usage } from "./types";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

export interface OpenAIModelOptions {
  provider: "openai" | "openai-compatible";
  model: string;
  contextWindow: number;
  baseUrl?: string;
  /** Optional for openai-compatible servers, which often need none. */
  apiKey?: string;
  retry?: Partial<RetryOptions>;
  fetch?: typeof fetch;
  defaultHeaders?: Record<string, string>;
  surface?: Surface;
  /** Whether images from tools are sent; default from the model table. */
  acceptsImages?: boolean;
}

/**
 * Our messages in chat-completions shape. Tool messages carry text only, so images a tool
 * returned follow the run of tool results as one user message (when the model takes images).
 */
export function toOpenAIMessages(system: string, messages: ChatMessage[], opts: { images?: boolean } = {}): ChatCompletionMessageParam[] {
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
    if (msg.role === "user") out.push({ role: "user", content: msg.content });
    else if (msg.role === "tool") {
      const images = sent.get(msg);
      out.push({ role: "tool", tool_call_id: msg.toolCallId, content: withImageNote(msg, images, opts.images === true) });
      if (images?.length) {
        pendingImages.push({ type: "text", text: `The image${images.length > 1 ? "s" : ""} ${msg.toolName} returned:` });
        for (const image of images) pendingImages.push({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } });
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
  private readonly images: boolean;
  readonly contextWindow: number;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly ctx: ErrorContext;
  private readonly retry: Partial<RetryOptions>;

  constructor(opts: OpenAIModelOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.images = opts.acceptsImages ?? acceptsImages(opts.model);
    this.contextWindow = opts.contextWindow;
    this.baseUrl = (opts.baseUrl || OPENAI_BASE_URL).replace(/\/+$/, "");
    this.retry = opts.retry ?? {};
    this.ctx = { provider: opts.provider, model: opts.model, baseUrl: this.baseUrl, apiKey: opts.apiKey, surface: opts.surface };
    this.client = new OpenAI({
      // Local servers need no key, but the client insists on one.
      apiKey: opts.apiKey || "no-key",
      baseURL: this.baseUrl,
      maxRetries: 0, // ours, in retry.ts
      timeout: 24 * 60 * 60 * 1000, // the idle timeout in retry.ts bounds each attempt instead
      fetch: opts.fetch,
      defaultHeaders: opts.defaultHeaders,
      logLevel: "off",
      dangerouslyAllowBrowser: true, // runs in the extension host, not a web page
    });
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    if (this.provider === "openai" && !this.ctx.apiKey && this.baseUrl === OPENAI_BASE_URL) {
      return failWith(
        new ModelError("auth", `No OpenAI API key is set. ${knobs(this.ctx).setKey}.`),
      );
    }
    return withRetries((scope) => this.attempt(request, scope), this.ctx, request.signal, this.retry);
  }

  private body(request: ModelRequest): ChatCompletionCreateParamsStreaming {
    const maxTokens = request.maxOutputTokens ?? (this.provider === "openai" ? defaultMaxOutputTokens(this.model) : undefined);
    return {
      model: this.model,
      messages: toOpenAIMessages(request.system, request.messages, { images: this.images }),
      ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
      stream: true,
      stream_options: { include_usage: true },
      // OpenAI's reasoning models accept only max_completion_tokens; other servers know max_tokens.
      ...(maxTokens === undefined ? {} : this.provider === "openai" ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }),
    };
  }

  private async *attempt(request: ModelRequest, scope: AttemptScope): AsyncGenerator<ModelStreamEvent> {
    const stream = await this.client.chat.completions.create(this.body(request), { signal: scope.signal });
    scope.touch();
    let text = "";
    const calls: ToolCall[] = [];
    /** Wire index → our index into `calls`; -1 while the name is still unknown. */
    const byWire = new Map<number, number>();
    const pendingArgs = new Map<number, { id?: string; name?: string; args: string }>();
    let finish: string | undefined;
    let usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
      scope.touch();
      if (chunk.usage) usage = toUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === "string" && delta.content !== "") {
        text += delta.content;
        yield { type: "text_delta", text: delta.content };
      }
      for (const [pos, tc] of (delta.tool_calls ?? []).entries()) {
        const wire = typeof tc.index === "number" ? tc.index : pos;
        let ours = byWire.get(wire);
        // A server that reuses index 0 for every call: a new id means a new call.
        if (ours !== undefined && ours >= 0 && tc.id && calls[ours]?.id !== tc.id && calls[ours]?.name) ours = undefined;
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
          const index = calls.length;
          const id = pend.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`;
          calls.push({ id, name: pend.name, arguments: pend.args });
          byWire.set(wire, index);
          yield { type: "tool_call_start", index, id, name: pend.name };
          if (pend.args) yield { type: "tool_call_delta", index, argumentsDelta: pend.args };
          continue;
        }
        const argDelta = tc.function?.arguments;
        const call = calls[ours];
        if (call && argDelta) {
          call.arguments += argDelta;
          yield { type: "tool_call_delta", index: ours, argumentsDelta: argDelta };
        }
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (!finish) throw new ModelError("network", "the stream ended before the model finished");
    const stopReason = calls.length > 0 && finish === "stop" ? "tool_use" : (STOP_REASONS[finish] ?? finish);
    yield {
      type: "done",
      message: { role: "assistant", content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) },
      usage,
      stopReason,
    };
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
