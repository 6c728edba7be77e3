import type { RunState, Todo } from "../run/runState";
import type { Tool } from "../tools/tool";
import { toolError, type Middleware, type RunContext } from "./types";

/** A plan longer than this is cut (a model that writes a megabyte of plan). */
export const MAX_PLAN_CHARS = 64_000;
const MAX_PLAN_TODOS = 30;
/**
 * Tools of kind "other" that change nothing; `task` runs its subagent in Plan mode too, and
 * `report_finding` (a review's, core/review/) only records a finding.
 */
const CHANGES_NOTHING = new Set(["write_todos", "ask_user", "task", "web_fetch", "report_finding"]);

const PLAN_PROMPT = `# Plan mode
You are in Plan mode: look around with the read-only tools, ask the person (ask_user) what you cannot find out, and change nothing. Writing, editing and running commands are not available. End with the plan as your final answer, in markdown:
## Goal (one or two sentences)
## Steps (a numbered list, one change per step)
## Files (the files you expect to change or create)
## Risks (what could go wrong, what to check)
The person reads it, may edit it, and starts it.`;

const SUBAGENT_PROMPT = "You run in Plan mode: read and search only; nothing may be changed. Report what you found.";

/** Whether a tool may run in Plan mode: read-only tools and the few that change nothing. */
export function changesNothing(tool: Pick<Tool, "name" | "kind">): boolean {
  return tool.kind === "read" || CHANGES_NOTHING.has(tool.name);
}

/**
 * While `active`, each request offers only the tools that change nothing and a call to any other
 * (made up by the model) is refused with `refusal`: Plan mode's guard, and a review's.
 */
export function changeNothingGuard(o: {
  tools: () => ReadonlyMap<string, Tool>;
  active: (ctx: RunContext) => boolean;
  refusal: (toolName: string) => string;
}): Pick<Middleware, "wrapModelCall" | "wrapToolCall"> {
  return {
    wrapModelCall(call, ctx, next) {
      if (!o.active(ctx)) return next(call);
      const all = o.tools();
      return next({
        ...call,
        tools: call.tools.filter((spec) => {
          const tool = all.get(spec.name);
          return tool !== undefined && changesNothing(tool);
        }),
      });
    },
    wrapToolCall(call, ctx, next) {
      if (!o.active(ctx) || changesNothing(call.tool)) return next(call);
      return Promise.resolve(toolError(o.refusal(call.name)));
    },
  };
}

/**
 * Plan mode (`state.mode === "plan"`): each request offers only the tools that change nothing,
 * a call to any other (made up by the model) is refused, and the final answer is kept as the
 * task's plan (`plan_proposed`). `tools` is read per call (the agent's tools are built later).
 */
export function planModeMiddleware(tools: () => ReadonlyMap<string, Tool>): Middleware {
  return {
    name: "planMode",
    systemPrompt: (ctx) =>
      ctx.state.mode === "plan" ? (ctx.subagentType === undefined ? PLAN_PROMPT : SUBAGENT_PROMPT) : undefined,
    ...changeNothingGuard({
      tools,
      active: (ctx) => ctx.state.mode === "plan",
      refusal: (name) =>
        `Not run: the task is in Plan mode, where nothing may be changed (${name} is not available). Finish the plan as your final answer; the person starts it when they approve it.`,
    }),
    beforeFinish(ctx) {
      if (ctx.state.mode !== "plan" || ctx.subagentType !== undefined) return undefined;
      const last = ctx.state.messages.at(-1);
      const written = last?.role === "assistant" ? last.content.trim() : "";
      if (!written) return undefined;
      const capped = written.length > MAX_PLAN_CHARS;
      const text = capped
        ? `${written.slice(0, MAX_PLAN_CHARS)}\n\n[The plan was cut at ${MAX_PLAN_CHARS.toLocaleString("en")} characters.]`
        : written;
      ctx.state.plan = { text, status: "proposed" };
      ctx.emit({ type: "plan_proposed", text, capped });
      return undefined;
    },
  };
}

/** The plan's steps as todos: the numbered items (or, without any, the bullets) of its Steps section, else of the whole plan. */
export function planTodos(plan: string): Todo[] {
  const lines = plan.split(/\r?\n/);
  const heading = lines.findIndex((l) => /^#{1,6}\s+steps\b/i.test(l.trim()));
  const section = heading >= 0 ? lines.slice(heading + 1, nextHeading(lines, heading + 1)) : lines;
  const numbered = section.map((l) => /^\s{0,3}\d+[.)]\s+(.+)$/.exec(l)?.[1]).filter((s): s is string => !!s);
  const bullets = section.map((l) => /^\s{0,3}[-*+]\s+(.+)$/.exec(l)?.[1]).filter((s): s is string => !!s);
  const items = numbered.length > 0 ? numbered : bullets;
  return items
    .slice(0, MAX_PLAN_TODOS)
    .map((content) => ({ content: content.trim().slice(0, 500), status: "pending" as const }));
}

function nextHeading(lines: readonly string[], from: number): number {
  const i = lines.findIndex((l, index) => index >= from && /^#{1,6}\s/.test(l.trim()));
  return i < 0 ? lines.length : i;
}

/**
 * Starts a proposed plan (the person's edits in `text`): the state switches to Act with the
 * plan's steps as its todos; the returned message carries the plan into the model's context.
 */
export function startPlan(state: RunState, text?: string): { state: RunState; input: string } | { error: string } {
  const plan = (text ?? state.plan?.text ?? "").trim();
  if (!plan)
    return { error: "This task has no plan to start. Ask for one in Plan mode first (/plan or fathom run --plan)." };
  const capped = plan.length > MAX_PLAN_CHARS ? plan.slice(0, MAX_PLAN_CHARS) : plan;
  const todos = planTodos(capped);
  const next: RunState = {
    ...state,
    mode: "act",
    plan: { text: capped, status: "started" },
    todos: todos.length > 0 ? todos : state.todos,
  };
  const edited = state.plan !== undefined && capped !== state.plan.text;
  const input = `The person ${edited ? "edited and " : ""}approved this plan. Carry it out now, step by step, keeping the todo list current (it holds the plan's steps):\n\n${capped}`;
  return { state: next, input };
}
