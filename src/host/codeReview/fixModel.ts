import { emptyUsage, type ChatModel, type ModelRequest, type ModelStreamEvent } from "../../core";
import type { FixEditArgs } from "./fixEdit";

/** The one call a fix is, under an id its task has not used. */
export interface FixCall {
  id: string;
  args: FixEditArgs;
  /** The finding's title, for the turn that says what came of it. */
  title: string;
  /** Told what came of the call once its result is in (applied: the file was written); at most once. */
  settled?(applied: boolean): void;
}

/**
 * "Apply fix" is a turn of the review's task whose one call is the fix's `edit_file`, played by
 * this stand-in for the model: the call goes through the whole middleware stack as any agent
 * edit does (the person's approval level, the diff and its card, the stale-write guard, the
 * checkpoint), and no request leaves the machine. Its second turn says what came of the call. It
 * keeps the task's model's name and window, so the header and the context meter stay put.
 */
export function fixApplyingModel(
  task: Pick<ChatModel, "provider" | "model" | "contextWindow">,
  given: FixCall,
): ChatModel {
  let told = false;
  const call: FixCall = {
    ...given,
    settled: (applied) => {
      if (!told) given.settled?.(applied);
      told = true;
    },
  };
  return {
    provider: task.provider,
    model: task.model,
    contextWindow: task.contextWindow,
    stream: (request) => turn(request, call),
  };
}

async function* turn(request: ModelRequest, call: FixCall): AsyncIterable<ModelStreamEvent> {
  const usage = emptyUsage();
  // Its result anywhere in the conversation (a middleware may send the answer back once): never called twice.
  const result = request.messages.findLast((m) => m.role === "tool" && m.toolCallId === call.id);
  if (result?.role === "tool") {
    call.settled?.(result.isError !== true);
    const text = result.isError
      ? `The fix for "${call.title}" was not applied: ${result.content}`
      : `Applied the fix for "${call.title}" to ${call.args.file_path.replace(/^\//, "")}.`;
    yield { type: "text_delta", text };
    yield { type: "done", message: { role: "assistant", content: text }, usage, stopReason: "end_turn" };
    return;
  }
  const args = JSON.stringify(call.args);
  yield { type: "tool_call_start", index: 0, id: call.id, name: "edit_file" };
  yield { type: "tool_call_delta", index: 0, argumentsDelta: args };
  yield {
    type: "done",
    message: { role: "assistant", content: "", toolCalls: [{ id: call.id, name: "edit_file", arguments: args }] },
    usage,
    stopReason: "tool_use",
  };
}
