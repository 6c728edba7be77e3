import type { z } from "zod";
import type { ChatMessage, ToolCall, ToolSpec } from "../model/types";
import type { Tool, ToolResult } from "../tools/tool";
import type { AgentToolContext, Middleware, NestedCall, RunContext, ToolCallRequest } from "../middleware/types";
import { toolError } from "../middleware/types";
import { repairCall } from "./callRepair";
import type { RepetitionGuard } from "./repetitionGuard";
import { CYCLE_STOP_AT, REPEAT_STOP_AT } from "./repetitionGuard";

export type ToolMessage = Extract<ChatMessage, { role: "tool" }>;

export interface CallOutcome {
  message: ToolMessage;
  /** The person rejected it: not a failure of the model's, so it does not count toward the cap. */
  rejected: boolean;
}

export interface TurnOutcome {
  outcomes: CallOutcome[];
  /** Set when the repetition guard stopped a call. */
  repetition?: string;
  /** Set when a call was answered from an identical earlier call's result (the model is going round). */
  reused?: boolean;
}

export const CANCELLED_RESULT = "Not run: the task was cancelled before this call started.";

/** Calls whose result an identical call may be answered with while nothing is written or run (the small-model profile). */
const REUSABLE = new Set(["ls", "read_file", "glob", "grep", "execute"]);
export const REUSED_NOTE = "[Note] The same call as before: the same result. Use it.";

export interface ToolRunnerOptions {
  /** The schemas the model was given, by tool (repair reads them; a failed call gets its schema back). */
  specs?: ReadonlyMap<string, ToolSpec>;
  /** Answer an identical repeated call from its earlier result (the small-model profile). */
  reuseResults?: boolean;
  /** A loop the guard stops ends with the model's answer, not a stop (the loop then offers only the answer). */
  repeatEndsWithAnswer?: boolean;
}

/**
 * Runs one turn's tool calls. Calls with side effects run one at a time, in order; neighbouring
 * read-only calls and `task` calls run together. Results come back in call order, one per call.
 */
export class ToolRunner {
  private readonly handler: (call: ToolCallRequest) => Promise<ToolResult>;
  /** Tools whose schema has already gone back to the model with an error (once each). */
  private readonly schemaShown = new Set<string>();

  constructor(
    private readonly tools: ReadonlyMap<string, Tool>,
    middleware: readonly Middleware[],
    private readonly ctx: RunContext,
    private readonly guard: RepetitionGuard,
    private readonly options: ToolRunnerOptions = {},
  ) {
    let handler = (call: ToolCallRequest) => this.invoke(call);
    for (let i = middleware.length - 1; i >= 0; i--) {
      const mw = middleware[i]!;
      if (!mw.wrapToolCall) continue;
      const next = handler;
      handler = (call) => mw.wrapToolCall!(call, ctx, next);
    }
    this.handler = handler;
  }

  async runTurn(calls: readonly ToolCall[]): Promise<TurnOutcome> {
    const outcomes: CallOutcome[] = new Array(calls.length);
    let repetition: string | undefined;
    let reused = false;
    for (const batch of this.batches(calls)) {
      const run = async (index: number) => {
        const call = calls[index]!;
        const result = await this.runOne(call, calls);
        if (result.details?.reused) reused = true;
        if (result.details?.repetitionStop) {
          const period = result.details.cyclePeriod;
          repetition =
            typeof period === "number"
              ? `The model went round the same ${period} calls ${CYCLE_STOP_AT} times in a row (they undo each other).`
              : `The model repeated the call ${call.name} with the same arguments ${REPEAT_STOP_AT} times.`;
        }
        outcomes[index] = {
          message: {
            role: "tool",
            toolCallId: call.id,
            toolName: call.name,
            content: result.content,
            ...(result.isError ? { isError: true } : {}),
            ...(result.images?.length ? { images: result.images } : {}),
          },
          rejected: result.details?.rejected === true,
        };
      };
      if (batch.length === 1) await run(batch[0]!);
      else await Promise.all(batch.map(run));
    }
    return { outcomes, ...(repetition ? { repetition } : {}), ...(reused ? { reused } : {}) };
  }

