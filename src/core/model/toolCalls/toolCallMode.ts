/**
 * How a model gets its tools and gives its calls back, around any adapter:
 * - `native`: tools go in the request's own field, every time. If the answer has no native call
 *   but its text holds a well-formed call of a known tool, that call is run (and said). If the
 *   server refuses tools altogether ("does not support tools"), `text` is used from then on.
 * - `text`: tools are described in the system prompt; calls come back as `<tool_call>` text.
 * - `none`: no tools; the model only answers.
 * - `constrained`: each turn asks for exactly one JSON object valid against the union of the
 *   offered tools' argument schemas plus a final `answer` (constrainedTurn.ts), which local
 *   servers enforce with a grammar from the first token. A server that refuses the schema (400)
 *   or ignores it (the reply is not of its shape) gets `native` from then on.
 * Unset, the mode is chosen by modelFit.ts (constrained for small models, native otherwise).
 * A mode a server refused is remembered for the process, per server and model, and said once.
 */
import { streamConstrained } from "./constrainedTurn";
import { decideFit } from "../fit/modelFit";
import type { ModelProbe } from "../fit/modelFit";
import { extractTextToolCalls, textToolPrompt, toTextToolMessages } from "./textToolCalls";
import { lessonsFor, type ToolCallLessons } from "./toolCallMemory";
import { WrappedModel } from "../wrappedModel";
import {
  ModelError,
  type AgentProfile,
  type ChatModel,
  type ModelFit,
  type ModelRequest,
  type ModelStreamEvent,
  type Sampling,
  type ToolCallMode,
} from "../types";

export type { ToolCallMode } from "../types";

/** What servers say when they have no native tool calling (Ollama, llama.cpp without --jinja, vLLM without a parser). */
const NO_NATIVE_TOOLS =
  /does not support tools|tools? (?:are|is) not supported|not support(?:ed)? (?:function|tool)|requires --jinja|--enable-auto-tool-choice|tool[_ ]choice.{0,40}(?:not supported|requires)|unknown (?:field|parameter|argument).{0,20}tools/i;
/** What servers say when they refuse a reply schema or the sampling fields sent with it. */
const NO_SCHEMA =
  /response_format|json_schema|json schema|grammar|\bschema\b|\bstrict\b|temperature|\bseed\b|unrecognized request argument|unknown (?:field|parameter|argument)|extra (?:inputs|fields) are not permitted/i;
/** Where a refused mode goes. */
const NEXT_MODE: Partial<Record<ToolCallMode, ToolCallMode>> = { constrained: "native", native: "text" };

type Done = Extract<ModelStreamEvent, { type: "done" }>;

export interface ToolCallOptions {
  /** The person's choice; undefined: modelFit.ts decides at the first request. */
  mode?: ToolCallMode;
  profile?: AgentProfile;
  /** Sent with every request when set (and with constrained turns, greedy by default). */
  sampling?: Sampling;
  /** A context window the person set. */
  contextWindow?: number;
  /** Provider, base URL and model: what lessons are remembered under. */
  key?: string;
  /** Asks the server how big the model is (local OpenAI-compatible servers). */
  probe?: ModelProbe;
}

export class ToolCallModeModel extends WrappedModel {
  private readonly lessons: ToolCallLessons;
  private decided: ToolCallMode | undefined;
  private fitted: Promise<ModelFit> | undefined;

  constructor(
    readonly inner: ChatModel,
    private readonly options: ToolCallOptions = {},
  ) {
    super();
    this.lessons = lessonsFor(options.key);
  }

  /** The mode in use now (a refused one has moved on to the next). */
  get toolCallMode(): ToolCallMode {
    let mode = this.options.mode ?? this.decided ?? "native";
    while (this.lessons.refused?.has(mode) && NEXT_MODE[mode]) mode = NEXT_MODE[mode]!;
    return mode;
  }

  override fit(): Promise<ModelFit> {
    return (this.fitted ??= this.decide());
  }

