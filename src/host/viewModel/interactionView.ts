import type { AgentEvent } from "../../core";
import { findToolItem, type AssistantItem } from "../../protocol";
import type { ChatViewModel } from "./chatViewModel";

/**
 * How questions, steering and plans show in the chat (ChatViewModel maps the other events): a
 * question turns its `ask_user` card into one the person answers; a message sent while the task
 * ran appears where the model read it; a plan-mode answer becomes the Plan card (its Start is
 * tasks/openTaskActions.ts).
 */
export function showInteraction(viewModel: ChatViewModel, event: AgentEvent): void {
  const items = viewModel.state.items;
  switch (event.type) {
    case "question_asked": {
      const card = findToolItem(items, event.toolCallId);
      if (!card) return;
      // Asked again on resume: what the card said about the interruption no longer holds.
      const { result: _result, endedAt: _endedAt, ...open } = card;
      viewModel.emit({
        type: "itemUpdated",
        item: {
          ...open,
          status: "awaiting_approval",
          question: { text: event.question, choices: event.choices, allowFreeText: event.allowFreeText },
        },
      });
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
      viewModel.emit({
        type: "itemAppended",
        item: { id: viewModel.newId("u"), kind: "user", text: event.text, steered: true },
      });
      return;
    case "plan_proposed": {
      const answer = [...items].reverse().find((i): i is AssistantItem => i.kind === "assistant");
      if (answer)
        viewModel.emit({
          type: "itemUpdated",
          item: { ...answer, plan: { status: "proposed", ...(event.capped ? { capped: true } : {}) } },
        });
      return;
    }
    default:
      return;
  }
}
