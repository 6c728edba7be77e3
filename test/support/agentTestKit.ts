/** Small tools and helpers for agent unit tests. */
import { z } from "zod";
import { defineTool, type Tool } from "../../src/core/tools/tool";
import type { AgentEvent } from "../../src/core/run/events";
import type { Agent } from "../../src/core/agent/createAgent";

export function echoTool(name = "echo", kind: Tool["kind"] = "read", delayMs = 0, log: string[] = []): Tool {
  return defineTool({
    name,
    description: `Echo text (${kind}).`,
    schema: z.object({ text: z.string() }),
    kind,
    async run({ text }) {
      log.push(`start ${name} ${text}`);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      log.push(`end ${name} ${text}`);
      return { content: `echo: ${text}` };
    },
  }) as unknown as Tool;
}

export async function collect(
  agent: Agent,
  input: string,
  options: Parameters<Agent["run"]>[1] = {},
): Promise<{ events: AgentEvent[]; done: Extract<AgentEvent, { type: "done" }> }> {
  const events: AgentEvent[] = [];
  for await (const event of agent.run(input, options)) events.push(event);
  const done = events.at(-1);
  if (!done || done.type !== "done") throw new Error(`last event is not done: ${JSON.stringify(done)}`);
  if (events.filter((e) => e.type === "done").length !== 1) throw new Error("more than one done event");
  return { events, done };
}

export function ofType<T extends AgentEvent["type"]>(
  events: AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}