  private async decide(): Promise<ModelFit> {
    const probe = this.options.probe;
    const fit = await decideFit(
      { model: this.inner.model },
      {
        ...(this.options.mode ? { toolCallMode: this.options.mode } : {}),
        ...(this.options.profile ? { profile: this.options.profile } : {}),
        ...(this.options.contextWindow ? { contextWindow: this.options.contextWindow } : {}),
      },
      probe ? () => (this.lessons.probed ??= probe()) : undefined,
    );
    this.decided = fit.toolCallMode;
    const now = this.toolCallMode;
    return now === fit.toolCallMode
      ? fit
      : {
          ...fit,
          toolCallMode: now,
          reason: `${fit.reason}; ${now} tool calls since this server refused ${fit.toolCallMode}`,
        };
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    if (this.options.mode === undefined && this.decided === undefined) await this.fit();
    const mode = this.toolCallMode;
    if (mode === "constrained" && request.tools.length > 0) return yield* this.constrained(request);
    const sampled = this.options.sampling
      ? { ...request, sampling: { ...this.options.sampling, ...request.sampling } }
      : request;
    if (mode !== "native" || request.tools.length === 0) return yield* this.viaText(sampled, mode);
    try {
      yield* this.withTextFallback(this.inner.stream(sampled), request);
    } catch (error) {
      if (!(error instanceof ModelError && error.kind === "bad_request" && NO_NATIVE_TOOLS.test(error.message)))
        throw error;
      this.refuse("native");
      yield {
        type: "notice",
        code: "tools_as_text",
        message: `${this.inner.model} has no native tool calling here (${oneLine(error.message)}). Its tools now go in the prompt and its calls are read from its text.`,
      };
      yield* this.viaText(sampled, "text");
    }
  }

  private refuse(mode: ToolCallMode): void {
    (this.lessons.refused ??= new Set()).add(mode);
  }

  /** One schema-held turn; a server that refuses or ignores the schema moves this model to `native`, said once. */
  private async *constrained(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    let why: string;
    try {
      const verdict = yield* streamConstrained(this.inner, request, this.options.sampling ?? {}, {
        honoured: this.lessons.honoursSchema === true,
        onRead: (exact) => {
          if (exact) this.lessons.honoursSchema = true;
        },
      });
      if (verdict.kind === "read") return;
      why = `its reply did not follow the reply schema (response_format was ignored): "${oneLine(verdict.text).slice(0, 80)}"`;
    } catch (error) {
      if (!(error instanceof ModelError && error.kind === "bad_request" && NO_SCHEMA.test(error.message))) throw error;
      why = `the server refused the reply schema (${oneLine(error.message)})`;
    }
    this.refuse("constrained");
    yield {
      type: "notice",
      code: "constrained_off",
      message: `Constrained tool calls are off for ${this.inner.model} here: ${why}. Its tools now go in the request's tools field, from this request on.`,
    };
    yield* this.stream(request);
  }

  /** `text` and `none` (and any request without tools): no tools field; earlier calls and results as text. */
  private async *viaText(request: ModelRequest, mode: ToolCallMode): AsyncGenerator<ModelStreamEvent> {
    const textual: ModelRequest = {
      ...request,
      system:
        mode === "text"
          ? [request.system, textToolPrompt(request.tools)].filter((s) => s.trim()).join("\n\n")
          : request.system,
      messages: toTextToolMessages(request.messages),
      tools: [],
    };
    if (mode === "none") return yield* this.inner.stream(textual);
    yield* this.withTextFallback(this.inner.stream(textual), request, mode);
  }

  /** Passes the stream on; at its end, calls written in the text become real calls when no native one came. */
  private async *withTextFallback(
    stream: AsyncIterable<ModelStreamEvent>,
    request: ModelRequest,
    mode: ToolCallMode = "native",
  ): AsyncGenerator<ModelStreamEvent> {
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
        message:
          mode === "text"
            ? `Ran ${names}, written as text by ${this.inner.model} (tools are sent in the prompt).`
            : `Ran ${names}, which ${this.inner.model} wrote as text instead of a native tool call.`,
      };
      for (const [index, call] of found.calls.entries()) {
        yield { type: "tool_call_start", index, id: call.id, name: call.name };
        yield { type: "tool_call_delta", index, argumentsDelta: call.arguments };
      }
      const done: Done = {
        ...event,
        message: { ...event.message, content: found.text, toolCalls: found.calls },
        stopReason: "tool_use",
      };
      yield done;
    }
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 160);
}

/** `mode` alone (as before), or every option. */
export function withToolCallMode(model: ChatModel, mode: ToolCallMode | ToolCallOptions = {}): ToolCallModeModel {
  return new ToolCallModeModel(model, typeof mode === "string" ? { mode } : mode);
}
