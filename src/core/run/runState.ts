import type { ChatMessage, Usage } from "../model/types";

// The state of a run, apart from its events: tools, middleware and the model's adapters read it,
// so it depends on nothing of theirs (the events name tools' and approvals' types).

export type TodoStatus = "pending" | "in_progress" | "completed";
export interface Todo {
  content: string;
  status: TodoStatus;
}

/**
 * The whole state of a task, plain JSON: save it with JSON.stringify and pass it back to `run`
 * to resume. Tool calls left without a result (a crash, a cancel) are patched on resume.
 */
export interface RunState {
  version: 1;
  messages: ChatMessage[];
  todos: Todo[];
  usage: Usage;
  costUsd: number;
  /** Model calls made so far in this task. */
  steps: number;
  /** The run's scratch area (a StateBackend): evicted large tool results live here. */
  files: Record<string, string>;
  /** "plan": only tools that change nothing are offered (absent: act). */
  mode?: TaskMode;
  /** Web domains the person allowed `web_fetch` to read in this task (asked once each). */
  webDomains?: string[];
  /** The plan a plan-mode run ended with, and whether the person started it. */
  plan?: { text: string; status: "proposed" | "started" };
}

export type TaskMode = "plan" | "act";

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

export function addUsage(into: Usage, more: Usage): void {
  into.inputTokens += more.inputTokens;
  into.outputTokens += more.outputTokens;
  into.cacheReadTokens += more.cacheReadTokens;
  into.cacheWriteTokens += more.cacheWriteTokens;
}

export function newRunState(): RunState {
  return { version: 1, messages: [], todos: [], usage: emptyUsage(), costUsd: 0, steps: 0, files: {} };
}

/**
 * Accepts a state that came back from disk or a webview. Returns a fresh copy, or an error
 * saying what is wrong (so a bad file loses nothing: the caller can keep it and report).
 */
export function parseRunState(value: unknown): { state: RunState } | { error: string } {
  if (typeof value !== "object" || value === null) return { error: "saved state is not an object" };
  const v = value as Partial<RunState>;
  if (v.version !== 1) return { error: `saved state has version ${String(v.version)}; this Fathom reads version 1` };
  if (!Array.isArray(v.messages)) return { error: "saved state has no messages array" };
  for (const [i, m] of v.messages.entries()) {
    const role = (m as { role?: unknown } | null)?.role;
    if (role !== "user" && role !== "assistant" && role !== "tool") {
      return { error: `saved state message ${i} has unknown role ${JSON.stringify(role)}` };
    }
  }
  const copy = structuredClone(v) as RunState;
  copy.todos = Array.isArray(copy.todos) ? copy.todos : [];
  copy.usage = { ...emptyUsage(), ...(copy.usage ?? {}) };
  copy.costUsd = typeof copy.costUsd === "number" ? copy.costUsd : 0;
  copy.steps = typeof copy.steps === "number" ? copy.steps : 0;
  copy.files = typeof copy.files === "object" && copy.files !== null ? copy.files : {};
  return { state: copy };
}
