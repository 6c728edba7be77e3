/**
 * What every adapter does while a turn streams in, whatever the wire: collect the text, the
 * reasoning and the tool calls, hand each piece on as a ModelStreamEvent, and assemble the
 * final `done`. The adapters (OpenAI, Anthropic, VS Code's language models) only translate
 * their wire's events into calls on this.
 */
import type { ModelStreamEvent, ReasoningBlock, ToolCall, Usage } from "./types";

type Done = Extract<ModelStreamEvent, { type: "done" }>;

export interface TurnAccumulatorOptions {
  /**
   * Text that opens with `<think>` (Qwen3, DeepSeek-R1 and other local models without a
   * reasoning parser) is reasoning until `</think>`, not answer.
   */
  thinkTags?: boolean;
}

const OPEN_THINK = "<think>";
const CLOSE_THINK = "</think>";

export class TurnAccumulator {
  private text = "";
  private readonly calls: ToolCall[] = [];
  private readonly reasoning: ReasoningBlock[] = [];
  /** `<think>` handling: undecided (the first characters may still open a tag), inside, or done. */
  private think: "undecided" | "inside" | "done";
  private held = "";
  /** Just after `</think>`: the blank lines before the answer are not part of it. */
  private trimLead = false;

  constructor(options: TurnAccumulatorOptions = {}) {
    this.think = options.thinkTags ? "undecided" : "done";
  }

  get callCount(): number {
    return this.calls.length;
  }

  callAt(index: number): ToolCall | undefined {
    return this.calls[index];
  }

  /** Answer text. */
  *addText(delta: string): Generator<ModelStreamEvent> {
    if (this.trimLead) {
      delta = delta.replace(/^\s+/, "");
      if (delta !== "") this.trimLead = false;
    }
    if (delta === "") return;
    if (this.think === "done") {
      this.text += delta;
      yield { type: "text_delta", text: delta };
      return;
    }
    yield* this.thinkTagText(delta);
  }

  /** Reasoning text; `signature` and `redacted` come from Anthropic and are needed to send it back there. */
  *addReasoning(
    delta: string,
    block: { signature?: string; redacted?: string; newBlock?: boolean } = {},
  ): Generator<ModelStreamEvent> {
    let last = this.reasoning[this.reasoning.length - 1];
    if (!last || block.newBlock) {
      last = { text: "" };
      this.reasoning.push(last);
    }
    if (block.signature) last.signature = (last.signature ?? "") + block.signature;
    if (block.redacted !== undefined) last.redacted = block.redacted;
    if (delta === "") return;
    last.text += delta;
    yield { type: "reasoning_delta", text: delta };
  }

  /** Starts a tool call; returns its index (what `addArguments` takes). */
  *startCall(id: string | undefined, name: string, args = ""): Generator<ModelStreamEvent, number> {
    const index = this.calls.length;
    const callId = id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`;
    this.calls.push({ id: callId, name, arguments: args });
    yield { type: "tool_call_start", index, id: callId, name };
    if (args) yield { type: "tool_call_delta", index, argumentsDelta: args };
    return index;
  }

  *addArguments(index: number, delta: string): Generator<ModelStreamEvent> {
    const call = this.calls[index];
    if (!call || delta === "") return;
    call.arguments += delta;
    yield { type: "tool_call_delta", index, argumentsDelta: delta };
  }

  /** A call that streamed no arguments at all means `{}`. */
  *endCall(index: number): Generator<ModelStreamEvent> {
    const call = this.calls[index];
    if (call && call.arguments === "") yield* this.addArguments(index, "{}");
  }

  /**
   * The turn's end. Without usage from the server, tokens are estimated from characters (about
   * four to a token) so the context meter and budgets still move, and `usageEstimated` says so.
   */
  done(stopReason: string, usage: Usage | undefined, estimate: { requestChars: number }): Done {
    // An unclosed `<think>` at the end: what was held is the answer after all.
    if (this.think === "undecided" && this.held) {
      this.text += this.held;
      this.held = "";
    }
    const message: Done["message"] = {
      role: "assistant",
      content: this.text,
      ...(this.calls.length > 0 ? { toolCalls: this.calls } : {}),
      ...(this.reasoning.some((r) => r.text || r.redacted) ? { reasoning: this.reasoning } : {}),
    };
    if (usage) return { type: "done", message, usage, stopReason };
    const produced =
      this.text.length +
      this.reasoning.reduce((n, r) => n + r.text.length, 0) +
      this.calls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
    return {
      type: "done",
      message,
      usage: {
        inputTokens: Math.ceil(estimate.requestChars / 4),
        outputTokens: Math.ceil(produced / 4),
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      },
      stopReason,
      usageEstimated: true,
    };
  }

  /** Text that gets the `<think>` treatment: leading `<think>…</think>` goes to reasoning. */
  private *thinkTagText(delta: string): Generator<ModelStreamEvent> {
    if (this.think === "undecided") {
      this.held += delta;
      const start = this.held.trimStart();
      if (start.length < OPEN_THINK.length && OPEN_THINK.startsWith(start)) return; // may still open a tag
      if (!start.startsWith(OPEN_THINK)) {
        this.think = "done";
        const text = this.held;
        this.held = "";
        this.text += text;
        yield { type: "text_delta", text };
        return;
      }
      this.think = "inside";
      delta = start.slice(OPEN_THINK.length);
      this.held = "";
    }
    // Inside: hold back a tail that may be the start of the closing tag.
    const buffer = this.held + delta;
    const close = buffer.indexOf(CLOSE_THINK);
    if (close >= 0) {
      this.held = "";
      yield* this.addReasoning(buffer.slice(0, close));
      this.think = "done";
      this.trimLead = true;
      yield* this.addText(buffer.slice(close + CLOSE_THINK.length));
      return;
    }
    let keep = 0;
    for (let n = Math.min(CLOSE_THINK.length - 1, buffer.length); n > 0; n--) {
      if (CLOSE_THINK.startsWith(buffer.slice(buffer.length - n))) {
        keep = n;
        break;
      }
    }
    this.held = buffer.slice(buffer.length - keep);
    yield* this.addReasoning(buffer.slice(0, buffer.length - keep));
  }
}

/** Characters of a request (system, messages, tools), for estimating tokens when a server reports none. */
export function requestChars(request: {
  system: string;
  messages: readonly { content: string }[];
  tools: readonly unknown[];
}): number {
  let n = request.system.length + JSON.stringify(request.tools).length;
  for (const m of request.messages)
    n +=
      m.content.length + ("toolCalls" in m ? JSON.stringify((m as { toolCalls?: unknown }).toolCalls ?? "").length : 0);
  return n;
}
