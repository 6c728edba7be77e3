import {
  ModelError,
  type ChatMessage,
  type ChatModel,
  type ModelFit,
  type ToolCall,
  type ToolSpec,
  type Usage,
} from "../model/types";
import { fitOf } from "../model/wrappedModel";
import type { Tool } from "../tools/tool";
import type { Middleware, ModelCall, ModelTurn, RunContext } from "../middleware/types";
import { type AgentEvent, type DoneReason } from "../run/events";
import { addUsage, type RunState } from "../run/runState";
import { RepetitionGuard } from "./repetitionGuard";
import { RunawayWatch } from "../model/runawayOutput";
import type { SteeringInbox } from "./steering";
import { inSmallProfile, smallToolSpec } from "./smallModelProfile";
import type { TaskBudget } from "../run/taskBudget";
import { ToolRunner } from "./toolRunner";

export interface LoopConfig {
  model: ChatModel;
  tools: ReadonlyMap<string, Tool>;
  toolSpecs: ToolSpec[];
  middleware: readonly Middleware[];
  /** The base prompt; middleware sections are appended per run. */
  systemPrompt: string;
  /** The base prompt of the small-model profile (./smallModelProfile.ts). */
  smallSystemPrompt: string;
  maxSteps: number;
  spendCapUsd?: number;
  /** Dollars for one call's usage (0 when the price is unknown). */
  costOf(usage: Usage): number;
  maxConsecutiveToolErrors: number;
  workspaceRoot: string;
  subagentType?: string;
  /** Tool calls of the saved state's last message to ask the person about again (RunOptions.askAgain). */
  askAgain?: readonly string[];
  /** Messages the person sends while the run works, delivered at the next step boundary. */
  steering?: SteeringInbox;
  /** A subagent's: its parent's scratch files (RunOptions.parentFiles). */
  parentFiles?: Readonly<Record<string, string>>;
}

interface Stop {
  reason: DoneReason;
  message?: string;
}

/**
 * One run of the ReAct loop: call the model, run its tool calls, repeat until it answers without
 * tool calls or a guard stops it. Always ends with exactly one `done` event; never throws.
 */
export async function runLoop(
  config: LoopConfig,
  state: RunState,
  signal: AbortSignal,
  emit: (event: AgentEvent) => void,
  budget: TaskBudget,
): Promise<void> {
  // How the model is driven (tool-call mode, profile): decided once, before the first request.
  const fit = await fitOf(config.model, signal);
  const ctx: RunContext = {
    profile: fit.profile,
    state,
    emit,
    signal,
    model: config.model,
    workspaceRoot: config.workspaceRoot,
    budget,
    recordUsage(usage, costUsd, alreadyBudgeted = false) {
      const cost = costUsd ?? config.costOf(usage);
      addUsage(state.usage, usage);
      state.costUsd += cost;
      if (!alreadyBudgeted) budget.spend(cost);
      emit({ type: "usage", usage, total: { ...state.usage }, costUsd: state.costUsd });
    },
    ...(config.subagentType ? { subagentType: config.subagentType } : {}),
    ...(config.parentFiles ? { parentFiles: config.parentFiles } : {}),
  };
  let finalText = "";
  let stop: Stop;
  try {
    const result = await steps(config, ctx, fit);
    stop = result.stop;
    finalText = result.finalText;
  } catch (error) {
    stop = failure(error, signal, emit);
  }
  emit({ type: "done", reason: stop.reason, finalText, ...(stop.message ? { message: stop.message } : {}), state });
}

/** What the model is offered in this run's profile: the small one keeps only the core tools, described briefly. */
function profileView(config: LoopConfig, fit: ModelFit): { tools: ReadonlyMap<string, Tool>; toolSpecs: ToolSpec[] } {
  if (fit.profile !== "small") return { tools: config.tools, toolSpecs: config.toolSpecs };
  return {
    tools: new Map([...config.tools].filter(([name]) => inSmallProfile(name))),
    toolSpecs: config.toolSpecs.filter((t) => inSmallProfile(t.name)).map(smallToolSpec),
  };
}

