/**
 * ChatModel over VS Code's Language Model API (`fathom.provider: "vscode"`): the models of
 * Copilot or of any extension that provides them. Tools go through the API's own tool calling;
 * tokens are counted by the model's own tokenizer (`countTokens`); VS Code asks the person's
 * consent on the first request, and a refusal becomes an error that says how to allow it.
 * The third adapter beside the OpenAI and Anthropic ones, on the same TurnAccumulator.
 */
import {
  imagesToSend,
  ModelError,
  priceOf,
  requestChars,
  TurnAccumulator,
  withImageNote,
  withRetries,
  type ChatMessage,
  type ChatModel,
  type ModelPrice,
  type ModelRequest,
  type ModelStreamEvent,
  type RetryOptions,
  type Usage,
} from "../../core";
import type { LmApi, LmChat } from "./lmApi";

export interface VscodeLmModelOptions {
  api: LmApi;
  chat: LmChat;
  /** Overrides of what the model says about itself. */
  contextWindow?: number;
  acceptsImages?: boolean;
  price?: ModelPrice;
  retry?: Partial<RetryOptions>;
}

/** Shown in VS Code's consent dialog. */
export const JUSTIFICATION =
  "Fathom, the coding agent in your side panel, sends your task, the files it reads and the output of the commands it runs to this model.";

export class VscodeLmModel implements ChatModel {
  readonly provider = "vscode" as const;
  readonly model: string;
  readonly contextWindow: number;
  readonly acceptsImages: boolean;
  private readonly api: LmApi;
  private readonly chat: LmChat;
  private readonly price: ModelPrice | undefined;
  private readonly retry: Partial<RetryOptions>;

  constructor(o: VscodeLmModelOptions) {
    this.api = o.api;
    this.chat = o.chat;
    this.model = o.chat.id;
    this.contextWindow = o.contextWindow ?? (o.chat.maxInputTokens > 0 ? o.chat.maxInputTokens : 128_000);
    this.acceptsImages =
      (o.acceptsImages ?? o.chat.capabilities?.supportsImageToText === true) && o.api.imagePart !== undefined;
    this.price = o.price;
    // VS Code's providers retry on their own; the consent dialog may keep the first request open a while.
    this.retry = { maxRetries: 1, streamIdleTimeoutMs: 10 * 60_000, ...o.retry };
  }

  /** Copilot's models are paid through a plan, not per token: no price unless the person set one. */
  costOf(usage: Usage): number | undefined {
    return this.price ? priceOf(this.price, usage) : undefined;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const ctx = { provider: "vscode" as const, model: this.model, baseUrl: `VS Code (${this.chat.vendor})` };
    return withRetries(
      (scope) => this.attempt(request, scope.signal, () => scope.touch()),
      ctx,
      request.signal,
      this.retry,
    );
  }

