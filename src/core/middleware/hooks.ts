import * as nodePath from "node:path";
import type { CommandSandbox } from "../executor/sandbox";
import { claudeToolName, matchesTool, type HookDefinition, type HookEvent } from "../hooks/hookConfig";
import { combinedDecision, contextOf, hookOutcome, type HookOutcome } from "../hooks/hookOutcome";
import { runHookProcess } from "../hooks/runHook";
import type { ToolResult } from "../tools/tool";
import type { Middleware, RunContext } from "./types";
import { toolError } from "./types";

export interface HooksOptions {
  /** Only hooks the person's trust allows: their own, and a workspace's once approved. */
  hooks: readonly HookDefinition[];
  /** The task's folder (its worktree for a worktree task): hooks run here. */
  cwd: string;
  /** The task's id, given to hooks as `session_id`. */
  sessionId: string;
  /** Workspace hooks run inside it; the person's own hooks run as written. */
  sandbox?: CommandSandbox;
}

/** Stop hooks may send the model back this many times in one run; then the run ends anyway. */
export const MAX_STOP_CONTINUATIONS = 3;

interface RunHookState {
  started: boolean;
  stopContinuations: number;
  /** A hook said `continue: false`: the run ends before its next model call, saying this. */
  stop?: string;
}

/**
 * Runs the person's hooks at fixed points of a task: SessionStart and UserPromptSubmit before the
 * run's first model call, PreToolUse and PostToolUse around each tool call (outside the
 * approvals, so a block comes before anyone is asked and a person's allow can skip the
 * question), Stop when the model gives its final answer. Each run is reported (`hook_ran`).
 */