async function steps(config: LoopConfig, ctx: RunContext, fit: ModelFit): Promise<{ stop: Stop; finalText: string }> {
  const { state, signal, emit } = ctx;
  const view = profileView(config, fit);
  const system = await systemPromptFor(config, ctx, view.tools);
  const constrained = fit.toolCallMode === "constrained";
  const runner = new ToolRunner(view.tools, config.middleware, ctx, new RepetitionGuard(), {
    specs: new Map(view.toolSpecs.map((t) => [t.name, t])),
    reuseResults: fit.profile === "small",
    repeatEndsWithAnswer: constrained,
  });
  /** A loop the guard stopped: the next request offers only the final answer (constrained mode holds the model to it). */
  let answerNext = false;
  const callModel = composeModelCall(config, ctx);
  const usedIds = new Set(
    state.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [])),
  );
  // Ids this run makes up carry a random tag: a subagent's calls, or a resumed task's, must
  // never collide with the parent's (approvals and the UI are keyed by call id).
  const runTag = Math.random().toString(36).slice(2, 8);
  let consecutiveErrors = 0;
  const waiting = callsToAskAgain(state.messages, config.askAgain);
  if (waiting.length > 0) {
    const { outcomes } = await runner.runTurn(waiting);
    for (const outcome of outcomes) state.messages.push(outcome.message);
    if (signal.aborted) return { stop: cancelled(), finalText: "" };
  }
  for (let step = 1; ; step++) {
    if (signal.aborted) return { stop: cancelled(), finalText: "" };
    deliverSteering(config.steering, ctx);
    // Checked before every request: subagents spend from the same budget.
    const spent = ctx.budget.exhausted();
    if (spent) return { stop: spent, finalText: "" };

    for (const mw of config.middleware) {
      const halt = await mw.beforeModel?.(ctx);
      if (halt) return { stop: { reason: "error", message: halt.stop }, finalText: "" };
    }
    if (signal.aborted) return { stop: cancelled(), finalText: "" };
    const spentMeanwhile = ctx.budget.exhausted();
    if (spentMeanwhile) return { stop: spentMeanwhile, finalText: "" };
    ctx.budget.takeStep();
    state.steps++;
    emit({ type: "step_started", step: state.steps });
    const answerOnly = answerNext || ctx.budget.stepsUsed >= ctx.budget.maxSteps;
    const turn = await callModel({
      system,
      messages: state.messages,
      tools: view.toolSpecs,
      ...(answerOnly ? { answerOnly } : {}),
    });
    const message = turn.message;
    if (turn.stopReason === STEERED) {
      // Interrupted by the person's message: what arrived is kept; the next request carries the message.
      if (message.content) state.messages.push({ role: "assistant", content: message.content });
      ctx.recordUsage(turn.usage);
      continue;
    }
    if (turn.stopReason === RUNAWAY) {
      state.messages.push({ role: "assistant", content: message.content });
      ctx.recordUsage(turn.usage);
      return {
        stop: {
          reason: "repetition",
          message:
            "The model's answer went into a loop (the same text over and over), so it was stopped. Send a message to try again; larger models do this less often.",
        },
        finalText: message.content,
      };
    }
    const calls = message.toolCalls ?? [];
    fixToolCallIds(calls, usedIds, `${runTag}_${state.steps}`);
    state.messages.push(calls.length ? message : { role: "assistant", content: message.content });
    ctx.recordUsage(turn.usage);

    if (calls.length === 0) {
      // A message sent as the answer ended: the model reads it before the run ends.
      if ((config.steering?.size ?? 0) > 0) continue;
      const more = await continuation(config.middleware, ctx);
      if (signal.aborted) return { stop: cancelled(), finalText: "" };
      if (!more) return { stop: { reason: "completed" }, finalText: message.content };
      state.messages.push({ role: "user", content: more.text });
      emit({ type: "warning", code: "continued", message: more.note });
      continue;
    }

    const overCap = ctx.budget.exhausted();
    if (overCap?.reason === "spend_cap") {
      for (const call of calls) {
        state.messages.push({
          role: "tool",
          toolCallId: call.id,
          toolName: call.name,
          content: "Not run: the spend cap was reached.",
          isError: true,
        });
      }
      return { stop: overCap, finalText: message.content };
    }

    const { outcomes, repetition, reused } = await runner.runTurn(calls);
    for (const outcome of outcomes) {
      state.messages.push(outcome.message);
      if (outcome.message.isError && !outcome.rejected) consecutiveErrors++;
      else if (!outcome.message.isError) consecutiveErrors = 0;
    }
    if (signal.aborted) return { stop: cancelled(), finalText: "" };
    if (repetition && constrained) {
      // Held to a schema, the model can be made to answer instead of being stopped.
      answerNext = true;
      emit({ type: "warning", code: "repetition", message: `${repetition} Only the final answer is offered next.` });
      continue;
    }
    // A constrained model that repeats a call it has the result of is going round: it answers next.
    if (reused && constrained) answerNext = true;
    if (repetition)
      return { stop: { reason: "repetition", message: `${repetition} Stopped to avoid a loop.` }, finalText: "" };
    if (consecutiveErrors >= config.maxConsecutiveToolErrors) {
      return {
        stop: {
          reason: "tool_failures",
          message: `Stopped after ${consecutiveErrors} tool calls in a row failed. Check the errors above, then send a message to continue.`,
        },
        finalText: "",
      };
    }
  }
}