  private async *attempt(
    request: ModelRequest,
    signal: AbortSignal,
    touch: () => void,
  ): AsyncGenerator<ModelStreamEvent> {
    const messages = this.toMessages(request);
    const cancel = this.api.cancellation();
    const onAbort = () => cancel.cancel();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const turn = new TurnAccumulator();
      let response: { stream: AsyncIterable<unknown> };
      try {
        response = await this.chat.sendRequest(
          messages,
          {
            justification: JUSTIFICATION,
            ...(request.tools.length > 0
              ? {
                  tools: request.tools.map((t) => ({
                    name: t.name,
                    description: t.description,
                    inputSchema: t.parameters,
                  })),
                  toolMode: 1,
                }
              : {}),
          },
          cancel.token,
        );
      } catch (error) {
        throw this.toModelError(error);
      }
      touch();
      try {
        for await (const part of response.stream) {
          touch();
          const text = this.api.textOf(part);
          if (text !== undefined) {
            yield* turn.addText(text);
            continue;
          }
          const call = this.api.toolCallOf(part);
          if (call) yield* turn.startCall(call.callId, call.name, JSON.stringify(call.input ?? {}));
          // Other parts (data, thinking in newer VS Code) are not part of the answer.
        }
      } catch (error) {
        if (signal.aborted) throw error;
        throw this.toModelError(error);
      }
      // A cancelled request's stream just ends: that is no answer.
      if (signal.aborted) throw new ModelError("cancelled", "The request was cancelled.");
      const done = turn.done(turn.callCount > 0 ? "tool_use" : "end_turn", undefined, {
        requestChars: requestChars(request),
      });
      const counted = await this.countUsage(messages, done.message, cancel.token);
      yield counted ? { ...done, usage: counted, usageEstimated: undefined } : done;
    } finally {
      signal.removeEventListener("abort", onAbort);
      cancel.dispose();
    }
  }

  /** Tokens by the model's own tokenizer; undefined (the estimate stays) when it cannot count. */
  private async countUsage(
    messages: unknown[],
    answer: Extract<ChatMessage, { role: "assistant" }>,
    token: unknown,
  ): Promise<Usage | undefined> {
    try {
      const output = answer.content + (answer.toolCalls ?? []).map((c) => c.name + c.arguments).join("");
      const counts = await Promise.all([
        ...messages.map((m) => this.chat.countTokens(m, token as never)),
        this.chat.countTokens(output, token as never),
      ]);
      const outputTokens = counts.pop() ?? 0;
      return { inputTokens: counts.reduce((a, b) => a + b, 0), outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
    } catch {
      return undefined;
    }
  }

  /**
   * Our messages as the API's: the system prompt opens the first user message (the stable API
   * has no system role), tool results are user messages of result parts, and neighbours of the
   * same role are merged.
   */
  toMessages(request: Pick<ModelRequest, "system" | "messages">): unknown[] {
    const api = this.api;
    const sent = imagesToSend(request.messages, this.acceptsImages);
    const turns: { role: "user" | "assistant"; parts: unknown[] }[] = [];
    const push = (role: "user" | "assistant", parts: unknown[]) => {
      if (parts.length === 0) return;
      const last = turns[turns.length - 1];
      if (last?.role === role) last.parts.push(...parts);
      else turns.push({ role, parts });
    };
    if (request.system.trim()) push("user", [api.textPart(request.system)]);
    for (const msg of request.messages) {
      if (msg.role === "user") {
        const images = sent.get(msg) ?? [];
        push("user", [
          ...images.map((i) => this.image(i.data, i.mimeType)),
          api.textPart(withImageNote(msg, images, this.acceptsImages) || "(empty message)"),
        ]);
      } else if (msg.role === "tool") {
        const images = sent.get(msg) ?? [];
        push("user", [
          api.toolResultPart(msg.toolCallId, [
            api.textPart(withImageNote(msg, images, this.acceptsImages)),
            ...images.map((i) => this.image(i.data, i.mimeType)),
          ]),
        ]);
      } else {
        const parts: unknown[] = msg.content.trim() ? [api.textPart(msg.content)] : [];
        for (const call of msg.toolCalls ?? [])
          parts.push(api.toolCallPart(call.id, call.name, parseObject(call.arguments)));
        push("assistant", parts);
      }
    }
    return turns.map((t) => (t.role === "user" ? api.userMessage(t.parts) : api.assistantMessage(t.parts)));
  }

  private image(base64: string, mimeType: string): unknown {
    return this.api.imagePart!(Uint8Array.from(Buffer.from(base64, "base64")), mimeType);
  }

  /** What a refusal from VS Code or the model's provider means for the person. */
  private toModelError(error: unknown): ModelError {
    if (error instanceof ModelError) return error;
    const code = this.api.errorCode(error);
    const said = (error as Error)?.message ? `: ${(error as Error).message}` : "";
    const name = `${this.chat.name || this.model} (${this.chat.vendor})`;
    switch (code) {
      case "NoPermissions":
        return new ModelError(
          "auth",
          `VS Code did not give Fathom access to ${name}${said}. Send your message again and choose Allow when VS Code asks, or pick another model (Model, at the top of the chat).`,
          undefined,
          true,
        );
      case "Blocked":
        return new ModelError(
          "rate_limited",
          `${name} refused the request: blocked or over its quota${said}. Wait and try again, or pick another model.`,
          undefined,
          true,
        );
      case "NotFound":
        return new ModelError(
          "not_found",
          `${name} is no longer available in VS Code${said}. Pick another model (Model, at the top of the chat).`,
          undefined,
          true,
        );
      default:
        return new ModelError("unknown", `${name} failed${said}.`, undefined, true);
    }
  }
}

function parseObject(args: string): object {
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
