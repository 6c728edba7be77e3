/**
 * The text side of constrained mode: the system prompt's section that says how to reply, the
 * conversation as the model wrote it (each earlier call as its JSON object, results as messages
 * "Result of <tool>:"), and reading a reply back as a call or an answer. The schema that holds a
 * reply to this shape is constrainedSchema.ts; the stream is read as it comes by constrainedReader.ts.
 */
import { ANSWER_TOOL } from "./constrainedSchema";
import { firstJsonObject, unfenced } from "./jsonInText";
import type { ChatMessage, ToolSpec } from "../types";

/**
 * One worked example per tool (only offered tools get theirs): a request and the call it leads
 * to. Calls only: SmolLM2-135M copied example answers word for word into every task.
 */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  ls: ['Person: What is in the folder /docs? -> {"tool": "ls", "arguments": {"path": "/docs"}}'],
  read_file: [
    'Person: What does the file /src/app.py print? -> {"tool": "read_file", "arguments": {"file_path": "/src/app.py"}}',
  ],
  write_file: [
    'Person: Create the file /docs/todo.md with the text: buy milk -> {"tool": "write_file", "arguments": {"file_path": "/docs/todo.md", "content": "buy milk"}}',
  ],
  edit_file: [
    'Person: In the file /main.c change foo to bar -> {"tool": "edit_file", "arguments": {"file_path": "/main.c", "old_string": "foo", "new_string": "bar"}}',
  ],
  execute: ['Person: Run the command `date` -> {"tool": "execute", "arguments": {"command": "date"}}'],
};

/** The system prompt's section for a constrained model: the reply's shape, the tools, examples. */
export function constrainedToolPrompt(tools: readonly ToolSpec[]): string {
  const offered = tools.filter((t) => t.name !== ANSWER_TOOL);
  const lines = offered.map((t) => `- ${t.name} ${argumentList(t)}: ${firstSentence(t.description)}`);
  lines.push(`- ${ANSWER_TOOL} {"text"}: your reply to the person. It ends the task.`);
  const examples = offered.flatMap((t) => EXAMPLES[t.name] ?? []);
  return [
    "# How to reply",
    `Each reply is one JSON object: {"tool": "<name>", "arguments": {...}}. Use one tool per reply; its result comes back in the next message, starting "Result of". When you have what the person asked for, reply with ${ANSWER_TOOL}.`,
    "Tools:",
    ...lines,
    ...(examples.length ? ["Examples:", ...examples] : []),
  ].join("\n");
}

function argumentList(tool: ToolSpec): string {
  const props = Object.keys((tool.parameters.properties as Record<string, unknown> | undefined) ?? {});
  const required = new Set(Array.isArray(tool.parameters.required) ? (tool.parameters.required as string[]) : []);
  const ordered = [...props.filter((p) => required.has(p)), ...props.filter((p) => !required.has(p))];
  return `{${ordered.map((p) => (required.has(p) ? `"${p}"` : `"${p}"?`)).join(", ")}}`;
}

function firstSentence(text: string): string {
  const line = text.split("\n")[0]!.trim();
  const end = line.search(/\.(\s|$)/);
  const sentence = end >= 0 ? line.slice(0, end + 1) : line;
  return sentence.length > 100 ? `${sentence.slice(0, 97)}...` : sentence;
}

/** The JSON object a reply of this shape is, as the model would write it. */
export function replyObject(tool: string, args: unknown): string {
  return JSON.stringify({ tool, arguments: args });
}

/**
 * The conversation as a constrained model sees it: its calls and answers as the JSON objects it
 * replies with, each run of tool results as one message of "Result of <tool>:" blocks.
 */
