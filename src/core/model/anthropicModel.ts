/**
 * ChatModel over Anthropic's messages API (streaming), with the official SDK.
 * Prompt caching: breakpoints on the tools, the system prompt and the two latest user
 * turns, so each turn reads the previous turn's prefix from the cache (4 breakpoints,
 * the API's maximum).
 */
import type Anthropic from "@anthropic-ai/sdk";
import { anthropicLib } from "../vendor/libraries";
import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import { knobs, type ErrorContext } from "./errors";
import { imagesToSend, withImageNote } from "./imageNote";
import { acceptsImages, costOf, defaultMaxOutputTokens, priceOf } from "./modelTable";
import type { ModelPrice } from "./modelOverrides";
import { failWith, withRetries, type AttemptScope, type RetryOptions } from "./retry";
import { sdkAdapterSetup, type SdkAdapterOptions } from "./sdkAdapter";
import { TurnAccumulator } from "./turnAccumulator";
import {
  ModelError,
  type ChatMessage,
  type ChatModel,
  type ImagePart,
  type ModelRequest,
  type ModelStreamEvent,
  type ReasoningBlock,
  type ToolSpec,
  type Usage,
} from "./types";

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
const CACHE = { type: "ephemeral" } as const;

export interface AnthropicModelOptions extends SdkAdapterOptions {
  /** Extended thinking with this many tokens of budget (off when absent). */
  thinkingBudget?: number;
}

function parseInput(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // The model produced invalid JSON; the loop already told it so in the tool result.
  }
  return {};
}

type Turn = { role: "user" | "assistant"; content: ContentBlockParam[] };

