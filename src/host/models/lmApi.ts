/**
 * The part of VS Code's Language Model API Fathom uses, as a small interface: the adapter is
 * written against it (and tested with a fake), and `lmApiFromVscode` fills it from the real
 * `vscode` module. The types are declared here because Fathom supports VS Code from 1.93, whose
 * typings predate tool calling in this API; each piece is checked for at run time instead.
 */
import * as vscode from "vscode";

/** What Fathom reads of a `vscode.LanguageModelChat`. */
export interface LmChat {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  /** Not in the stable typings, but VS Code fills it; undefined when it does not. */
  readonly capabilities?: { readonly supportsImageToText?: boolean; readonly supportsToolCalling?: boolean };
  sendRequest(
    messages: unknown[],
    options?: LmRequestOptions,
    token?: vscode.CancellationToken,
  ): Thenable<{ stream: AsyncIterable<unknown> }>;
  countTokens(text: string | unknown, token?: vscode.CancellationToken): Thenable<number>;
}

export interface LmRequestOptions {
  justification?: string;
  tools?: { name: string; description: string; inputSchema?: object }[];
  /** 1: the model chooses (Auto). */
  toolMode?: number;
}

export interface LmApi {
  selectChatModels(selector?: { vendor?: string; id?: string }): Thenable<LmChat[]>;
  onDidChangeChatModels?: vscode.Event<void>;
  userMessage(parts: unknown[]): unknown;
  assistantMessage(parts: unknown[]): unknown;
  textPart(value: string): unknown;
  toolCallPart(callId: string, name: string, input: object): unknown;
  toolResultPart(callId: string, content: unknown[]): unknown;
  /** Absent before VS Code had data parts: images are then not sent. */
  imagePart?(data: Uint8Array, mimeType: string): unknown;
  /** The text of a text part, or undefined. */
  textOf(part: unknown): string | undefined;
  /** A tool-call part's fields, or undefined. */
  toolCallOf(part: unknown): { callId: string; name: string; input: object } | undefined;
  /** A LanguageModelError's code (NoPermissions, Blocked, NotFound, …), or undefined. */
  errorCode(error: unknown): string | undefined;
  /** A cancellation token for one request, cancelled with `cancel`. */
  cancellation(): { token: vscode.CancellationToken; cancel(): void; dispose(): void };
}

/** Loose access to the parts of `vscode` newer than our typings. */
type Ctor = new (...args: never[]) => object;
interface NewerVscode {
  lm?: { selectChatModels?: LmApi["selectChatModels"]; onDidChangeChatModels?: vscode.Event<void> };
  LanguageModelChatMessage?: { User(content: unknown[]): unknown; Assistant(content: unknown[]): unknown };
  LanguageModelTextPart?: Ctor;
  LanguageModelToolCallPart?: Ctor;
  LanguageModelToolResultPart?: Ctor;
  LanguageModelDataPart?: Ctor & { image?(data: Uint8Array, mime: string): unknown };
  LanguageModelError?: Ctor;
}

/** The API of this VS Code, or a sentence saying what it lacks. */
export function lmApiFromVscode(): LmApi | string {
  const v = vscode as unknown as NewerVscode;
  const select = v.lm?.selectChatModels;
  const {
    LanguageModelChatMessage: Message,
    LanguageModelTextPart: Text,
    LanguageModelToolCallPart: ToolCall,
    LanguageModelToolResultPart: ToolResult,
    LanguageModelDataPart: Data,
  } = v;
  if (!select || !Message || !Text || !ToolCall || !ToolResult) {
    return `This VS Code (${vscode.version}) has no tool calling in its Language Model API; VS Code 1.95 or later does. Update VS Code, or pick another provider (fathom.provider).`;
  }
  const make = <T>(C: Ctor, ...args: unknown[]) => new (C as unknown as new (...a: unknown[]) => T)(...args);
  return {
    selectChatModels: (selector) => select.call(v.lm, selector),
    ...(v.lm?.onDidChangeChatModels ? { onDidChangeChatModels: v.lm.onDidChangeChatModels } : {}),
    userMessage: (parts) => Message.User(parts),
    assistantMessage: (parts) => Message.Assistant(parts),
    textPart: (value) => make(Text, value),
    toolCallPart: (callId, name, input) => make(ToolCall, callId, name, input),
    toolResultPart: (callId, content) => make(ToolResult, callId, content),
    ...(Data?.image ? { imagePart: (data: Uint8Array, mime: string) => Data.image!(data, mime) } : {}),
    textOf: (part) => (part instanceof Text ? String((part as { value: unknown }).value) : undefined),
    toolCallOf: (part) =>
      part instanceof ToolCall ? (part as { callId: string; name: string; input: object }) : undefined,
    cancellation: () => new vscode.CancellationTokenSource(),
    errorCode: (error) => {
      if (v.LanguageModelError && error instanceof v.LanguageModelError)
        return String((error as { code?: unknown }).code ?? "Unknown");
      const code = (error as { code?: unknown } | null)?.code;
      return typeof code === "string" ? code : undefined;
    },
  };
}
