import { z } from "zod";
import { defineTool, type ToolResult } from "../tools/tool";
import type { ChatModel } from "../model/types";
import type { AgentEvent } from "../run/events";
import type { TaskMode } from "../run/runState";
import { MAX_QUEUED_SUBAGENTS, type TaskBudget } from "../run/taskBudget";
import type { Middleware, RunContext } from "./types";
import { runContextOf, toolError } from "./types";

export interface SubagentSpec {
  /** The `subagent_type` the model passes. */
  name: string;
  /** When to use it (the model sees this). */
  description: string;
  /** Its instructions, added to the base system prompt. */
  systemPrompt: string;
  /** Names of the tools it may use; default: all of the main agent's except `task`. */
  tools?: readonly string[];
  /** Defaults to the main agent's model. */
  model?: ChatModel;
}

export const GENERAL_PURPOSE_SUBAGENT: SubagentSpec = {
  name: "general-purpose",
  description: "Any self-contained task: research, multi-file investigation, a well-specified change.",
  systemPrompt:
    "You are a subagent doing one delegated task. Work independently with your tools, then reply with a concise, complete report: findings, changes made (paths), anything left undone. That reply is all the main agent sees.",
};

/**
 * Runs a subagent with a fresh history and todo list, spending from `budget`; yields its events
 * (ending with `done`).
 */
export type SubagentRunner = (
  spec: SubagentSpec,
  description: string,
  signal: AbortSignal,
  budget: TaskBudget,
  parentFiles: Readonly<Record<string, string>>,
  mode?: TaskMode,
) => AsyncIterable<AgentEvent>;

export interface SubagentsOptions {
  subagents: readonly SubagentSpec[];
  runSubagent: SubagentRunner;
}

/** `task`: delegate to a subagent; several `task` calls in one turn run in parallel. */
export function subagentsMiddleware(options: SubagentsOptions): Middleware {
  const specs = new Map(options.subagents.map((s) => [s.name, s]));
  const names = [...specs.keys()];
  if (names.length === 0) return { name: "subagents" };
  const taskTool = defineTool({
    name: "task",
    description:
      "Delegate a self-contained task to a subagent with a fresh context; returns its final report. Put several in one turn to run them in parallel.",
    schema: z.object({
      description: z.string().min(1).describe("The full task: the subagent sees nothing else"),
      subagent_type: z.enum(names as [string, ...string[]]),
    }),
    kind: "other",
    async run({ description, subagent_type }, ctx): Promise<ToolResult> {
      const run = runContextOf(ctx);
      const spec = specs.get(subagent_type);
      if (!run || !spec) return toolError("Error: task can only run inside an agent run.");
      return runTask(options.runSubagent, spec, description, run, ctx.toolCallId, ctx.signal);
    },
  });
  const list = options.subagents.map((s) => `- ${s.name}: ${s.description}`).join("\n");
  return {
    name: "subagents",
    tools: [taskTool],
    systemPrompt: () =>
      `# Subagents\nUse task for independent work that would fill your context (broad searches, separate subtasks). Types:\n${list}`,
  };
}

async function runTask(
  runSubagent: SubagentRunner,
  spec: SubagentSpec,
  description: string,
  parent: RunContext,
  toolCallId: string,
  signal: AbortSignal,
): Promise<ToolResult> {
  const spent = parent.budget.exhausted();
  if (spent)
    return toolError(
      `Not started: the task's budget is spent (${spent.message}). Do not start more subagents; finish with what you have.`,
    );
  const release = await parent.budget.subagentSlot(signal);
  if (!release) {
    return toolError(
      `Not started: ${MAX_QUEUED_SUBAGENTS} subagents are already running or waiting, the most one task may have. ` +
        "Wait for their reports, then start fewer tasks at a time, or combine them.",
    );
  }
  let done: Extract<AgentEvent, { type: "done" }> | undefined;
  try {
    // A subagent of a plan-mode run plans too: it may only read.
    for await (const event of runSubagent(
      spec,
      description,
      signal,
      parent.budget,
      parent.state.files,
      parent.state.mode,
    )) {
      if (event.type === "done") {
        done = event;
        continue;
      }
      parent.emit({ type: "subagent", toolCallId, subagentType: spec.name, event });
    }
  } finally {
    release();
  }
  if (!done) return toolError(`Error: the ${spec.name} subagent ended without a result.`);
  // Its requests already counted against the shared budget as they were made.
  parent.recordUsage(done.state.usage, done.state.costUsd, true);
  const details = { subagentType: spec.name, reason: done.reason, steps: done.state.steps };
  if (done.reason === "completed") {
    return { content: done.finalText.trim() || "(The subagent finished without a report.)", details };
  }
  const last = [...done.state.messages].reverse().find((m) => m.role === "assistant" && m.content.trim());
  return toolError(
    `The ${spec.name} subagent stopped before finishing (${done.reason}${done.message ? `: ${done.message}` : ""}).` +
      (last ? `\nIts last message: ${last.content.slice(0, 2000)}` : ""),
    details,
  );
}