/** Our messages in messages-API shape: same-role neighbours merged, empty turns dropped, cache breakpoints on the two latest user turns. */
export function toAnthropicMessages(
  messages: ChatMessage[],
  opts: { images?: boolean; thinking?: boolean } = {},
): MessageParam[] {
  const turns: Turn[] = [];
  const sent = imagesToSend(messages, opts.images === true);
  const push = (role: Turn["role"], blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const msg of messages) {
    if (msg.role === "user") {
      const images = sent.get(msg) ?? [];
      const text = withImageNote(msg, images, opts.images === true);
      push("user", [...images.map(imageBlock), { type: "text", text: text.trim() === "" ? "(empty message)" : text }]);
    } else if (msg.role === "tool") {
      push("user", [
        {
          type: "tool_result",
          tool_use_id: msg.toolCallId,
          content: toolResultContent(msg, sent.get(msg), opts.images === true),
          ...(msg.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      // With thinking on, the API wants the turn's thinking back first, signed and unchanged
      // (it is how a tool-use turn continues); without a signature (another model's reasoning) it must not go.
      const blocks: ContentBlockParam[] = opts.thinking ? thinkingBlocks(msg.reasoning) : [];
      // The API refuses empty or whitespace-only text blocks.
      if (msg.content.trim() !== "") blocks.push({ type: "text", text: msg.content });
      for (const c of msg.toolCalls ?? [])
        blocks.push({ type: "tool_use", id: c.id, name: c.name, input: parseInput(c.arguments) });
      push("assistant", blocks);
    }
  }
  let marked = 0;
  for (let i = turns.length - 1; i >= 0 && marked < 2; i--) {
    const turn = turns[i];
    if (turn?.role !== "user") continue;
    const lastBlock = turn.content[turn.content.length - 1];
    if (lastBlock && (lastBlock.type === "text" || lastBlock.type === "tool_result")) {
      lastBlock.cache_control = CACHE;
      marked++;
    }
  }
  return turns;
}

/** A tool result's text, and its images when the model takes them (tool results may hold image blocks). */
function toolResultContent(
  msg: Extract<ChatMessage, { role: "tool" }>,
  images: ImagePart[] | undefined,
  modelTakesImages: boolean,
): string | Array<TextBlockParam | ImageBlockParam> {
  const text = withImageNote(msg, images, modelTakesImages);
  if (!images?.length) return text;
  return [{ type: "text", text }, ...images.map(imageBlock)];
}

function imageBlock(image: ImagePart): ImageBlockParam {
  return {
    type: "image",
    source: { type: "base64", media_type: image.mimeType as Base64ImageSource["media_type"], data: image.data },
  };
}

function thinkingBlocks(reasoning: readonly ReasoningBlock[] | undefined): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  for (const block of reasoning ?? []) {
    if (block.redacted !== undefined) out.push({ type: "redacted_thinking", data: block.redacted });
    else if (block.signature) out.push({ type: "thinking", thinking: block.text, signature: block.signature });
  }
  return out;
}

export function toAnthropicTools(tools: ToolSpec[]): Tool[] {
  return tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: "object", ...t.parameters } as Tool["input_schema"],
    ...(i === tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
}

export function toAnthropicSystem(system: string): TextBlockParam[] | undefined {
  return system.trim() === "" ? undefined : [{ type: "text", text: system, cache_control: CACHE }];
}

export class AnthropicModel implements ChatModel {
  readonly provider = "anthropic" as const;
  readonly model: string;
  readonly acceptsImages: boolean;
  private readonly price: ModelPrice | undefined;
  readonly contextWindow: number;
  private readonly thinkingBudget: number | undefined;
  readonly baseUrl: string;
  /** Made at the first request: the client library loads only then (vendor/libraries.ts). */
  private clientInstance: Anthropic | undefined;
  private readonly clientOptions: ConstructorParameters<typeof Anthropic>[0];
  private readonly ctx: ErrorContext;
  private readonly retry: Partial<RetryOptions>;
  private readonly hasKey: boolean;

  constructor(opts: AnthropicModelOptions) {
    this.model = opts.model;
    this.acceptsImages = opts.acceptsImages ?? acceptsImages(opts.model);
    this.price = opts.price;
    this.thinkingBudget =
      opts.thinkingBudget && opts.thinkingBudget >= 1024 ? Math.floor(opts.thinkingBudget) : undefined;
    this.contextWindow = opts.contextWindow;
    // The SDK appends /v1/messages; accept a base URL given with /v1 too.
    this.baseUrl = (opts.baseUrl || ANTHROPIC_BASE_URL).replace(/\/+$/, "").replace(/\/v1$/, "");
    this.retry = opts.retry ?? {};
    this.hasKey = !!opts.apiKey;
    const { ctx, clientOptions } = sdkAdapterSetup("anthropic", opts, this.baseUrl);
    this.ctx = ctx;
    this.clientOptions = { ...clientOptions, openTelemetry: false };
  }

  private get client(): Anthropic {
    return (this.clientInstance ??= new (anthropicLib().Anthropic)(this.clientOptions));
  }

  costOf(usage: Usage): number | undefined {
    return this.price ? priceOf(this.price, usage) : costOf(this.model, usage);
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    if (!this.hasKey && this.baseUrl === ANTHROPIC_BASE_URL) {
      return failWith(new ModelError("auth", `No Anthropic API key is set. ${knobs(this.ctx).setKey}.`));
    }
    return withRetries((scope) => this.attempt(request, scope), this.ctx, request.signal, this.retry);
  }

  private body(request: ModelRequest): MessageCreateParamsStreaming {
    const system = toAnthropicSystem(request.system);
    const thinking = this.thinkingBudget;
    const maxTokens = request.maxOutputTokens ?? defaultMaxOutputTokens(this.model);
    return {
      model: this.model,
      // The thinking budget is part of max_tokens, which must stay above it.
      max_tokens: thinking ? Math.max(maxTokens, thinking + 1024) : maxTokens,
      ...(thinking ? { thinking: { type: "enabled", budget_tokens: thinking } } : {}),
      ...(system ? { system } : {}),
      messages: toAnthropicMessages(request.messages, { images: this.acceptsImages, thinking: thinking !== undefined }),
      ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
      stream: true,
    };
  }

  private async *attempt(request: ModelRequest, scope: AttemptScope): AsyncGenerator<ModelStreamEvent> {
    const stream = await this.client.messages.create(this.body(request), { signal: scope.signal });
    scope.touch();
    const turn = new TurnAccumulator();
    /** Content-block index → our tool-call index. */
    const callOfBlock = new Map<number, number>();
    const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    let stopReason: string | undefined;
    let stopped = false;

    for await (const ev of stream as AsyncIterable<RawMessageStreamEvent>) {
      scope.touch();
      switch (ev.type) {
        case "message_start": {
          const u = ev.message.usage;
          usage.inputTokens = u.input_tokens ?? 0;
          usage.outputTokens = u.output_tokens ?? 0;
          usage.cacheReadTokens = u.cache_read_input_tokens ?? 0;
          usage.cacheWriteTokens = u.cache_creation_input_tokens ?? 0;
          break;
        }
        case "content_block_start": {
          const block = ev.content_block;
          if (block.type === "text") yield* turn.addText(block.text);
          else if (block.type === "thinking")
            yield* turn.addReasoning(block.thinking, {
              newBlock: true,
              ...(block.signature ? { signature: block.signature } : {}),
            });
          else if (block.type === "redacted_thinking")
            yield* turn.addReasoning("", { newBlock: true, redacted: block.data });
          else if (block.type === "tool_use") callOfBlock.set(ev.index, yield* turn.startCall(block.id, block.name));
          break;
        }
        case "content_block_delta": {
          const d = ev.delta;
          if (d.type === "text_delta") yield* turn.addText(d.text);
          else if (d.type === "thinking_delta") yield* turn.addReasoning(d.thinking);
          else if (d.type === "signature_delta") yield* turn.addReasoning("", { signature: d.signature });
          else if (d.type === "input_json_delta") {
            const index = callOfBlock.get(ev.index);
            if (index !== undefined) yield* turn.addArguments(index, d.partial_json);
          }
          break;
        }
        case "content_block_stop": {
          const index = callOfBlock.get(ev.index);
          if (index !== undefined) yield* turn.endCall(index);
          break;
        }
        case "message_delta": {
          if (ev.delta.stop_reason) stopReason = ev.delta.stop_reason;
          const u = ev.usage;
          if (u) {
            usage.outputTokens = u.output_tokens ?? usage.outputTokens;
            if (u.input_tokens != null) usage.inputTokens = u.input_tokens;
            if (u.cache_read_input_tokens != null) usage.cacheReadTokens = u.cache_read_input_tokens;
            if (u.cache_creation_input_tokens != null) usage.cacheWriteTokens = u.cache_creation_input_tokens;
          }
          break;
        }
        case "message_stop":
          stopped = true;
          break;
        default:
          break;
      }
    }
    if (!stopped) throw new ModelError("network", "the stream ended before the model finished");
    yield turn.done(stopReason ?? "end_turn", usage, { requestChars: 0 });
  }
}
