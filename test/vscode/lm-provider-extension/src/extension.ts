// Test-only extension: a language model chat provider on VS Code's stable provider API
// (`vscode.lm.registerLanguageModelChatProvider` and the `languageModelChatProviders`
// contribution, VS Code 1.104+). Its models answer from a script that tests set with the
// command `fathomTestLm.setScript`; every request it got (messages, tools) is returned by
// `fathomTestLm.requests`. The typings Fathom builds with (1.93) predate this API, so it is
// reached through the small types below.
import * as vscode from "vscode";

/** One scripted answer: text pieces, then tool calls; or a failure. */
export interface LmTurn {
  text?: string[];
  toolCalls?: { callId: string; name: string; input: object }[];
  /** Throws this (a LanguageModelError code, e.g. "NoPermissions", or any message). */
  error?: string;
}

/** A request as recorded: each message's role and parts in plain JSON. */
export interface LmRecordedRequest {
  model: string;
  tools: string[];
  toolMode: number | undefined;
  messages: { role: "user" | "assistant"; parts: RecordedPart[] }[];
}
export type RecordedPart =
  | { kind: "text"; value: string }
  | { kind: "toolCall"; callId: string; name: string; input: unknown }
  | { kind: "toolResult"; callId: string; text: string }
  | { kind: "data"; mimeType: string; bytes: number }
  | { kind: "other" };

interface ModelInfo {
  id: string;
  name: string;
  family: string;
  version: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { imageInput?: boolean; toolCalling?: boolean | number };
}
interface RequestMessage {
  role: number;
  content: readonly unknown[];
}
type Ctor = new (...args: never[]) => object;
interface Lm {
  registerLanguageModelChatProvider(vendor: string, provider: object): vscode.Disposable;
}
interface Parts {
  LanguageModelTextPart: Ctor & (new (value: string) => object);
  LanguageModelToolCallPart: Ctor & (new (callId: string, name: string, input: object) => object);
  LanguageModelToolResultPart: Ctor;
  LanguageModelDataPart?: Ctor;
  LanguageModelError: { NoPermissions(m?: string): Error; Blocked(m?: string): Error; NotFound(m?: string): Error };
}

const MODELS: ModelInfo[] = [
  {
    id: "fathom-test-model",
    name: "Fathom Test Model",
    family: "fathom-test",
    version: "1",
    maxInputTokens: 32_000,
    maxOutputTokens: 4_000,
    capabilities: { toolCalling: true },
  },
  {
    id: "fathom-test-vision",
    name: "Fathom Test Vision",
    family: "fathom-test",
    version: "1",
    maxInputTokens: 64_000,
    maxOutputTokens: 4_000,
    capabilities: { toolCalling: true, imageInput: true },
  },
];

export function activate(context: vscode.ExtensionContext): void {
  const v = vscode as unknown as Parts & { lm: Lm };
  const script: LmTurn[] = [];
  const requests: LmRecordedRequest[] = [];

  const record = (
    model: ModelInfo,
    messages: readonly RequestMessage[],
    options: { tools?: readonly { name: string }[]; toolMode?: number },
  ): LmRecordedRequest => ({
    model: model.id,
    tools: (options.tools ?? []).map((t) => t.name),
    toolMode: options.toolMode,
    messages: messages.map((m) => ({ role: m.role === 1 ? "user" : "assistant", parts: m.content.map(recordPart) })),
  });
  const recordPart = (part: unknown): RecordedPart => {
    if (part instanceof v.LanguageModelTextPart) return { kind: "text", value: (part as { value: string }).value };
    if (part instanceof v.LanguageModelToolCallPart) {
      const p = part as { callId: string; name: string; input: unknown };
      return { kind: "toolCall", callId: p.callId, name: p.name, input: p.input };
    }
    if (part instanceof v.LanguageModelToolResultPart) {
      const p = part as { callId: string; content: unknown[] };
      return {
        kind: "toolResult",
        callId: p.callId,
        text: p.content
          .map((c) => (c instanceof v.LanguageModelTextPart ? (c as { value: string }).value : ""))
          .join(""),
      };
    }
    if (v.LanguageModelDataPart && part instanceof v.LanguageModelDataPart) {
      const p = part as { mimeType: string; data: Uint8Array };
      return { kind: "data", mimeType: p.mimeType, bytes: p.data.byteLength };
    }
    return { kind: "other" };
  };

  const provider = {
    provideLanguageModelChatInformation: () => MODELS,
    async provideLanguageModelChatResponse(
      model: ModelInfo,
      messages: readonly RequestMessage[],
      options: { tools?: readonly { name: string }[]; toolMode?: number },
      progress: vscode.Progress<unknown>,
      token: vscode.CancellationToken,
    ): Promise<void> {
      requests.push(record(model, messages, options));
      const turn = script.shift();
      if (!turn) throw new Error(`fathom-test: no scripted answer for request ${requests.length}`);
      if (turn.error) {
        const make = (v.LanguageModelError as unknown as Record<string, ((m?: string) => Error) | undefined>)[
          turn.error
        ];
        throw make ? make.call(v.LanguageModelError, `fathom-test: ${turn.error}`) : new Error(turn.error);
      }
      for (const piece of turn.text ?? []) {
        if (token.isCancellationRequested) return;
        progress.report(new v.LanguageModelTextPart(piece));
        await new Promise((r) => setTimeout(r, 5));
      }
      for (const call of turn.toolCalls ?? [])
        progress.report(new v.LanguageModelToolCallPart(call.callId, call.name, call.input));
    },
    /** A stand-in tokenizer: a token per four characters. */
    provideTokenCount: async (_model: ModelInfo, text: string | RequestMessage) =>
      Math.ceil((typeof text === "string" ? text : JSON.stringify(text.content.map(recordPart))).length / 4),
  };

  context.subscriptions.push(
    v.lm.registerLanguageModelChatProvider("fathom-test", provider),
    vscode.commands.registerCommand("fathomTestLm.setScript", (turns: LmTurn[]) => {
      script.length = 0;
      requests.length = 0;
      script.push(...turns);
    }),
    vscode.commands.registerCommand("fathomTestLm.requests", () => structuredClone(requests)),
    vscode.commands.registerCommand("fathomTestLm.pending", () => script.length),
  );
}

export function deactivate(): void {}
