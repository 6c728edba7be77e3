/**
 * Reads a constrained reply while it streams, so the person sees it as it comes rather than as
 * raw JSON at the end: the text of an `answer` as answer text (decoded), a call to an offered
 * tool as a tool call whose arguments stream in. The grammar writes `tool` before `arguments`,
 * so the name is known before its arguments begin. Text of any other shape (a server that
 * ignored the schema) produces nothing here; the whole reply is judged when it ends.
 */
import { ANSWER_TOOL } from "./constrainedSchema";
import { jsonValueEnd } from "./jsonInText";
import type { ModelStreamEvent } from "../types";

const HEAD = /^\s*(?:```[a-zA-Z]*\s*)?\{\s*"tool"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"arguments"\s*:\s*/;
const ANSWER_TEXT = /^\{\s*"text"\s*:\s*"/;

export class ConstrainedReader {
  private raw = "";
  private answer = "";
  private call: { id: string; name: string } | undefined;
  private argsSent = 0;

  constructor(
    private readonly offered: ReadonlySet<string>,
    private readonly newId: () => string,
  ) {}

  /** Everything the model wrote so far. */
  get text(): string {
    return this.raw;
  }

  /** The answer's text shown so far (empty unless the reply is an answer). */
  get answerShown(): string {
    return this.answer;
  }

  /** The call's arguments as streamed so far (not JSON until the reply closes). */
  get argumentsSoFar(): string {
    const head = HEAD.exec(this.raw);
    return head ? this.raw.slice(head[0].length) : "";
  }

  /** The call announced so far, if the reply is one. */
  get callShown(): { id: string; name: string } | undefined {
    return this.call;
  }

  /** Takes a piece of the reply; returns what to show for it. */
  push(delta: string): ModelStreamEvent[] {
    this.raw += delta;
    const head = HEAD.exec(this.raw);
    if (!head) return [];
    let name: string;
    try {
      name = JSON.parse(`"${head[1]}"`) as string;
    } catch {
      return [];
    }
    const argsAt = head[0].length;
    if (name === ANSWER_TOOL) {
      const open = ANSWER_TEXT.exec(this.raw.slice(argsAt));
      if (!open) return [];
      const decoded = decodePartialString(this.raw, argsAt + open[0].length);
      if (decoded.length <= this.answer.length) return [];
      const more = decoded.slice(this.answer.length);
      this.answer = decoded;
      return [{ type: "text_delta", text: more }];
    }
    if (!this.offered.has(name)) return [];
    const events: ModelStreamEvent[] = [];
    if (!this.call) {
      this.call = { id: this.newId(), name };
      events.push({ type: "tool_call_start", index: 0, id: this.call.id, name });
    }
    const end = jsonValueEnd(this.raw, argsAt);
    const args = this.raw.slice(argsAt, end < 0 ? undefined : end);
    if (args.length > this.argsSent) {
      events.push({ type: "tool_call_delta", index: 0, argumentsDelta: args.slice(this.argsSent) });
      this.argsSent = args.length;
    }
    return events;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** The JSON string starting at `start` (after its opening quote) decoded as far as it is complete. */
export function decodePartialString(text: string, start: number): string {
  let out = "";
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') break;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break;
    if (next === "u") {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 5;
      continue;
    }
    out += ESCAPES[next] ?? next;
    i++;
  }
  return out;
}
