/**
 * An in-process scripted ChatModel for unit tests: no HTTP. Each call plays the next turn.
 */
import {
  ModelError,
  type ChatModel,
  type ModelRequest,
  type ModelStreamEvent,
  type ToolCall,
  type Usage,
} from "../../src/core/model/types";

export interface FakeToolCall {
  name: string;
  /** A string is sent verbatim (may be invalid JSON); an object is JSON-encoded. */
  arguments?: string | Record<string, unknown>;
  id?: string;
}

export type FakeTurn =
  /** `chunks`: the text streamed in these pieces (instead of `text` at once). */
  | { text?: string; chunks?: string[]; toolCalls?: FakeToolCall[]; usage?: Partial<Usage>; delayMs?: number }
  | { error: ModelError }
  /** Streams `text`, then waits until the request is aborted (to test cancel). */
  | { hang: true; text?: string };

export type FakeScript = FakeTurn | ((request: ModelRequest, index: number) => FakeTurn);

export interface RecordedCall {
  system: string;
  messages: ModelRequest["messages"];
  toolNames: string[];
}

export class FakeModel implements ChatModel {
  readonly provider = "scripted" as const;
  readonly requests: RecordedCall[] = [];
  private next = 0;
  private ids = 0;

  constructor(
    private readonly script: FakeScript[],
    readonly model = "fake-model",
    readonly contextWindow = 100_000,
  ) {}

  get remaining(): number {
    return this.script.length - this.next;
  }

  push(...turns: FakeScript[]): void {
    this.script.push(...turns);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.requests.push({
      system: request.system,
      messages: structuredClone(request.messages),
      toolNames: request.tools.map((t) => t.name),
    });
    const index = this.next++;
    const entry = this.script[index];
    if (entry === undefined) throw new ModelError("bad_request", `FakeModel: no scripted turn ${index}`);
    const turn = typeof entry === "function" ? entry(request, index) : entry;
    if ("error" in turn) throw turn.error;
    if ("hang" in turn) {
      if (turn.text) yield { type: "text_delta", text: turn.text };
      await new Promise<void>((resolve) => {
        if (request.signal?.aborted) resolve();
        request.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      throw new ModelError("cancelled", "cancelled");
    }
    if (turn.delayMs) await new Promise((r) => setTimeout(r, turn.delayMs));
    if (turn.chunks) for (const text of turn.chunks) yield { type: "text_delta", text };
    else if (turn.text) yield { type: "text_delta", text: turn.text };
    const calls: ToolCall[] = [];
    for (const [i, call] of (turn.toolCalls ?? []).entries()) {
      const id = call.id ?? `fake_${++this.ids}`;
      const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {});
      yield { type: "tool_call_start", index: i, id, name: call.name };
      yield { type: "tool_call_delta", index: i, argumentsDelta: args };
      calls.push({ id, name: call.name, arguments: args });
    }
    const usage: Usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, ...turn.usage };
    yield {
      type: "done",
      message: {
        role: "assistant",
        content: turn.chunks?.join("") ?? turn.text ?? "",
        ...(calls.length ? { toolCalls: calls } : {}),
      },
      usage,
      stopReason: calls.length ? "tool_use" : "end_turn",
    };
  }
}

/** Every tool call in the transcript has exactly one result, right after its assistant message. */
export function assertWellFormed(messages: ModelRequest["messages"]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.toolCalls?.length) continue;
    const ids = m.toolCalls.map((c) => c.id);
    const results = [];
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === "tool"; j++)
      results.push((messages[j] as { toolCallId: string }).toolCallId);
    if (JSON.stringify(results) !== JSON.stringify(ids)) {
      throw new Error(
        `tool results ${JSON.stringify(results)} do not match calls ${JSON.stringify(ids)} at message ${i}`,
      );
    }
  }
  const orphan = messages.findIndex(
    (m, i) => m.role === "tool" && messages[i - 1]?.role !== "tool" && messages[i - 1]?.role !== "assistant",
  );
  if (orphan >= 0) throw new Error(`orphan tool result at ${orphan}`);
}
