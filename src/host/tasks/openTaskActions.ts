import { compactConversation, startPlan } from "../../core";
import { findItem } from "../../protocol";
import type { TaskParts } from "./openTask";

/** What the session does to the open task between its runs: `/compact`, and Start on a Plan card. */

/** `/compact` in the chat: the open task's conversation summarized now; the chat says how many tokens it freed. */
export async function compactOpenTask({ env, task, viewModel, saves }: TaskParts, isRunning: boolean): Promise<void> {
  if (isRunning) return viewModel.notice("info", "The task is running: send /compact once it has stopped.");
  if (!task.runState) return viewModel.notice("info", "There is no conversation to compact yet.");
  const setup = await env.readSetup();
  if (setup.problem) return viewModel.notice("warning", "Compacting needs the model: finish the setup first.");
  viewModel.notice("info", "Compacting the conversation…");
  const compacted = await compactConversation(task.runState, env.createModel(setup.settings, setup.apiKey));
  if ("error" in compacted) return viewModel.notice("info", compacted.error);
  task.runState = compacted.state;
  viewModel.notice("info", compacted.message);
  saves.flush();
}

/**
 * Start on the Plan card `itemId`, with the person's edits in `text`: the task's state goes to
 * Act with the plan's steps as todos, the card says it started. Returns the message that starts
 * the run (undefined, with a notice, when the plan cannot start now).
 */
export function startPlanOf(
  { viewModel, task }: TaskParts,
  isRunning: boolean,
  itemId: string,
  text: string,
): string | undefined {
  const started =
    isRunning || !task.runState
      ? { error: "The plan can be started once the task has stopped." }
      : startPlan(task.runState, text);
  if ("error" in started) {
    viewModel.notice("info", started.error);
    return undefined;
  }
  task.runState = started.state;
  const item = findItem(viewModel.state.items, itemId);
  if (item?.kind === "assistant")
    viewModel.emit({ type: "itemUpdated", item: { ...item, text, plan: { status: "started" } } });
  viewModel.emit({ type: "todos", todos: started.state.todos });
  viewModel.appendUser("Start the plan");
  return started.input;
}