export function toConstrainedMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let ask: string | undefined;
  for (const msg of messages) {
    if (msg.role === "assistant") {
      const calls = msg.toolCalls ?? [];
      const content = calls.length
        ? calls.map((c) => replyObject(c.name, parsedOr(c.arguments))).join("\n")
        : replyObject(ANSWER_TOOL, { text: msg.content });
      out.push({ role: "assistant", content });
    } else if (msg.role === "tool") {
      const block = `Result of ${msg.toolName}${msg.isError ? " (failed)" : ""}:\n${msg.content}`;
      const last = out[out.length - 1];
      if (last?.role === "user" && last.content.startsWith("Result of "))
        out[out.length - 1] = { ...last, content: `${last.content}\n\n${block}` };
      else out.push({ role: "user", content: block });
    } else {
      if (msg.role === "user") ask = msg.content;
      out.push(msg);
    }
  }
  // A small model reads the end of its prompt most: the person's request again, after the results.
  return out.map((m, i) =>
    m.role === "user" &&
    m.content.startsWith("Result of ") &&
    ask !== undefined &&
    (i === out.length - 1 || out[i + 1]?.role === "assistant")
      ? { ...m, content: `${m.content}\n\n${reminder(ask)}` }
      : m,
  );
}

/** An answer that ends in the braces the model meant to close the object with ("…PURPLE-42.}}"), without them. */
function withoutClosingBraces(text: string): string {
  const cut = text.replace(/\s*['"`]?\s*\}\s*\}\s*$/, "");
  return cut.trim() ? cut : text;
}

function reminder(ask: string): string {
  const short = ask.length > 300 ? `${ask.slice(0, 297)}...` : ask;
  return `The person asked: ${short}\nIf the results above give it, reply with ${ANSWER_TOOL}; if not, use one more tool.`;
}

function parsedOr(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export type ConstrainedReply =
  | { kind: "answer"; text: string; exact: boolean }
  | { kind: "call"; name: string; arguments: string; exact: boolean }
  | { kind: "none" };

/**
 * A reply read back. `exact`: it is the schema's shape as sent (one object, `tool` an offered
 * name or `answer`, `arguments` an object), which only a server holding the model to the schema
 * gives every time. Otherwise it is repaired where the intent is plain: the first JSON object out
 * of surrounding text or a fence, `name`/`args`/`parameters` for `tool`/`arguments`, arguments
 * written beside `tool` instead of inside `arguments`.
 */
export function readConstrainedReply(text: string, offered: ReadonlySet<string>): ConstrainedReply {
  const body = unfenced(text);
  let value: Record<string, unknown> | undefined;
  let exact = true;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) value = parsed as Record<string, unknown>;
  } catch {
    // not one object: look for one inside
  }
  if (!value) {
    exact = false;
    value = firstJsonObject(text)?.value;
    if (!value) return { kind: "none" };
  }
  const keys = Object.keys(value);
  const nameKey = ["tool", "name", "function"].find((k) => typeof value[k] === "string");
  if (!nameKey) return { kind: "none" };
  const name = value[nameKey] as string;
  const argsKey = ["arguments", "args", "parameters", "input"].find((k) => value[k] !== undefined);
  let args: unknown = argsKey
    ? value[argsKey]
    : Object.fromEntries(Object.entries(value).filter(([k]) => k !== nameKey));
  if (typeof args === "string" && argsKey) {
    try {
      args = JSON.parse(args);
    } catch {
      // a bare string: for an answer it is the text
    }
  }
  exact &&=
    nameKey === "tool" &&
    argsKey === "arguments" &&
    keys.length === 2 &&
    typeof args === "object" &&
    args !== null &&
    !Array.isArray(args);
  if (name === ANSWER_TOOL) {
    const record = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
    const text =
      typeof args === "string"
        ? args
        : typeof record.text === "string"
          ? record.text
          : Object.values(record).find((v): v is string => typeof v === "string");
    if (text === undefined) return { kind: "none" };
    return { kind: "answer", text: withoutClosingBraces(text), exact: exact && typeof record.text === "string" };
  }
  exact &&= offered.has(name);
  return { kind: "call", name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}), exact };
}

/**
 * Where an answer's text shows the model trying to close the JSON object with the wrong quote
 * (SmolLM2-135M writes `…PURPLE-42.'}} }. This is a JSON object: {"` and fills the string up to
 * its limit): the text before it is the answer. -1 when there is no such place.
 */
export function answerCloseAttempt(text: string): number {
  const at = text.search(/['"`]\s*\}\s*\}/);
  return at > 0 && text.slice(0, at).trim() ? at : -1;
}
