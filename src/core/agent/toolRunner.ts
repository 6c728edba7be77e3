import type { z } from "zod";
import type { ChatMessage, ToolCall } from "../model/types";
import type { Tool, ToolResult } from "../tools/tool";
import type { AgentToolContext, Middleware, RunContext, ToolCallRequest } from "../middleware/types";
import { toolError } from "../middleware/types";
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
}

export const CANCELLED_RESULT = "Not run: the task was cancelled before this call started.";

/**
 * Runs one turn's tool calls. Calls with side effects run one at a time, in order; neighbouring
 * read-only calls and `task` calls run together. Results come back in call order, one per call.
 */
export class ToolRunner {
  private readonly handler: (call: ToolCallRequest) => Promise<ToolResult>;

  constructor(
    private readonly tools: ReadonlyMap<string, Tool>,
    middleware: readonly Middleware[],
    private readonly ctx: RunContext,
    private readonly guard: RepetitionGuard,
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
    for (const batch of this.batches(calls)) {
      const run = async (index: number) => {
        const call = calls[index]!;
        const result = await this.runOne(call, calls);
        if (result.details?.repetitionStop) {
          const period = result.details.cyclePeriod;
          repetition =
            typeof period === "number"
              ? `The model went round the same ${period} calls ${CYCLE_STOP_AT} times in a row (they undo each other).`
              : `The model repeated the call ${call.name} with the same arguments ${REPEAT_STOP_AT} times.`;
        }
        outcomes[index] = {
          message: { role: "tool", toolCallId: call.id, toolName: call.name, content: result.content, ...(result.isError ? { isError: true } : {}), ...(result.images?.length ? { images: result.images } : {}) },
          rejected: result.details?.rejected === true,
        };
      };
      if (batch.length === 1) await run(batch[0]!);
      else await Promise.all(batch.map(run));
    }
    return repetition ? { outcomes, repetition } : { outcomes };
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
        result = toolError(
          verdict.period
            ? `Not run: you have made the same ${verdict.period} calls ${verdict.count} times in a row; they undo each other. The task stops here.`
            : `Not run: you have made this exact call ${verdict.count} times and its result will not change. The task stops here.`,
          { repetitionStop: true, ...(verdict.period ? { cyclePeriod: verdict.period } : {}) },
        );
      } else {
        if (verdict.verdict === "warn" && verdict.period) {
          warning = `Your last ${verdict.period * verdict.count} calls are the same ${verdict.period} calls made ${verdict.count} times in a row: they undo each other, so nothing moves. Stop and rethink: read the current state, decide what the end result must be, and make one change towards it. If it happens again the task stops.`;
          ctx.emit({ type: "warning", code: "repetition", message: `The same ${verdict.period} calls were made ${verdict.count} times in a row` });
        } else if (verdict.verdict === "warn") {
          warning = `You have made this exact call ${verdict.count} times; repeating it will not give a different result. Try a different approach. At ${REPEAT_STOP_AT} the task stops.`;
          ctx.emit({ type: "warning", code: "repetition", message: `${call.name} called ${verdict.count} times with the same arguments` });
        }
        const request: ToolCallRequest = { id: call.id, name: call.name, tool: prepared.tool, args, turn };
        result = await this.safely(request);
        args = request.args;
        if (!result.isError && (prepared.tool.kind === "edit" || prepared.tool.kind === "execute")) {
          this.guard.workspaceChanged(call.name, args);
        }
      }
    }
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

  /** Parses and validates; every failure becomes a result telling the model what was wrong. */
  private prepare(call: ToolCall): { tool: Tool; args: Record<string, unknown> } | { error: ToolResult } {
    const tool = this.tools.get(call.name);
    if (!tool) {
      const names = [...this.tools.keys()].join(", ");
      return { error: toolError(`Error: there is no tool named "${call.name}". Available tools: ${names}.`) };
    }
    let raw: unknown;
    try {
      raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
    } catch (error) {
      return {
        error: toolError(
          `Error: the arguments for ${call.name} are not valid JSON (${(error as Error).message}). ` +
            `Send one JSON object matching the tool's schema.`,
        ),
      };
    }
    const parsed = tool.schema.safeParse(raw);
    if (!parsed.success) return { error: toolError(describeIssues(call.name, parsed.error)) };
    const args = parsed.data;
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return { error: toolError(`Error: the arguments for ${call.name} must be a JSON object.`) };
    }
    return { tool, args: args as Record<string, unknown> };
  }

  private async safely(request: ToolCallRequest): Promise<ToolResult> {
    try {
      return await this.handler(request);
    } catch (error) {
      if (this.ctx.signal.aborted) return toolError("The call was cancelled while it ran.", { cancelled: true });
      return toolError(`Error: ${request.name} failed unexpectedly: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  /** The innermost handler: writes an approved change, or runs the tool. */
  private invoke(call: ToolCallRequest): Promise<ToolResult> {
    const ctx: AgentToolContext = {
      signal: this.ctx.signal,
      toolCallId: call.id,
      onProgress: (chunk) => this.ctx.emit({ type: "tool_output", toolCallId: call.id, chunk }),
      run: this.ctx,
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
