import { compactConversation } from "../../core";
import type { RunOwner } from "./taskRun";

/** `/compact` in the chat: the open task's conversation summarized now; the chat says how many tokens it freed. */
export async function compactOpenTask(owner: RunOwner): Promise<void> {
  const { env, task, reducer } = owner;
  if (owner.isRunning) return reducer.notice("info", "The task is running: send /compact once it has stopped.");
  if (!task.runState) return reducer.notice("info", "There is no conversation to compact yet.");
  const setup = await env.readSetup();
  if (setup.problem) return reducer.notice("warning", "Compacting needs the model: finish the setup first.");
  reducer.notice("info", "Compacting the conversation…");
  const compacted = await compactConversation(task.runState, env.createModel(setup.settings, setup.apiKey));
  if ("error" in compacted) return reducer.notice("info", compacted.error);
  task.runState = compacted.state;
  reducer.notice("info", compacted.message);
  owner.saves.flush();
}
