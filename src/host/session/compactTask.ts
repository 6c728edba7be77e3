import { compactConversation } from "../../core";
import type { RunOwner } from "./taskRun";

/** `/compact` in the chat: the open task's conversation summarized now; the chat says how many tokens it freed. */
export async function compactOpenTask(owner: RunOwner): Promise<void> {
  const { env, task, viewModel } = owner;
  if (owner.isRunning) return viewModel.notice("info", "The task is running: send /compact once it has stopped.");
  if (!task.runState) return viewModel.notice("info", "There is no conversation to compact yet.");
  const setup = await env.readSetup();
  if (setup.problem) return viewModel.notice("warning", "Compacting needs the model: finish the setup first.");
  viewModel.notice("info", "Compacting the conversation…");
  const compacted = await compactConversation(task.runState, env.createModel(setup.settings, setup.apiKey));
  if ("error" in compacted) return viewModel.notice("info", compacted.error);
  task.runState = compacted.state;
  viewModel.notice("info", compacted.message);
  owner.saves.flush();
}