  /** Groups call indexes: each side-effecting call alone, runs of concurrent-safe calls together. */
  private batches(calls: readonly ToolCall[]): number[][] {
    const batches: number[][] = [];
    let group: number[] = [];
    calls.forEach((call, index) => {
      const tool = this.tools.get(call.name);
      const concurrent = !tool || tool.kind === "read" || tool.name === "task";
      if (concurrent) {
        group.push(index);
        return;
      }
      if (group.length) batches.push(group);
      group = [];
      batches.push([index]);
    });
    if (group.length) batches.push(group);
    return batches;
  }

  private async runOne(call: ToolCall, turn: readonly ToolCall[]): Promise<ToolResult> {
    const { ctx } = this;
    let args: Record<string, unknown> | undefined;
    let result: ToolResult;
    let warning: string | undefined;
    const prepared = this.prepare(call);
    if ("error" in prepared) {
      result = prepared.error;
    } else if (ctx.signal.aborted) {
      args = prepared.args;
      result = toolError(CANCELLED_RESULT, { cancelled: true });
    } else {
      args = prepared.args;
      const verdict = this.guard.record(call.name, args);
      if (verdict.verdict === "stop") {
        const then = this.options.repeatEndsWithAnswer
          ? "Now answer the person with what you have."
          : "The task stops here.";
        result = toolError(
          verdict.period
            ? `Not run: you have made the same ${verdict.period} calls ${verdict.count} times in a row; they undo each other. ${then}`
            : `Not run: you have made this exact call ${verdict.count} times and its result will not change. ${then}`,
          { repetitionStop: true, ...(verdict.period ? { cyclePeriod: verdict.period } : {}) },
        );
      } else {
        if (verdict.verdict === "warn" && verdict.period) {
          warning = `Your last ${verdict.period * verdict.count} calls are the same ${verdict.period} calls made ${verdict.count} times in a row: they undo each other, so nothing moves. Stop and rethink: read the current state, decide what the end result must be, and make one change towards it. If it happens again the task stops.`;
          ctx.emit({
            type: "warning",
            code: "repetition",
            message: `The same ${verdict.period} calls were made ${verdict.count} times in a row`,
          });
        } else if (verdict.verdict === "warn") {
          warning = `You have made this exact call ${verdict.count} times; repeating it will not give a different result. Try a different approach. At ${REPEAT_STOP_AT} the task stops.`;
          ctx.emit({
            type: "warning",
            code: "repetition",
            message: `${call.name} called ${verdict.count} times with the same arguments`,
          });
        }
        const reusable = this.options.reuseResults === true && REUSABLE.has(call.name);
        const earlier = reusable ? this.guard.previousResult(call.name, args) : undefined;
        if (earlier) {
          result = {
            content: `${earlier.content}\n\n${REUSED_NOTE}`,
            ...(earlier.isError ? { isError: true } : {}),
            details: { reused: true },
          };
        } else {
          const request: ToolCallRequest = { id: call.id, name: call.name, tool: prepared.tool, args, turn };
          result = await this.safely(request);
          args = request.args;
          if (reusable && !result.details?.cancelled) this.guard.remember(call.name, args, result);
          if (!result.isError && (prepared.tool.kind === "edit" || prepared.tool.kind === "execute")) {
            this.guard.workspaceChanged(call.name, args);
          }
        }
      }
    }
    if (prepared && "repairs" in prepared && prepared.repairs)
      result = {
        ...result,
        content: `${result.content}\n\n[Note] ${prepared.repairs}`,
        details: { ...result.details, repaired: prepared.repairs },
      };
    if (warning) result = { ...result, content: `${result.content}\n\n[Warning] ${warning}` };
    ctx.emit({
      type: "tool_call_finished",
      toolCallId: call.id,
      toolName: call.name,
      args,
      content: result.content,
      isError: result.isError === true,
      ...(result.details ? { details: result.details } : {}),
    });
    return result;
  }

