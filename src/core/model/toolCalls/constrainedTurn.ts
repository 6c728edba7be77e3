/**
 * One constrained turn: the request as a constrained model gets it (the reply section in the
 * system prompt, the history as its own JSON replies, no tools field, the union schema as
 * `response_format`, temperature and max_tokens), its stream read as it comes
 * (constrainedReader.ts), and the reply turned back into what the loop expects: an answer
 * (text, no calls) or one ordinary tool call. Whether the server held the reply to the schema
 * is the caller's to judge from the verdict; this never changes modes itself.
 */
import { findRunaway } from "../runawayOutput";
import {
  answerCloseAttempt,
  constrainedToolPrompt,
  readConstrainedReply,
  toConstrainedMessages,
  type ConstrainedReply,
} from "./constrainedCalls";
import { ConstrainedReader } from "./constrainedReader";
import { CONSTRAINED_MAX_TOKENS, constrainedSchema } from "./constrainedSchema";
import type { ChatModel, ModelRequest, ModelStreamEvent, Sampling, ToolSpec } from "../types";

type Done = Extract<ModelStreamEvent, { type: "done" }>;

/** Sampling of a constrained turn when the person set none: greedy, the most repeatable for a small model held to a grammar. */
export const CONSTRAINED_SAMPLING: Sampling = { temperature: 0 };

export type ConstrainedVerdict =
  /** The reply had the schema's shape (or was read as a call or an answer after repair). */
  | { kind: "read"; exact: boolean }
  /** Not a reply of this shape at all, and not cut by the token limit: the server did not hold it to the schema. */
  | { kind: "ignored"; text: string };

/** Built-in tools are listed in the prompt; MCP tools only in the schema (find_tools described them), so the prompt stays the same when they load. */
function listedTools(tools: readonly ToolSpec[]): ToolSpec[] {
  return tools.filter((t) => !t.name.startsWith("mcp__"));
}

export function constrainedRequest(request: ModelRequest, sampling: Sampling): ModelRequest {
  return {
    ...request,
    system: [request.system, constrainedToolPrompt(listedTools(request.tools))].filter((s) => s.trim()).join("\n\n"),
    messages: toConstrainedMessages(request.messages),
    tools: [],
    responseFormat: { name: "reply", schema: constrainedSchema(request.tools, { answerOnly: request.answerOnly }) },
    sampling: { ...CONSTRAINED_SAMPLING, ...sampling },
    maxOutputTokens: request.maxOutputTokens ?? CONSTRAINED_MAX_TOKENS,
  };
}

/**
 * Streams a constrained turn of `inner`, yielding the answer's text or the call as they come and
 * a `done` in the loop's terms, unless the verdict is `ignored` (then nothing but reasoning and
 * notices was yielded, and no `done`: the caller asks again another way). `honoured`: the server
 * has held a reply to the schema before, so a reply of another shape is never `ignored`.
 */
