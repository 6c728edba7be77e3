/**
 * A model request read back from the wire (OpenAI chat completions or Anthropic messages) as
 * one flat list of what was said and done: the person's messages, the model's text and tool
 * calls, the tools' results. Replay compares these lists, not the raw JSON, so a divergence
 * can be said in words ("edit_file's result differs") and wire details that mean nothing
 * (cache breakpoints, how turns were merged) never count.
 */

export type ConversationItem =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "call"; id: string; name: string; args: string }
  | { kind: "result"; id: string; name: string; text: string; isError?: boolean };

export interface Conversation {
  /** "chat/completions" or "messages". */
  endpoint: string;
  model: string;
  system: string;
  /** Names of the tools offered. */
  tools: string[];
  items: ConversationItem[];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Arguments as canonical JSON (keys sorted), or the text as sent when it is not JSON. */
export function canonicalArgs(args: unknown): string {
  let value = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch {
      return args;
    }
  }
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Json)[k])]),
    );
  }
  return value;
}

/** Text of a content field: a string, or the text parts of a list of blocks (images named, not inlined). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map((part) => {
      const p = obj(part);
      if (p.type === "text") return str(p.text);
      if (p.type === "image_url" || p.type === "image") return "[image]";
      return "";
    })
    .filter((t) => t !== "")
    .join("\n");
}

export function conversationOf(path: string, body: unknown): Conversation {
  const b = obj(body);
  const endpoint = path.endsWith("/messages")
    ? "messages"
    : path.endsWith("/chat/completions")
      ? "chat/completions"
      : path;
  return endpoint === "messages" ? anthropicConversation(b) : openaiConversation(b, endpoint);
}

function openaiConversation(b: Json, endpoint: string): Conversation {
  const items: ConversationItem[] = [];
  const names = new Map<string, string>();
  let system = "";
  for (const m of arr(b.messages).map(obj)) {
    if (m.role === "system" || m.role === "developer") system += contentText(m.content);
    else if (m.role === "user") {
      const text = contentText(m.content);
      if (text !== "") items.push({ kind: "user", text });
    } else if (m.role === "assistant") {
      const text = contentText(m.content);
      if (text.trim() !== "") items.push({ kind: "assistant", text });
      for (const c of arr(m.tool_calls).map(obj)) {
        const fn = obj(c.function);
        names.set(str(c.id), str(fn.name));
        items.push({ kind: "call", id: str(c.id), name: str(fn.name), args: canonicalArgs(fn.arguments) });
      }
    } else if (m.role === "tool") {
      const id = str(m.tool_call_id);
      items.push({ kind: "result", id, name: names.get(id) ?? "", text: contentText(m.content) });
    }
  }
  const tools = arr(b.tools).map((t) => str(obj(obj(t).function).name));
  return { endpoint, model: str(b.model), system, tools, items };
}

function anthropicConversation(b: Json): Conversation {
  const items: ConversationItem[] = [];
  const names = new Map<string, string>();
  for (const m of arr(b.messages).map(obj)) {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : arr(m.content).map(obj);
    for (const block of blocks) {
      if (block.type === "text") {
        const text = str(block.text);
        if (m.role === "user") items.push({ kind: "user", text });
        else if (text.trim() !== "") items.push({ kind: "assistant", text });
      } else if (block.type === "image" && m.role === "user") {
        items.push({ kind: "user", text: "[image]" });
      } else if (block.type === "tool_use") {
        names.set(str(block.id), str(block.name));
        items.push({ kind: "call", id: str(block.id), name: str(block.name), args: canonicalArgs(block.input ?? {}) });
      } else if (block.type === "tool_result") {
        const id = str(block.tool_use_id);
        items.push({
          kind: "result",
          id,
          name: names.get(id) ?? "",
          text: contentText(block.content),
          ...(block.is_error === true ? { isError: true } : {}),
        });
      }
    }
  }
  const system = typeof b.system === "string" ? b.system : contentText(b.system);
  const tools = arr(b.tools).map((t) => str(obj(t).name));
  return { endpoint: "messages", model: str(b.model), system, tools, items };
}
