/**
 * Tool calls written in a model's text. Local models without a tool-call template (and servers
 * without a tool-call parser) answer with the call as text instead of a native call:
 *
 *   <tool_call>{"name": "read_file", "arguments": {"file_path": "/a.ts"}}</tool_call>
 *   ```json
 *   {"name": "read_file", "arguments": {"file_path": "/a.ts"}}
 *   ```
 *   {"name": "read_file", "arguments": {"file_path": "/a.ts"}}          (the whole answer)
 *
 * `extractTextToolCalls` finds them (only for tools the request offered, so a JSON example in
 * an answer is left alone); `textToolPrompt` and `toTextToolMessages` are the other half, for a
 * model that gets its tools in the prompt instead of natively.
 */
import type { ChatMessage, ImagePart, ToolCall, ToolSpec } from "../types";

export interface TextToolCalls {
  calls: ToolCall[];
  /** The text with the calls taken out (trimmed). */
  text: string;
}

const TAGGED = /<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g;
const FENCED = /```[ \t]*(?:json|tool_call|tool_code|javascript|js)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```/g;

/**
 * The calls of known tools written in `text`, or undefined when there are none. Each call is
 * an object with `name` and `arguments` (or `parameters`), alone or in an array; `arguments`
 * may itself be a JSON string. Anything else (unknown tool, invalid JSON) stays text.
 */
export function extractTextToolCalls(
  text: string,
  knownTools: ReadonlySet<string> | readonly string[],
): TextToolCalls | undefined {
  if (!text.trim()) return undefined;
  const known = knownTools instanceof Set ? knownTools : new Set(knownTools as readonly string[]);
  if (known.size === 0) return undefined;
  const calls: ToolCall[] = [];
  const tag = Math.random().toString(36).slice(2, 8);
  const take = (body: string): boolean => {
    const found = callsIn(body, known);
    if (!found) return false;
    for (const c of found) calls.push({ id: `call_text_${tag}_${calls.length}`, ...c });
    return true;
  };
  let rest = text;
  if (rest.includes("<tool_call>")) rest = rest.replace(TAGGED, (whole, body: string) => (take(body) ? "" : whole));
  if (calls.length === 0) rest = rest.replace(FENCED, (whole, body: string) => (take(body) ? "" : whole));
  if (calls.length === 0) {
    const whole = rest.trim();
    if ((whole.startsWith("{") || whole.startsWith("[")) && take(whole)) rest = "";
  }
  if (calls.length === 0) return undefined;
  return { calls, text: rest.replace(/\n{3,}/g, "\n\n").trim() };
}

function callsIn(body: string, known: ReadonlySet<string>): Omit<ToolCall, "id">[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.trim());
  } catch {
    return undefined;
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return undefined;
  const out: Omit<ToolCall, "id">[] = [];
  for (const item of items) {
    const call = asCall(item, known);
    if (!call) return undefined;
    out.push(call);
  }
  return out;
}

function asCall(item: unknown, known: ReadonlySet<string>): Omit<ToolCall, "id"> | undefined {
  if (!item || typeof item !== "object" || Array.isArray(item)) return undefined;
  // OpenAI's own shape ({"function": {"name", "arguments"}}) turns up too.
  const record =
    "function" in item && typeof (item as { function: unknown }).function === "object"
      ? ((item as { function: object }).function as Record<string, unknown>)
      : (item as Record<string, unknown>);
  const name = record.name;
  if (typeof name !== "string" || !known.has(name)) return undefined;
  const args = record.arguments ?? record.parameters ?? {};
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    } catch {
      return undefined;
    }
    return { name, arguments: args };
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  return { name, arguments: JSON.stringify(args) };
}

/** The system prompt's section for a model that gets its tools in the prompt. */
export function textToolPrompt(tools: readonly ToolSpec[]): string {
  if (tools.length === 0) return "";
  const list = tools
    .map((t) => JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }))
    .join("\n");
  return [
    "# Calling tools",
    "You call a tool by writing, on its own, a block like this (one block per call; several blocks for several calls):",
    '<tool_call>{"name": "<tool name>", "arguments": {<arguments as JSON>}}</tool_call>',
    "Write the call and stop: the result comes back in the next message inside <tool_result>. Do not write results yourself. When the task is done, answer without a tool call.",
    "The tools:",
    list,
  ].join("\n");
}

/**
 * Our messages for a model without native tools: its earlier calls as `<tool_call>` text, and
 * each run of tool results as one user message of `<tool_result>` blocks.
 */
export function toTextToolMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const msg of messages) {
    if (msg.role === "assistant") {
      const calls = (msg.toolCalls ?? []).map(
        (c) => `<tool_call>${JSON.stringify({ name: c.name, arguments: parseOr(c.arguments) })}</tool_call>`,
      );
      out.push({
        role: "assistant",
        content: [msg.content, ...calls].filter((t) => t.trim() !== "").join("\n"),
        ...(msg.reasoning ? { reasoning: msg.reasoning } : {}),
      });
    } else if (msg.role === "tool") {
      const block = `<tool_result name="${msg.toolName}"${msg.isError ? ' error="true"' : ""}>\n${msg.content}\n</tool_result>`;
      const last = out[out.length - 1];
      if (last?.role === "user" && last.content.startsWith("<tool_result")) {
        out[out.length - 1] = {
          ...last,
          content: `${last.content}\n${block}`,
          ...mergedImages(last.images, msg.images),
        };
      } else out.push({ role: "user", content: block, ...(msg.images?.length ? { images: msg.images } : {}) });
    } else out.push(msg);
  }
  return out;
}

function mergedImages(
  a: readonly ImagePart[] | undefined,
  b: readonly ImagePart[] | undefined,
): { images?: ImagePart[] } {
  const images = [...(a ?? []), ...(b ?? [])];
  return images.length ? { images } : {};
}

function parseOr(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