export async function* streamConstrained(
  inner: ChatModel,
  request: ModelRequest,
  sampling: Sampling,
  opts: { honoured?: boolean; onRead?: (exact: boolean) => void } = {},
): AsyncGenerator<ModelStreamEvent, ConstrainedVerdict> {
  // Said before the final `done` is yielded: a consumer stops pulling at `done`, so nothing after it runs.
  const read = (exact: boolean): ConstrainedVerdict => {
    opts.onRead?.(exact);
    return { kind: "read", exact };
  };
  const offered = new Set(request.tools.map((t) => t.name));
  const tag = Math.random().toString(36).slice(2, 8);
  const reader = new ConstrainedReader(offered, () => `call_c_${tag}`);
  let done: Done | undefined;
  let runawayText: string | undefined;
  /** A call whose arguments went into a loop ("This is a file. This is a file. …"): cut, never run. */
  let loopingCall = false;
  for await (const event of inner.stream(constrainedRequest(request, sampling))) {
    if (event.type === "text_delta") {
      for (const shown of reader.push(event.text)) {
        if (shown.type === "text_delta") {
          // An answer that loops, or that tries to close itself with the wrong quote, ends as an
          // answer (its text before that), not as a stop or a page of filler up to the limit.
          const runaway = findRunaway(reader.answerShown);
          const closeAt = answerCloseAttempt(reader.answerShown);
          if (runaway || closeAt > 0) {
            runawayText = reader.answerShown
              .slice(0, runaway ? runaway.start + runaway.unit.length : closeAt)
              .trimEnd();
            break;
          }
        }
        yield shown;
      }
      if (runawayText !== undefined) break;
      if (reader.callShown && findRunaway(reader.text)) {
        loopingCall = true;
        break;
      }
      continue;
    }
    if (event.type === "done") {
      done = event;
      continue;
    }
    // Native calls or a text reset from an adapter are not expected here; reasoning, notices and retries pass.
    if (event.type !== "tool_call_start" && event.type !== "tool_call_delta" && event.type !== "text_reset")
      yield event;
  }
  if (runawayText !== undefined) {
    const verdict = read(true);
    yield { type: "text_reset", text: runawayText };
    yield finished({ role: "assistant", content: runawayText }, done, "end_turn", reader.text);
    return verdict;
  }
  const looping = reader.callShown;
  if (loopingCall && looping) {
    const verdict = read(true);
    yield {
      type: "notice",
      code: "looping_call",
      message: `${inner.model} wrote the same text over and over in the arguments of ${looping.name}: stopped there, and the call is not run.`,
    };
    // Cut mid-string, the arguments are not JSON: the call fails as malformed and writes nothing.
    yield finished(
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: looping.id, name: looping.name, arguments: reader.argumentsSoFar }],
      },
      done,
      "tool_use",
      reader.text,
    );
    return verdict;
  }
  if (!done) return read(false);
  // A server that answered with native calls after all: they are calls like any other.
  if (done.message.toolCalls?.length) {
    const verdict = read(false);
    yield done;
    return verdict;
  }
  const reply: ConstrainedReply = readConstrainedReply(reader.text, offered);
  if (reply.kind === "none") {
    if (done.stopReason === "max_tokens" || opts.honoured) {
      // Cut by the limit before any shape showed, or a server known to hold replies to the
      // schema sent something else this once: the text is all there is, as an answer.
      const verdict = read(false);
      yield { type: "text_reset", text: reader.text };
      yield done;
      return verdict;
    }
    return { kind: "ignored", text: reader.text };
  }
  const verdict = read(reply.exact);
  if (reply.kind === "answer") {
    if (reply.text !== reader.answerShown) yield { type: "text_reset", text: reply.text };
    yield finished(
      { role: "assistant", content: reply.text },
      done,
      done.stopReason === "max_tokens" ? "max_tokens" : "end_turn",
      reader.text,
    );
    return verdict;
  }
  const shown = reader.callShown;
  const id = shown?.id ?? `call_c_${tag}`;
  if (!shown) {
    yield { type: "text_reset", text: "" };
    yield { type: "tool_call_start", index: 0, id, name: reply.name };
    yield { type: "tool_call_delta", index: 0, argumentsDelta: reply.arguments };
  }
  yield finished(
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id, name: shown?.name ?? reply.name, arguments: reply.arguments }],
    },
    done,
    "tool_use",
    reader.text,
  );
  return verdict;
}

function finished(message: Done["message"], done: Done | undefined, stopReason: string, raw: string): Done {
  const usage = done?.usage ?? {
    inputTokens: 0,
    outputTokens: Math.ceil(raw.length / 4),
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
  return {
    type: "done",
    message: done?.message.reasoning ? { ...message, reasoning: done.message.reasoning } : message,
    usage,
    stopReason,
    ...(done?.usageEstimated || !done ? { usageEstimated: true } : {}),
  };
}
