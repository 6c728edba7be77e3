import type { ModelCall, RunContext } from "./types";

/**
 * Tools a first request rarely needs are offered once the run has used a tool: a greeting or a
 * question stays small (issue 40 holds the first request for "hello" to 8,000 characters), and a
 * task has them from its second step on, when it is reading code. A prompt section that only
 * explains them comes with them. (The tools change once in a run, so a prompt cache misses once.)
 */
export function offerAfterFirstTool(
  call: ModelCall,
  ctx: RunContext,
  names: ReadonlySet<string>,
  section?: string,
): ModelCall {
  if (ctx.state.messages.some((m) => m.role === "tool"))
    return section && call.tools.some((t) => names.has(t.name))
      ? { ...call, system: `${call.system}\n\n${section}` }
      : call;
  return { ...call, tools: call.tools.filter((t) => !names.has(t.name)) };
}