  /**
   * Repairs (./callRepair.ts), parses and validates; every failure becomes a result telling the
   * model what was wrong, with the tool's schema the first time. A repaired call is written back
   * into the history as it was read, so the model sees its call in the right form.
   */
  private prepare(
    call: ToolCall,
  ): { tool: Tool; args: Record<string, unknown>; repairs?: string } | { error: ToolResult } {
    const specs =
      this.options.specs ??
      new Map<string, ToolSpec>(
        [...this.tools.values()].map((t) => [t.name, { name: t.name, description: t.description, parameters: {} }]),
      );
    const repaired = repairCall(call.name, call.arguments, specs);
    const tool = this.tools.get(repaired.name);
    if (!tool) {
      const names = [...this.tools.keys()].join(", ");
      return { error: toolError(`Error: there is no tool named "${call.name}". Available tools: ${names}.`) };
    }
    if (typeof repaired.args === "string") {
      let reason = "";
      try {
        JSON.parse(call.arguments);
      } catch (error) {
        reason = ` (${(error as Error).message})`;
      }
      return {
        error: toolError(
          `Error: the arguments for ${tool.name} are not valid JSON${reason}. Send one JSON object matching the tool's schema.${this.schemaOnce(tool.name)}`,
        ),
      };
    }
    const parsed = tool.schema.safeParse(repaired.args);
    if (!parsed.success)
      return { error: toolError(`${describeIssues(tool.name, parsed.error)}${this.schemaOnce(tool.name)}`) };
    const args = parsed.data;
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return {
        error: toolError(`Error: the arguments for ${tool.name} must be a JSON object.${this.schemaOnce(tool.name)}`),
      };
    }
    if (repaired.fixes.length === 0) return { tool, args: args as Record<string, unknown> };
    call.name = tool.name;
    call.arguments = JSON.stringify(repaired.args);
    const named = repaired.fixes.filter((f) => !/ given as /.test(f));
    return {
      tool,
      args: args as Record<string, unknown>,
      ...(named.length
        ? {
            repairs: `Your call was read as ${tool.name} with ${call.arguments} (${named.join("; ")}); write it that way.`,
          }
        : {}),
    };
  }

  /** The tool's schema, the first time one of its calls fails in this run. */
  private schemaOnce(name: string): string {
    const spec = this.options.specs?.get(name);
    if (!spec || this.schemaShown.has(name)) return "";
    this.schemaShown.add(name);
    return `\nIts arguments, as JSON Schema: ${JSON.stringify(spec.parameters)}`;
  }

  private async safely(request: ToolCallRequest): Promise<ToolResult> {
    try {
      return await this.handler(request);
    } catch (error) {
      if (this.ctx.signal.aborted) return toolError("The call was cancelled while it ran.", { cancelled: true });
      return toolError(`Error: ${request.name} failed unexpectedly: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  /**
   * A call a tool makes on the model's behalf (rename_symbol's edit of one file): the whole
   * middleware stack, and the events of a call of its own, so it is asked, reviewed,
   * checkpointed and shown as any edit is. The repetition guard does not count it.
   */
  private async runNested(call: NestedCall): Promise<ToolResult> {
    const { ctx } = this;
    ctx.emit({ type: "tool_call_started", toolCallId: call.id, toolName: call.name });
    ctx.emit({ type: "tool_call_arguments", toolCallId: call.id, delta: JSON.stringify(call.args) });
    const request: ToolCallRequest = { ...call, turn: [] };
    const result = ctx.signal.aborted ? toolError(CANCELLED_RESULT, { cancelled: true }) : await this.safely(request);
    if (!result.isError && call.tool.kind === "edit") this.guard.workspaceChanged(call.name, request.args);
    ctx.emit({
      type: "tool_call_finished",
      toolCallId: call.id,
      toolName: call.name,
      args: request.args,
      content: result.content,
      isError: result.isError === true,
      ...(result.details ? { details: result.details } : {}),
    });
    return result;
  }

  /** The innermost handler: writes an approved change, or runs the tool. */
  private invoke(call: ToolCallRequest): Promise<ToolResult> {
    const ctx: AgentToolContext = {
      signal: this.ctx.signal,
      toolCallId: call.id,
      onProgress: (chunk) => this.ctx.emit({ type: "tool_output", toolCallId: call.id, chunk }),
      run: this.ctx,
      runNested: (nested) => this.runNested(nested),
    };
    if (call.proposal && call.tool.applyChange) return call.tool.applyChange(call.proposal, ctx);
    return call.tool.run(call.args, ctx);
  }
}

function describeIssues(toolName: string, error: z.ZodError): string {
  const lines = error.issues.slice(0, 8).map((issue) => {
    const where = issue.path.length ? issue.path.map(String).join(".") : "(arguments)";
    return `- ${where}: ${issue.message}`;
  });
  return `Error: invalid arguments for ${toolName}:\n${lines.join("\n")}\nFix the arguments and call ${toolName} again.`;
}
