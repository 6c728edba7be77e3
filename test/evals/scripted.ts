/**
 * Helpers for the scripted models that record the starter suite's cassettes (record.ts). Each
 * scenario's model.ts plays what a competent model would do for its task, turn by turn; a turn
 * may read what the agent sent back (tool results) and fails loudly when it is not what the
 * script expects, so a recording never papers over a changed agent.
 */
import { conversationOf, type ConversationItem } from "../../src/core/replay/conversation";
import type { AnswerTurn, RecordedRequest, ScriptedToolCall, ScriptedTurn } from "../support/scriptedModelServer";

export type ToolResult = Extract<ConversationItem, { kind: "result" }>;

export interface ScenarioScript {
  /** The wire the scripted model speaks (the suite uses both, so replays exercise both adapters). */
  wire: "openai" | "anthropic";
  turns: ScriptedTurn[];
}

/** The results of the tool calls the model made in its previous turn, in call order. */
export function lastResults(request: RecordedRequest): ToolResult[] {
  const items = conversationOf(request.path, request.body).items;
  const out: ToolResult[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind !== "result") break;
    out.unshift(item);
  }
  return out;
}

/** The previous turn's result of `tool` (the first such call). */
export function resultOf(request: RecordedRequest, tool: string): ToolResult {
  const found = lastResults(request).find((r) => r.name === tool);
  if (!found)
    throw new Error(
      `scripted model: expected a ${tool} result in the request, got ${
        lastResults(request)
          .map((r) => r.name)
          .join(", ") || "none"
      }`,
    );
  return found;
}

export function call(name: string, args: Record<string, unknown>): ScriptedToolCall {
  return { name, arguments: args };
}

/** A turn that first checks the previous results (throw to refuse), then answers from them. */
export function after(check: (results: ToolResult[], request: RecordedRequest) => AnswerTurn): ScriptedTurn {
  return (request) => check(lastResults(request), request);
}

/** Throws unless `text` matches `pattern`: the script's expectation of what the agent returned. */
export function expectText(what: string, text: string, pattern: RegExp): void {
  if (!pattern.test(text)) throw new Error(`scripted model: ${what} did not match ${pattern}: ${text.slice(0, 500)}`);
}

/** Every result of the previous turn succeeded (no error text). */
export function expectOk(results: ToolResult[]): void {
  for (const r of results) {
    if (r.isError || /^(Error|The person rejected|old_string was not found|.*is outside the workspace)/.test(r.text)) {
      throw new Error(`scripted model: ${r.name} failed: ${r.text.slice(0, 500)}`);
    }
  }
}
