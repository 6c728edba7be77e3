/**
 * VS Code's Language Model API as a fake, for testing Fathom's `vscode` provider at its seam
 * (src/host/models/lmApi.ts): chat models that answer from a script with text and tool-call
 * parts, count tokens, and fail the way VS Code fails (LanguageModelError codes).
 */
import type { LmApi, LmChat, LmRequestOptions } from "../../src/host/models/lmApi";

export class Text {
  constructor(readonly value: string) {}
}
export class ToolCall {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
export class ToolResult {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}
export class Data {
  constructor(
    readonly data: Uint8Array,
    readonly mimeType: string,
  ) {}
}
export class Message {
  constructor(
    readonly role: "user" | "assistant",
    readonly content: unknown[],
  ) {}
}
export class LmError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One scripted answer: text pieces and tool calls, or an error (at request time or mid-stream). */
export type LmTurn =
  | { text?: string[]; toolCalls?: { callId: string; name: string; input: object }[] }
  | { error: LmError; midStream?: boolean };

export interface LmRequest {
  model: string;
  messages: Message[];
  options: LmRequestOptions | undefined;
}

export class FakeChat implements LmChat {
  readonly requests: LmRequest[] = [];
  countCalls = 0;
  constructor(
    readonly id: string,
    private readonly script: LmTurn[],
    readonly vendor = "fake",
    readonly maxInputTokens = 64_000,
    readonly capabilities: LmChat["capabilities"] = { supportsImageToText: false, supportsToolCalling: true },
    readonly name = id,
  ) {}
  readonly family = "fake-family";
  readonly version = "1";

  async sendRequest(
    messages: unknown[],
    options?: LmRequestOptions,
    token?: { isCancellationRequested: boolean; onCancellationRequested(f: () => void): unknown },
  ) {
    this.requests.push({ model: this.id, messages: messages as Message[], options });
    const turn = this.script.shift() ?? { error: new LmError("Unknown", "script exhausted") };
    if ("error" in turn && !turn.midStream) throw turn.error;
    async function* stream() {
      if ("error" in turn) {
        yield new Text("partial ");
        throw turn.error;
      }
      for (const piece of turn.text ?? []) {
        if (token?.isCancellationRequested) return;
        await new Promise((r) => setImmediate(r));
        yield new Text(piece);
      }
      for (const call of turn.toolCalls ?? []) yield new ToolCall(call.callId, call.name, call.input);
    }
    return { stream: stream() };
  }

  /** A stand-in tokenizer: a token per four characters of every text in it. */
  async countTokens(text: string | unknown): Promise<number> {
    this.countCalls++;
    return Math.ceil(JSON.stringify(text).length / 4);
  }
}

export function fakeLmApi(chats: FakeChat[], opts: { images?: boolean } = {}): LmApi & { cancelled: number } {
  const api = {
    cancelled: 0,
    selectChatModels: async (selector?: { vendor?: string; id?: string }) =>
      chats.filter(
        (c) => (!selector?.vendor || c.vendor === selector.vendor) && (!selector?.id || c.id === selector.id),
      ),
    userMessage: (parts: unknown[]) => new Message("user", parts),
    assistantMessage: (parts: unknown[]) => new Message("assistant", parts),
    textPart: (v: string) => new Text(v),
    toolCallPart: (id: string, name: string, input: object) => new ToolCall(id, name, input),
    toolResultPart: (id: string, content: unknown[]) => new ToolResult(id, content),
    ...(opts.images === false ? {} : { imagePart: (data: Uint8Array, mime: string) => new Data(data, mime) }),
    textOf: (part: unknown) => (part instanceof Text ? part.value : undefined),
    toolCallOf: (part: unknown) => (part instanceof ToolCall ? part : undefined),
    errorCode: (e: unknown) => (e instanceof LmError ? e.code : undefined),
    cancellation() {
      const listeners: (() => void)[] = [];
      const token = {
        isCancellationRequested: false,
        onCancellationRequested: (f: () => void) => {
          listeners.push(f);
          return { dispose() {} };
        },
      };
      return {
        token: token as never,
        cancel: () => {
          token.isCancellationRequested = true;
          api.cancelled++;
          for (const f of listeners) f();
        },
        dispose() {},
      };
    },
  };
  return api;
}
