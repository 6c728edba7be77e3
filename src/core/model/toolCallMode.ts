/**
 * How a model gets its tools and gives its calls back, around any adapter:
 * - `native` (default): tools go in the request's own field, every time. If the answer has no
 *   native call but its text holds a well-formed call of a known tool, that call is run (and
 *   said). If the server refuses tools altogether ("does not support tools"), the model
 *   switches to `text` for the rest of its life (and says so).
 * - `text`: tools are described in the system prompt; calls come back as `<tool_call>` text.
 * - `none`: no tools; the model only answers.
 */
import { WrappedModel } from "./wrappedModel";
import { extractTextToolCalls, textToolPrompt, toTextToolMessages } from "./textToolCalls";
import { ModelError, type ChatModel, type ModelRequest, type ModelStreamEvent } from "./types";

export type ToolCallMode = "native" | "text" | "none";

/** What servers say when they have no native tool calling (Ollama, llama.cpp without --jinja, vLLM without a parser). */
const NO_NATIVE_TOOLS = /does not support tools|tools? (?:are|is) not supported|not support(?:ed)? (?:function|tool)|requires --jinja|--enable-auto-tool-choice|tool[_ ]choice.{0,40}(?:not supported|requires)|unknown (?:field|parameter|argument).{0,20}tools/i;

type Done = Extract<ModelStreamEvent, { type: "done" }>;

export class ToolCallModeModel extends WrappedModel {
  constructor(
    readonly inner: ChatModel,
    private mode: ToolCallMode,
  ) {
    super();
  }

  /** The mode in use now (`native` may have become `text`). */
  get toolCallMode(): ToolCallMode {
    return this.mode;
  }


  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    if (this.mode !== "native" || request.tools.length === 0) return yield* this.viaText(request);
    try {
      yield* this.withTextFallback(this.inner.stream(request), request);
    } catch (error) {
      if (!(error instanceof ModelError && error.kind === "bad_request" && NO_NATIVE_TOOLS.test(error.message))) throw error;
      this.mode = "text";
      yield {
        type: "notice",
        code: "tools_as_text",
        message: `${this.inner.model} has no native tool calling here (${error.message.replace(/\s+/g, " ").slice(0, 160)}). Its tools now go in the prompt and its calls are read from its text.`,
      };
      yield* this.viaText(request);
    }
  }

  /** `text` and `none`: no tools field; earlier calls and results as text. */
  private async *viaText(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const textual: ModelRequest = {
      ...request,
      system: this.mode === "text" ? [request.system, textToolPrompt(request.tools)].filter((s) => s.trim()).join("\n\n") : request.system,
      messages: toTextToolMessages(request.messages),
      tools: [],
    };
    if (this.mode === "none") return yield* this.inner.stream(textual);
    yield* this.withTextFallback(this.inner.stream(textual), request);
  }

  /** Passes the stream on; at its end, calls written in the text become real calls when no native one came. */
  private async *withTextFallback(stream: AsyncIterable<ModelStreamEvent>, request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    for await (const event of stream) {
      if (event.type !== "done" || event.message.toolCalls?.length) {
        yield event;
        continue;
      }
      const found = extractTextToolCalls(event.message.content, new Set(request.tools.map((t) => t.name)));
      if (!found) {
        yield event;
        continue;
      }
      yield { type: "text_reset", text: found.text };
      const names = found.calls.map((c) => c.name).join(", ");
      yield {
        type: "notice",
        code: "text_tool_calls",
        message: this.mode === "text" ? `Ran ${names}, written as text by ${this.inner.model} (tools are sent in the prompt).` : `Ran ${names}, which ${this.inner.model} wrote as text instead of a native tool call.`,
      };
      for (const [index, call] of found.calls.entries()) {
        yield { type: "tool_call_start", index, id: call.id, name: call.name };
        yield { type: "tool_call_delta", index, argumentsDelta: call.arguments };
      }
      const done: Done = { ...event, message: { ...event.message, content: found.text, toolCalls: found.calls }, stopReason: "tool_use" };
      yield done;
    }
  }
}

export function withToolCallMode(model: ChatModel, mode: ToolCallMode = "native"): ToolCallModeModel {
  return new ToolCallModeModel(model, mode);
}