export function hooksMiddleware(options: HooksOptions): Middleware {
  const runs = new WeakMap<RunContext, RunHookState>();
  const stateOf = (ctx: RunContext) => {
    let s = runs.get(ctx);
    if (!s) runs.set(ctx, (s = { started: false, stopContinuations: 0 }));
    return s;
  };

  const fire = async (
    event: HookEvent,
    ctx: RunContext,
    input: Record<string, unknown>,
    toolName?: string,
  ): Promise<HookOutcome[]> => {
    const matching = options.hooks.filter(
      (h) => h.event === event && (toolName === undefined || matchesTool(h, toolName)),
    );
    if (matching.length === 0) return [];
    const outcomes = await Promise.all(
      matching.map(async (hook) => {
        const named =
          toolName !== undefined ? { tool_name: hook.dialect === "claude" ? claudeToolName(toolName) : toolName } : {};
        const run = await runHookProcess(hook.command, {
          cwd: options.cwd,
          timeoutMs: hook.timeoutMs,
          signal: ctx.signal,
          input: { session_id: options.sessionId, cwd: options.cwd, hook_event_name: event, ...named, ...input },
          ...(hook.origin === "workspace" && options.sandbox ? { sandbox: options.sandbox } : {}),
        });
        return hookOutcome(hook, run);
      }),
    );
    for (const o of outcomes) {
      ctx.emit({
        type: "hook_ran",
        event,
        command: o.hook.command,
        origin: o.hook.origin,
        durationMs: o.durationMs,
        decision: o.decision,
        ...(toolName ? { toolName } : {}),
        ...(o.reason || o.warning || o.stop
          ? { message: [o.stop, o.warning ?? o.reason].filter(Boolean).join(" ") }
          : {}),
      });
    }
    const stopping = outcomes.find((o) => o.stop);
    if (stopping && !stateOf(ctx).stop) stateOf(ctx).stop = stopping.stop;
    return outcomes;
  };

  return {
    name: "hooks",

    async beforeModel(ctx) {
      if (ctx.subagentType) return undefined;
      const run = stateOf(ctx);
      if (run.stop) return { stop: run.stop };
      if (run.started) return undefined;
      run.started = true;
      const messages = ctx.state.messages;
      const last = messages.at(-1);
      const added: string[] = [];
      if (messages.length <= 1) {
        const session = contextOf("SessionStart", await fire("SessionStart", ctx, { source: "startup" }));
        if (run.stop) return { stop: run.stop };
        if (session) added.push(session);
      }
      if (last?.role === "user" && last.content.trim()) {
        const outcomes = await fire("UserPromptSubmit", ctx, { prompt: last.content });
        const blocked = outcomes.find((o) => o.decision === "block");
        if (blocked || run.stop) {
          // The prompt is not sent: it leaves the conversation, and the person is told why.
          messages.pop();
          return {
            stop: blocked
              ? `Your message was not sent: the UserPromptSubmit hook "${blocked.hook.command}" blocked it. ${blocked.reason ?? ""}`.trim()
              : `Your message was not sent. ${run.stop}`,
          };
        }
        const context = contextOf("UserPromptSubmit", outcomes);
        if (context) added.push(context);
      }
      if (added.length)
        messages.push({ role: "user", content: `<hook-context>\n${added.join("\n\n")}\n</hook-context>` });
      return undefined;
    },

    async wrapToolCall(call, ctx, next) {
      const run = stateOf(ctx);
      if (run.stop) return toolError(`Not run: ${run.stop}`, { hookBlocked: true });
      const pre = await fire(
        "PreToolUse",
        ctx,
        { tool_input: hookToolInput(call.args, options.cwd), tool_use_id: call.id },
        call.name,
      );
      if (run.stop) return toolError(`Not run: ${run.stop}`, { hookBlocked: true });
      const decided = combinedDecision(pre);
      const preContext = contextOf("PreToolUse", pre);
      if (decided?.decision === "block") {
        return toolError(
          `A PreToolUse hook refused this call, so it did not run. The hook said:\n${decided.reason ?? ""}`,
          { hookBlocked: true },
        );
      }
      if (decided?.decision === "ask" || decided?.decision === "allow")
        call.hookDecision = {
          decision: decided.decision,
          reason: decided.reason ?? `the hook "${decided.hook.command}"`,
        };
      const changed = pre.find((o) => o.updatedInput);
      if (changed?.updatedInput) {
        const parsed = call.tool.schema.safeParse(fromHookToolInput(changed.updatedInput, options.cwd));
        if (!parsed.success) {
          return toolError(
            `The PreToolUse hook "${changed.hook.command}" changed this call's arguments to ones ${call.name} does not take (${parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ")}), so it did not run. Fix the hook's updatedInput.`,
            { hookBlocked: true },
          );
        }
        call.args = parsed.data as Record<string, unknown>;
        // A repository's hook may not slip a different call past the person: a changed call is asked.
        if (changed.hook.origin === "workspace")
          call.hookDecision = {
            decision: "ask",
            reason: `the repository's hook "${changed.hook.command}" changed this call's arguments`,
          };
      }
      const result = await next(call);
      // A call the person rejected, or a deny pattern refused, did not run: nothing to follow up.
      if (result.details?.rejected || result.details?.denied)
        return preContext ? withPostHooks(result, [], preContext) : result;
      const post = await fire(
        "PostToolUse",
        ctx,
        {
          tool_input: hookToolInput(call.args, options.cwd),
          tool_use_id: call.id,
          tool_response: { content: result.content, is_error: result.isError === true },
        },
        call.name,
      );
      return withPostHooks(result, post, preContext);
    },

    async beforeFinish(ctx) {
      if (ctx.subagentType) return undefined;
      const run = stateOf(ctx);
      const outcomes = await fire("Stop", ctx, { stop_hook_active: run.stopContinuations > 0 });
      const blocked = outcomes.find((o) => o.decision === "block");
      // `continue: false` wins over a block: the task ends.
      if (!blocked || run.stop) return undefined;
      if (run.stopContinuations >= MAX_STOP_CONTINUATIONS) {
        ctx.emit({
          type: "warning",
          code: "continued",
          message: `Stop hooks sent the task back ${MAX_STOP_CONTINUATIONS} times; it ends here. Check the hook "${blocked.hook.command}".`,
        });
        return undefined;
      }
      run.stopContinuations++;
      return {
        text: `A Stop hook ("${blocked.hook.command}") did not let the task end yet. It said:\n${blocked.reason ?? ""}\nDo what it asks, then answer again.`,
        note: `The Stop hook "${blocked.hook.command}" kept the task going: ${(blocked.reason ?? "").split("\n")[0]}`,
      };
    },
  };
}

function withPostHooks(result: ToolResult, post: readonly HookOutcome[], preContext: string | undefined): ToolResult {
  const notes: string[] = [];
  if (preContext) notes.push(preContext);
  for (const o of post) {
    if (o.decision === "block") notes.push(`The PostToolUse hook "${o.hook.command}" objected:\n${o.reason ?? ""}`);
  }
  const postContext = contextOf("PostToolUse", post);
  if (postContext) notes.push(postContext);
  return notes.length ? { ...result, content: `${result.content}\n\n${notes.join("\n\n")}` } : result;
}

/** A hook's `updatedInput` back in the workspace's terms: paths under the task's folder made virtual again. */
export function fromHookToolInput(input: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  for (const key of ["file_path", "path"]) {
    const v = out[key];
    if (typeof v === "string" && (v === cwd || v.startsWith(cwd + nodePath.sep)))
      out[key] = `/${nodePath.relative(cwd, v).split(nodePath.sep).join("/")}`;
  }
  return out;
}

/** The call's arguments as a hook reads them: workspace paths made real (`/src/a.ts` → `<cwd>/src/a.ts`). */
export function hookToolInput(args: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const key of ["file_path", "path"]) {
    const v = out[key];
    if (typeof v === "string" && v.startsWith("/") && !v.startsWith(cwd + nodePath.sep) && !v.startsWith("/memories/"))
      out[key] = nodePath.join(cwd, v);
  }
  return out;
}
