import type { BackendProtocol } from "../backends/protocol";
import { PERSON_CHANGED, readRejection } from "../middleware/approvals";
import { WrappedModel } from "../model/wrappedModel";
import type { ChatMessage, ChatModel, ModelRequest, ModelStreamEvent, Usage } from "../model/types";
import type { SecretFileMatcher } from "../trust/secretFiles";
import { EDIT_SELECTION, type EditSelectionArgs } from "./editSelectionTool";
import { INLINE_EDIT_SYSTEM_PROMPT, inlineEditUserPrompt, selectionTooLarge, type InlineEditRequest } from "./prompt";
import { linesLabel, selectLines, textVersion } from "./selectedLines";

const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
/** Stop reasons of an answer the model finished. */
const FINISHED = new Set(["end_turn", "stop", "tool_use"]);

export interface InlineEditModelOptions {
  request: InlineEditRequest;
  /** Reads the file (the agent's backend). */
  backend: BackendProtocol;
  isSecret?: SecretFileMatcher;
}

/**
 * The model of an inline edit, around the person's real one, so that the agent's own loop,
 * approvals, diff review, checkpoints and events run it unchanged. Its first turn sends the real
 * model the inline prompt (the selection in its context and the instruction) with no tools, and
 * streams the answer back as the arguments of an `edit_selection` call, the path and lines
 * first (the diff opens at once, then fills in as the answer arrives). Once that call has its
 * result, the next turn ends the run with a sentence for the person, without asking the model.
 */
export class InlineEditModel extends WrappedModel {
  constructor(
    readonly inner: ChatModel,
    private readonly o: InlineEditModelOptions,
  ) {
    super();
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const last = request.messages.at(-1);
    if (last?.role === "tool") return yield* say(outcome(last, request.messages));
    const { request: edit, backend } = this.o;
    const secret = this.o.isSecret?.(edit.path);
    if (secret)
      return yield* say(
        `${edit.path} may hold secrets (it matches ${secret} in fathom.secretFiles), so it is not sent to the model. Edit it yourself.`,
      );
    const read = backend.currentText
      ? await backend.currentText(edit.path)
      : { error: "this backend cannot read a whole file" };
    if ("error" in read || read.text === null)
      return yield* say(
        `Could not read ${edit.path}: ${"error" in read ? read.error : "it does not exist"}. Nothing was sent to the model.`,
      );
    const text = read.text;
    const sel = selectLines(text, edit.startLine, edit.endLine);
    if ("error" in sel) return yield* say(`${sel.error} Select the lines again and run Edit Selection.`);
    const tooLarge = selectionTooLarge(sel);
    if (tooLarge) return yield* say(tooLarge);

    const id = `inline_${Math.random().toString(36).slice(2, 10)}`;
    const fixed: Omit<EditSelectionArgs, "answer" | "stop_reason"> = {
      file_path: edit.path,
      start_line: edit.startLine,
      end_line: edit.endLine,
      file_version: textVersion(text),
    };
    yield { type: "tool_call_start", index: 0, id, name: EDIT_SELECTION };
    yield { type: "tool_call_delta", index: 0, argumentsDelta: `${JSON.stringify(fixed).slice(0, -1)},"answer":"` };
    const inner: ModelRequest = {
      system: INLINE_EDIT_SYSTEM_PROMPT,
      messages: [{ role: "user", content: inlineEditUserPrompt(sel, edit) }],
      tools: [],
      ...(request.signal ? { signal: request.signal } : {}),
    };
    for await (const event of this.inner.stream(inner)) {
      switch (event.type) {
        case "text_delta":
          // Escaped as inside a JSON string, so the deltas read as the call's arguments while they stream.
          if (event.text)
            yield { type: "tool_call_delta", index: 0, argumentsDelta: JSON.stringify(event.text).slice(1, -1) };
          break;
        case "reasoning_delta":
        case "retry":
        case "notice":
          yield event;
          break;
        case "done": {
          // The finished text is what counts (a stream's pieces may have been taken back).
          const stop = FINISHED.has(event.stopReason) ? {} : { stop_reason: event.stopReason };
          const args: EditSelectionArgs = { ...fixed, answer: event.message.content, ...stop };
          yield {
            type: "tool_call_delta",
            index: 0,
            argumentsDelta: `"${"stop_reason" in stop ? `,"stop_reason":${JSON.stringify(stop.stop_reason)}` : ""}}`,
          };
          yield {
            type: "done",
            message: {
              role: "assistant",
              content: "",
              toolCalls: [{ id, name: EDIT_SELECTION, arguments: JSON.stringify(args) }],
              ...(event.message.reasoning ? { reasoning: event.message.reasoning } : {}),
            },
            usage: event.usage,
            stopReason: "tool_use",
            ...(event.usageEstimated ? { usageEstimated: true } : {}),
          };
          return;
        }
        // No tools were sent: nothing else of the stream concerns the edit.
        default:
          break;
      }
    }
  }
}

/** A turn that only says `text`, made without the model. */
async function* say(text: string): AsyncGenerator<ModelStreamEvent> {
  yield { type: "text_delta", text };
  yield { type: "done", message: { role: "assistant", content: text }, usage: { ...NO_USAGE }, stopReason: "end_turn" };
}

/** What came of the edit, for the person, from its call's result. */
function outcome(result: Extract<ChatMessage, { role: "tool" }>, messages: readonly ChatMessage[]): string {
  const call = messages
    .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
    .find((c) => c.id === result.toolCallId);
  let where = "the selection";
  try {
    const args = JSON.parse(call?.arguments ?? "{}") as Partial<EditSelectionArgs>;
    if (typeof args.start_line === "number" && typeof args.end_line === "number" && typeof args.file_path === "string")
      where = `${linesLabel(args.start_line, args.end_line)} of ${args.file_path}`;
  } catch {
    /* the call's arguments are Fathom's own; without them the sentence is vaguer */
  }
  if (!result.isError) {
    const [done, rest] = result.content.split(PERSON_CHANGED);
    const feedback = done!.split("\n\n").slice(1).join("\n\n").trim();
    return `Replaced ${where}${rest !== undefined ? " with your changes to the proposal" : ""}.${feedback ? `\n\n${feedback}` : ""}`;
  }
  const rejected = readRejection(result.content);
  if (rejected)
    return rejected.reason
      ? `Nothing was written: ${rejected.reason}`
      : `You rejected the change to ${where}; nothing was written.`;
  return /nothing was (?:written|proposed)/i.test(result.content)
    ? result.content
    : `Nothing was written. ${result.content}`;
}
