import { startPlan, type AgentEvent } from "../../core";
import { findItem, findToolItem, type AssistantItem } from "../../protocol";
import type { ChatViewModel } from "./chatViewModel";
import type { RunOwner } from "./taskRun";

/**
 * How questions, steering and plans show in the chat (the viewModel maps the other events): a
 * question turns its `ask_user` card into one the person answers; a message sent while the task
 * ran appears where the model read it; a plan-mode answer becomes the Plan card.
 */
export function showInteraction(viewModel: ChatViewModel, event: AgentEvent): void {
  const items = viewModel.state.items;
  switch (event.type) {
    case "question_asked": {
      const card = findToolItem(items, event.toolCallId);
      if (!card) return;
      // Asked again on resume: what the card said about the interruption no longer holds.
      const { result: _result, endedAt: _endedAt, ...open } = card;
      viewModel.emit({ type: "itemUpdated", item: { ...open, status: "awaiting_approval", question: { text: event.question, choices: event.choices, allowFreeText: event.allowFreeText } } });
      return;
    }
    case "question_answered": {
      const card = findToolItem(items, event.toolCallId);
      if (!card?.question) return;
      const question = event.answer !== undefined ? { ...card.question, answer: event.answer } : card.question;
      viewModel.emit({ type: "itemUpdated", item: { ...card, status: "running", question } });
      return;
    }
    case "steered":
      viewModel.emit({ type: "itemAppended", item: { id: viewModel.newId("u"), kind: "user", text: event.text, steered: true } });
      return;
    case "plan_proposed": {
      const answer = [...items].reverse().find((i): i is AssistantItem => i.kind === "assistant");
      if (answer) viewModel.emit({ type: "itemUpdated", item: { ...answer, plan: { status: "proposed", ...(event.capped ? { capped: true } : {}) } } });
      return;
    }
    default:
      return;
  }
}

/**
 * Start on the Plan card `itemId`, with the person's edits in `text`: the task's state goes to
 * Act with the plan's steps as todos, the card says it started. Returns the message that starts
 * the run (undefined, with a notice, when the plan cannot start now).
 */
export function startPlanOf(owner: RunOwner, itemId: string, text: string): string | undefined {
  const { viewModel, task } = owner;
  const started = owner.isRunning || !task.runState ? { error: "The plan can be started once the task has stopped." } : startPlan(task.runState, text);
  if ("error" in started) {
    viewModel.notice("info", started.error);
    return undefined;
  }
  task.runState = started.state;
  const item = findItem(viewModel.state.items, itemId);
  if (item?.kind === "assistant") viewModel.emit({ type: "itemUpdated", item: { ...item, text, plan: { status: "started" } } });
  viewModel.emit({ type: "todos", todos: started.state.todos });
  viewModel.appendUser("Start the plan");
  return started.input;
}
