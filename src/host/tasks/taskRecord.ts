import type { InlineEditRequest, RunState } from "../../core";
import { initialChatState, openToolItems, type ChatState, type TaskStatus, type TranscriptItem } from "../../protocol";
import type { SavedTask } from "./taskStore";

/** Pure helpers between the live chat state and a saved task. */

export function taskTitle(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || "Untitled task";
}

export function toSavedTask(
  state: ChatState,
  meta: { id: string; createdAt: number; now: number; inlineEdit?: InlineEditRequest | undefined },
  runState: RunState | null,
): SavedTask {
  return {
    version: 1,
    id: meta.id,
    title: state.title,
    createdAt: meta.createdAt,
    updatedAt: meta.now,
    status: state.status,
    model: state.model,
    items: state.items,
    todos: state.todos,
    usage: state.usage,
    alwaysAllowed: state.alwaysAllowed,
    ...(state.agent ? { agent: state.agent } : {}),
    ...(state.rules.length ? { rules: state.rules } : {}),
    runState,
    ...(meta.inlineEdit ? { inlineEdit: meta.inlineEdit } : {}),
  };
}

/** A saved task found "running" was cut off by a reload or crash. */
export function wasInterrupted(status: TaskStatus): boolean {
  return status === "running" || status === "awaiting_approval" || status === "interrupted";
}

/** Where an interrupted task stopped, in words, for the notice. */
export function whereItStopped(items: readonly TranscriptItem[], runState: RunState | null): string {
  const open = openToolItems(items).at(-1);
  if (open) {
    if (open.status === "awaiting_approval")
      return open.question
        ? `while waiting for your answer to "${open.question.text}"`
        : `while waiting for your approval of "${open.title}"`;
    return `during "${open.title}"`;
  }
  const last = items.at(-1);
  if (last?.kind === "assistant" && last.streaming) return "while the model was answering";
  const steps = runState?.steps ?? 0;
  return steps > 0 ? `after step ${steps}` : "before the model answered";
}

/** The top-level calls that were waiting for the person when the window went away (asked again on resume). */
export function awaitingApproval(items: readonly TranscriptItem[]): string[] {
  return items.filter((i) => i.kind === "tool" && i.status === "awaiting_approval").map((i) => i.id);
}

/** Closes what was open when the window went away (cards, streaming text), in place. */
export function closeInterrupted(items: TranscriptItem[], endedAt: number): void {
  for (const item of items) {
    if (item.kind === "assistant" && item.streaming) item.streaming = false;
    if (item.kind !== "tool") continue;
    if (item.status === "streaming" || item.status === "running" || item.status === "awaiting_approval") {
      item.result ??=
        item.status === "awaiting_approval"
          ? item.question
            ? "Interrupted while waiting for your answer. Resume asks again."
            : "Interrupted while waiting for your approval; nothing ran. Resume asks again."
          : "Interrupted: the window closed before this finished. On resume the model is told it did not complete.";
      item.status = "cancelled";
      item.endedAt = endedAt;
      if (item.proposal?.outcome === "pending")
        item.proposal = { ...item.proposal, outcome: "rejected", reason: "interrupted" };
    }
    if (item.children) closeInterrupted(item.children, endedAt);
  }
}

/**
 * A saved task opened again: its chat state (what was open closed), the calls to ask again on
 * resume, and, when a reload cut it off, the notice saying where it stopped.
 */
export function reopened(
  saved: SavedTask,
  now: number,
): { state: ChatState; askAgain: string[]; interruptedNotice?: string } {
  const interrupted = wasInterrupted(saved.status);
  const where = whereItStopped(saved.items, saved.runState);
  const askAgain = interrupted ? awaitingApproval(saved.items) : [];
  closeInterrupted(saved.items, now);
  const state: ChatState = {
    ...initialChatState(),
    taskId: saved.id,
    title: saved.title,
    status: interrupted ? "interrupted" : saved.status,
    items: saved.items,
    todos: saved.todos,
    usage: saved.usage,
    alwaysAllowed: saved.alwaysAllowed,
    mode: saved.runState?.mode ?? "act",
    // Saved by this version or written by hand: kept only when well-formed (the agent's name is checked again when it runs).
    agent: typeof saved.agent === "string" && saved.agent.length <= 64 ? saved.agent : null,
    rules: Array.isArray(saved.rules) ? saved.rules.filter((r): r is string => typeof r === "string") : [],
  };
  if (!interrupted) return { state, askAgain };
  return {
    state,
    askAgain,
    interruptedNotice: `This task stopped ${where} when the window was reloaded or closed. Resume to continue from there.`,
  };
}
