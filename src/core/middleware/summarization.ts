import type { ChatMessage, ChatModel, ToolSpec, Usage } from "../model/types";
import type { Middleware, RunContext } from "./types";

export interface SummarizationOptions {
  /** Tokens; defaults to the model's window (from the model table, or a setting). */
  contextWindow?: number;
  /** Summarize when the estimated prompt passes this fraction of the window (default 0.85). */
  triggerFraction?: number;
  /** Keep roughly this fraction of the window of recent turns verbatim (default 0.10). */
  keepFraction?: number;
}

const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD_TOKENS = 4;
const RESULT_CHARS_IN_SUMMARY_INPUT = 2_000;
const MIN_GAIN_FRACTION = 0.05;

const SUMMARY_SYSTEM = `You compress a coding agent's conversation so the agent can continue its task with less context.
Write a factual summary in under 600 words: the person's request(s) verbatim where short, decisions made, files read and changed (paths), commands run and their outcomes, errors met, and what remains to do. No preamble.`;

const sizes = new WeakMap<object, number>();

/** A cheap token estimate (characters / 4), cached per message. */
export function estimateMessageTokens(message: ChatMessage): number {
  let size = sizes.get(message);
  if (size === undefined) {
    let chars = message.content.length;
    if (message.role === "assistant")
      for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length + 16;
    size = Math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS;
    sizes.set(message, size);
  }
  return size;
}

export function estimatePromptTokens(
  system: string,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): number {
  let total = Math.ceil(system.length / CHARS_PER_TOKEN);
  for (const tool of tools) total += toolTokens(tool);
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

const toolSizes = new WeakMap<ToolSpec, number>();
function toolTokens(tool: ToolSpec): number {
  let size = toolSizes.get(tool);
  if (size === undefined) {
    size = Math.ceil(
      (tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length) / CHARS_PER_TOKEN,
    );
    toolSizes.set(tool, size);
  }
  return size;
}

/**
 * When the prompt nears the window, older turns are summarized by the model and replaced by the
 * summary; recent turns stay verbatim and a tool call is never split from its result. If the
 * summary call fails, the old turns are dropped with a note instead.
 */
export function summarizationMiddleware(options: SummarizationOptions = {}): Middleware {
  const triggerFraction = options.triggerFraction ?? 0.85;
  const keepFraction = options.keepFraction ?? 0.1;
  return {
    name: "summarization",
    async wrapModelCall(call, ctx, next) {
      const window = options.contextWindow ?? ctx.model.contextWindow;
      const messages = ctx.state.messages;
      if (estimatePromptTokens(call.system, messages, call.tools) <= window * triggerFraction) return next(call);
      const cut = findCut(messages, Math.max(1, Math.floor(window * keepFraction)));
      // Too little to gain: summarizing would only repeat on every call.
      if (cut <= 0 || estimatePromptTokens("", messages.slice(0, cut), []) < window * MIN_GAIN_FRACTION)
        return next(call);
      await compactBefore(cut, ctx, window, "to fit the context window");
      return next({ ...call, messages });
    },
  };
}

/**
 * Replaces the messages before `cut` by the model's summary of them (or, if that fails, by a
 * note that they were dropped), in place, and says so. Returns whether a summary was made.
 */
async function compactBefore(cut: number, ctx: RunContext, window: number, why: string): Promise<boolean> {
  const messages = ctx.state.messages;
  const old = messages.slice(0, cut);
  const summary = await summarize(ctx, old, window);
  const note = summary
    ? `[Summary of the earlier conversation, made to save context]\n${summary}`
    : `[${old.length} earlier messages were removed to fit the context window; a summary could not be made. Re-read files rather than relying on memory.]`;
  ctx.emit(
    summary
      ? { type: "warning", code: "summarized", message: `Summarized ${old.length} earlier messages ${why}.` }
      : {
          type: "warning",
          code: "context_trimmed",
          message: `Dropped ${old.length} earlier messages ${why} (the summary failed).`,
        },
  );
  const first = messages[cut]!;
  const replacement: ChatMessage[] =
    first.role === "user"
      ? [{ role: "user", content: `${note}\n\n${first.content}` }]
      : [{ role: "user", content: note }, first];
  messages.splice(0, cut + 1, ...replacement);
  return summary !== undefined;
}

/**
 * `/compact`: summarizes the conversation now, through the same path as when it nears the
 * window (the latest turn is kept as it is). Changes `ctx.state`; says how many tokens it freed
 * (estimated as the middleware estimates them), or why there was nothing to do.
 */
export async function compactNow(
  ctx: RunContext,
  contextWindow?: number,
): Promise<{ freedTokens: number; summarized: boolean } | { nothing: string }> {
  const window = contextWindow ?? ctx.model.contextWindow;
  const messages = ctx.state.messages;
  const cut = findCut(messages, 1);
  if (cut <= 0) return { nothing: "The conversation is too short to compact." };
  const before = estimatePromptTokens("", messages, []);
  const summarized = await compactBefore(cut, ctx, window, "on request (/compact)");
  return { freedTokens: Math.max(0, before - estimatePromptTokens("", ctx.state.messages, [])), summarized };
}

/**
 * The index where the kept suffix starts: a user or assistant message (never a tool result),
 * as early as the keep budget allows, but at least the last turn is kept. 0 means nothing to do.
 */
export function findCut(messages: readonly ChatMessage[], keepTokens: number): number {
  let kept = 0;
  let cut = 0;
  for (let i = messages.length - 1; i > 0; i--) {
    kept += estimateMessageTokens(messages[i]!);
    if (messages[i]!.role === "tool") continue;
    if (kept > keepTokens && cut > 0) break;
    cut = i;
  }
  return cut;
}

async function summarize(ctx: RunContext, old: readonly ChatMessage[], window: number): Promise<string | undefined> {
  const transcript = render(old, Math.floor(window * 0.5 * CHARS_PER_TOKEN));
  try {
    const text = await collect(ctx.model, transcript, ctx);
    return text.trim() || undefined;
  } catch {
    return undefined;
  }
}

async function collect(model: ChatModel, transcript: string, ctx: RunContext): Promise<string> {
  let text = "";
  let usage: Usage | undefined;
  for await (const event of model.stream({
    system: SUMMARY_SYSTEM,
    messages: [{ role: "user", content: `Summarize this conversation:\n\n${transcript}` }],
    tools: [],
    signal: ctx.signal,
  })) {
    if (event.type === "text_delta") text += event.text;
    else if (event.type === "done") {
      text = event.message.content || text;
      usage = event.usage;
    }
  }
  if (usage) ctx.recordUsage(usage);
  return text;
}

/** The old turns as plain text, long tool results cut, the middle dropped if still too long. */
function render(messages: readonly ChatMessage[], maxChars: number): string {
  const cut = (text: string, max: number) =>
    text.length > max ? `${text.slice(0, max)} [... ${text.length - max} more characters]` : text;
  const lines = messages.map((m) => {
    if (m.role === "user") return `Person: ${m.content}`;
    if (m.role === "tool")
      return `Result of ${m.toolName}${m.isError ? " (error)" : ""}: ${cut(m.content, RESULT_CHARS_IN_SUMMARY_INPUT)}`;
    const calls = (m.toolCalls ?? []).map((c) => `[called ${c.name} ${cut(c.arguments, 500)}]`).join(" ");
    return `Agent: ${m.content} ${calls}`.trim();
  });
  const text = lines.join("\n\n");
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars / 4);
  return `${text.slice(0, head)}\n\n[... middle of the conversation omitted ...]\n\n${text.slice(text.length - (maxChars - head))}`;
}