/** The first middleware that asks to go on after the model's final answer, and with what. */
async function continuation(
  middleware: readonly Middleware[],
  ctx: RunContext,
): Promise<{ text: string; note: string } | undefined> {
  for (const mw of middleware) {
    const more = await mw.beforeFinish?.(ctx);
    if (more?.text.trim()) return more;
  }
  return undefined;
}

/** The base prompt and the sections of middleware whose tools are offered (or that have none: rules). */
async function systemPromptFor(
  config: LoopConfig,
  ctx: RunContext,
  offered: ReadonlyMap<string, Tool>,
): Promise<string> {
  const sections = [ctx.profile === "small" ? config.smallSystemPrompt : config.systemPrompt];
  for (const mw of config.middleware) {
    if (ctx.profile === "small" && mw.tools?.length && !mw.tools.some((t) => offered.has(t.name))) continue;
    const section = await mw.systemPrompt?.(ctx);
    if (section?.trim()) sections.push(section.trim());
  }
  return sections.join("\n\n");
}

/** Middleware wrapModelCall around the streaming call; the innermost call emits deltas. */
function composeModelCall(config: LoopConfig, ctx: RunContext): (call: ModelCall) => Promise<ModelTurn> {
  let handler = (call: ModelCall) => streamTurn(config.model, call, ctx, config.steering);
  for (let i = config.middleware.length - 1; i >= 0; i--) {
    const mw = config.middleware[i]!;
    if (!mw.wrapModelCall) continue;
    const next = handler;
    handler = (call) => mw.wrapModelCall!(call, ctx, next);
  }
  return handler;
}

/** stopReason of a turn whose text went into a loop and was cut (./runawayOutput.ts). */
export const RUNAWAY = "runaway";
/** stopReason of a turn stopped because the person sent a message meanwhile. */
export const STEERED = "steered";

/** The person's messages sent meanwhile become user messages here, where the model reads them next. */
function deliverSteering(inbox: SteeringInbox | undefined, ctx: RunContext): void {
  for (const text of inbox?.take() ?? []) {
    ctx.state.messages.push({ role: "user", content: text });
    ctx.emit({ type: "steered", text });
  }
}

