import type { ChatModel, Usage } from "../model/types";
import { costOf as tableCostOf } from "../model/modelTable";
import { compactNow } from "../middleware/summarization";
import type { RunContext } from "../middleware/types";
import { type AgentEvent } from "../run/events";
import { addUsage, parseRunState, type RunState } from "../run/runState";
import { TaskBudget } from "../run/taskBudget";

/**
 * `/compact` outside a run: the saved conversation summarized now by `model` (its call counted
 * in the task's usage and cost). Returns the new state (the given one is not changed), what the
 * person is told, and the events of the summary.
 */
export async function compactConversation(
  saved: RunState,
  model: ChatModel,
  o: { signal?: AbortSignal; contextWindow?: number } = {},
): Promise<{ state: RunState; message: string; freedTokens: number } | { error: string }> {
  const parsed = parseRunState(saved);
  if ("error" in parsed) return { error: `Cannot compact: ${parsed.error}.` };
  const state = parsed.state;
  const events: AgentEvent[] = [];
  const price = (usage: Usage) => (model.costOf ? model.costOf(usage) : tableCostOf(model.model, usage)) ?? 0;
  const ctx: RunContext = {
    state,
    emit: (event) => events.push(event),
    signal: o.signal ?? new AbortController().signal,
    model,
    workspaceRoot: "",
    profile: "full",
    budget: new TaskBudget(1, undefined, state.costUsd),
    recordUsage(usage, costUsd) {
      addUsage(state.usage, usage);
      state.costUsd += costUsd ?? price(usage);
    },
  };
  const result = await compactNow(ctx, o.contextWindow);
  if ("nothing" in result) return { error: result.nothing };
  const note = events.find((e) => e.type === "warning");
  const message = `${note?.type === "warning" ? note.message : "Compacted."} About ${result.freedTokens.toLocaleString("en")} tokens freed.`;
  return { state, message, freedTokens: result.freedTokens };
}
