/** Shared pieces of the model-layer tests: both wire formats against one scripted server. */
import { createModel, type CreateModelOptions } from "../../../src/core/model/createModel";
import { ModelError, type ChatModel, type ModelRequest, type ModelStreamEvent } from "../../../src/core/model/types";
import type { ScriptedModelServer } from "../../support/scriptedModelServer";

export const SECRET = "sk-test-SECRET-0123456789abcdef";

export interface WireCase {
  name: "openai" | "anthropic";
  model: string;
  make(server: ScriptedModelServer, opts?: Partial<CreateModelOptions>): ChatModel;
}

/** Fast retries; an idle timeout long enough not to fire by accident. */
const FAST: Partial<CreateModelOptions> = {
  retryBaseDelayMs: 2,
  streamIdleTimeoutMs: 5_000,
  firstOutputTimeoutMs: 5_000,
};

export const WIRES: WireCase[] = [
  {
    name: "openai",
    model: "gpt-4.1",
    make: (s, o = {}) =>
      createModel({ provider: "openai", model: "gpt-4.1", baseUrl: s.baseUrlOpenAI, apiKey: SECRET, ...FAST, ...o }),
  },
  {
    name: "anthropic",
    model: "claude-sonnet-4-6",
    make: (s, o = {}) =>
      createModel({
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        baseUrl: s.baseUrlAnthropic,
        apiKey: SECRET,
        ...FAST,
        ...o,
      }),
  },
];

export const TOOLS: ModelRequest["tools"] = [
  {
    name: "read_file",
    description: "Read a file",
    parameters: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
  },
  {
    name: "ls",
    description: "List a folder",
    parameters: { type: "object", properties: { path: { type: "string" } } },
  },
];

export function request(over: Partial<ModelRequest> = {}): ModelRequest {
  return { system: "You are Fathom.", messages: [{ role: "user", content: "Hello" }], tools: TOOLS, ...over };
}

export interface Run {
  events: ModelStreamEvent[];
  done?: Extract<ModelStreamEvent, { type: "done" }>;
  error?: ModelError;
  text: string;
}

/** Drains a stream; a ModelError ends it as `error`, anything else is rethrown. */
export async function collect(
  stream: AsyncIterable<ModelStreamEvent>,
  onEvent?: (ev: ModelStreamEvent) => void,
): Promise<Run> {
  const run: Run = { events: [], text: "" };
  try {
    for await (const ev of stream) {
      run.events.push(ev);
      if (ev.type === "text_delta") run.text += ev.text;
      if (ev.type === "done") run.done = ev;
      onEvent?.(ev);
    }
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    run.error = err;
  }
  return run;
}

export const ofType = <T extends ModelStreamEvent["type"]>(run: Run, type: T) =>
  run.events.filter((e): e is Extract<ModelStreamEvent, { type: T }> => e.type === type);