async function streamTurn(
  model: ChatModel,
  call: ModelCall,
  ctx: RunContext,
  steering: SteeringInbox | undefined,
): Promise<ModelTurn> {
  const { emit } = ctx;
  // Our own signal for this call, so a runaway answer can be stopped without cancelling the run.
  const local = new AbortController();
  const forward = () => local.abort(ctx.signal.reason);
  if (ctx.signal.aborted) local.abort(ctx.signal.reason);
  else ctx.signal.addEventListener("abort", forward, { once: true });
  const signal = local.signal;
  const ids = new Map<number, string>();
  const names = new Map<string, string>();
  const watch = new RunawayWatch();
  let partialText = "";
  let steered = false;
  const stopForMessage = steering?.onMessage(() => {
    steered = true;
    local.abort();
  });
  try {
    for await (const event of model.stream({
      system: call.system,
      messages: call.messages,
      tools: call.tools,
      signal,
      ...(call.answerOnly ? { answerOnly: true } : {}),
      ...(call.sampling ? { sampling: call.sampling } : {}),
    })) {
      switch (event.type) {
        case "text_delta": {
          partialText += event.text;
          emit({ type: "text_delta", text: event.text });
          if (call.stopWhen?.(partialText)) {
            // The caller has what it asked for (a middleware's complete answer): the rest is not generated.
            local.abort();
            return {
              message: { role: "assistant", content: partialText },
              usage: roughUsage(partialText),
              stopReason: "end_turn",
            };
          }
          const runaway = watch.push(event.text);
          if (runaway) {
            local.abort();
            return {
              message: { role: "assistant", content: watch.trimmed(runaway) },
              usage: roughUsage(partialText),
              stopReason: RUNAWAY,
            };
          }
          break;
        }
        case "reasoning_delta":
          emit({ type: "reasoning_delta", text: event.text });
          break;
        case "text_reset":
          partialText = event.text;
          emit({ type: "text_replaced", text: event.text });
          break;
        case "notice":
          emit({
            type: "warning",
            code: event.code === "text_tool_calls" ? "text_tool_calls" : "model_adapted",
            message: event.message,
          });
          break;
        case "tool_call_start":
          ids.set(event.index, event.id);
          names.set(event.id, event.name);
          emit({ type: "tool_call_started", toolCallId: event.id, toolName: event.name });
          break;
        case "tool_call_delta": {
          const id = ids.get(event.index);
          if (id !== undefined) emit({ type: "tool_call_arguments", toolCallId: id, delta: event.argumentsDelta });
          break;
        }
        case "retry":
          emit({
            type: "warning",
            code: "model_retry",
            message: `Model call failed (${event.reason}); retry ${event.attempt} in ${Math.round(event.delayMs)} ms`,
          });
          break;
        case "done": {
          const started = new Set(ids.values());
          for (const tc of event.message.toolCalls ?? []) {
            if (!started.has(tc.id)) emit({ type: "tool_call_started", toolCallId: tc.id, toolName: tc.name });
          }
          return { message: event.message, usage: event.usage, stopReason: event.stopReason };
        }
      }
    }
  } catch (error) {
    if (steered && !ctx.signal.aborted) {
      // Calls the model had begun are dropped: their cards close, nothing of them ran.
      for (const [id, toolName] of names)
        emit({
          type: "tool_call_finished",
          toolCallId: id,
          toolName,
          args: undefined,
          content: "Not made: your message interrupted the answer.",
          isError: true,
          details: { interrupted: true },
        });
      return {
        message: { role: "assistant", content: partialText },
        usage: roughUsage(partialText),
        stopReason: STEERED,
      };
    }
    // Keep what the person already saw: a cancelled answer stays in the transcript.
    if (signal.aborted && partialText) ctx.state.messages.push({ role: "assistant", content: partialText });
    throw error;
  } finally {
    ctx.signal.removeEventListener("abort", forward);
    stopForMessage?.();
  }
  throw new ModelError("unknown", "The model's reply ended before it was complete. Try again.");
}

/** Output tokens roughly, for a stream stopped early (the server's count comes only at its end). */
function roughUsage(text: string): ModelTurn["usage"] {
  return { inputTokens: 0, outputTokens: Math.ceil(text.length / 4), cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** Providers should give ids unique in the conversation; a scripted or local model may not. */
function fixToolCallIds(calls: { id: string }[], used: Set<string>, tag: string): void {
  calls.forEach((call, i) => {
    if (!call.id || used.has(call.id)) call.id = `call_${tag}_${i}`;
    used.add(call.id);
  });
}

function cancelled(): Stop {
  return { reason: "cancelled", message: "Cancelled." };
}

function failure(error: unknown, signal: AbortSignal, emit: (event: AgentEvent) => void): Stop {
  if (signal.aborted || (error instanceof ModelError && error.kind === "cancelled")) return cancelled();
  if (error instanceof ModelError) {
    emit({ type: "error", kind: error.kind, message: error.message });
    return { reason: "error", message: error.message };
  }
  const message = `Internal error: ${(error as Error)?.message ?? String(error)}`;
  emit({ type: "error", kind: "internal", message });
  return { reason: "error", message };
}

/** The calls among `ids` of the last message, when it is the model's and none of its calls has a result yet. */
function callsToAskAgain(messages: readonly ChatMessage[], ids: readonly string[] | undefined): ToolCall[] {
  const last = messages.at(-1);
  if (!ids?.length || last?.role !== "assistant" || !last.toolCalls?.length) return [];
  return last.toolCalls.filter((call) => ids.includes(call.id));
}
