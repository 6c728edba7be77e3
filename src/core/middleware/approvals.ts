import { createTwoFilesPatch } from "diff";
import {
  approvalModeFor,
  type ApprovalDecision,
  type ApprovalGate,
  type ApprovalPolicy,
  type ApprovalRequest,
} from "../approval";
import { checkCommand, type CommandPatterns } from "../trust/commandPolicy";
import { policyAtLevel, type ApprovalLevel } from "../trust/approvalLevels";
import type { SecretFileMatcher } from "../trust/secretFiles";
import type { FileChangeProposal, ToolResult } from "../tools/tool";
import type { AgentToolContext, Middleware, RunContext, ToolCallRequest } from "./types";
import { toolError } from "./types";

export interface ApprovalsOptions {
  gate: ApprovalGate;
  policy?: ApprovalPolicy;
  /** Allow/deny patterns for `execute`. Deny wins, and a denied command never runs. */
  commands?: CommandPatterns;
  /** The permission level, read at each call: a floor under `policy` (./trust/approvalLevels.ts). */
  level?: () => ApprovalLevel;
  /** Reading or writing a file this matches is always asked, whatever the policy and level. */
  isSecret?: SecretFileMatcher;
  /** Writes to memory (`/memories/…`) reach every later task: asked each time unless the person allowed them. */
  memory?: { isMemoryPath(path: string): boolean; allowWrites: boolean };
}

const MEMORY_WRITE =
  "It writes to Fathom's memory, which every later task reads: approve only what you want remembered.";

const SECRET_WRITE = (pattern: string) =>
  `It writes a file that may hold secrets (matches ${pattern}): such edits are asked at every permission level.`;

const LEAVES_SANDBOX = "It asks to run outside the OS sandbox, with your full rights (files, keys, network).";

/**
 * Human in the loop. Per tool: run (auto) or ask the gate, which approves, edits or rejects.
 * Edit tools are proposed first, so the person reviews the whole-file change, and what they
 * approve (possibly changed) is exactly what is written.
 */
export function approvalsMiddleware(options: ApprovalsOptions): Middleware {
  const base = options.policy ?? {};
  return {
    name: "approvals",
    async wrapToolCall(call, ctx, next) {
      const { tool } = call;
      // Read at each call: a level picked mid-task applies from the next call.
      const policy = options.level ? policyAtLevel(base, options.level()) : base;
      let mode = approvalModeFor(policy, call.name, tool.kind, tool.approval);
      const command = tool.kind === "execute" && typeof call.args.command === "string" ? call.args.command : undefined;
      if (command !== undefined) {
        const verdict = checkCommand(command, options.commands ?? {});
        if (verdict.verdict === "deny") {
          return toolError(
            verdict.why
              ? `Not run: ${verdict.why}. Run the commands directly (not through a pipe into a shell), or ask the person.`
              : `Not run: the command matches the deny pattern "${verdict.pattern}" the person set. ` +
                  `Do not try to work around it; use another approach or ask the person.`,
            { denied: true, pattern: verdict.pattern },
          );
        }
        if (verdict.verdict === "allow") mode = "auto";
      }
      const secret =
        tool.kind === "read" && typeof call.args.file_path === "string"
          ? options.isSecret?.(call.args.file_path)
          : undefined;
      if (secret) mode = "ask";
      // Leaving the OS sandbox is always the person's call: no policy, pattern or rule skips it;
      // so is every command when the sandbox should run them but cannot.
      const leavesSandbox = command !== undefined && call.args.sandbox === false;
      const filePath = typeof call.args.file_path === "string" ? call.args.file_path : undefined;
      const memoryWrite =
        tool.kind === "edit" && filePath !== undefined && options.memory?.isMemoryPath(filePath) === true;
      if (memoryWrite) mode = options.memory?.allowWrites ? "auto" : "ask";
      const secretWrite =
        tool.kind === "edit" && filePath !== undefined && !memoryWrite ? options.isSecret?.(filePath) : undefined;
      // Asked like a secret read, whatever the level (--yes and a hook's allow still answer it).
      if (secretWrite) mode = "ask";
      // A hook's ask always reaches the person; the person's own hook's allow skips the question.
      const hookAsks =
        call.hookDecision?.decision === "ask"
          ? `A PreToolUse hook asks for your approval: ${call.hookDecision.reason}`
          : undefined;
      if (hookAsks) mode = "ask";
      else if (call.hookDecision?.decision === "allow") mode = "auto";
      const mustAskWhy =
        command !== undefined
          ? leavesSandbox
            ? LEAVES_SANDBOX
            : options.commands?.alwaysAsk
          : memoryWrite && !options.memory?.allowWrites
            ? MEMORY_WRITE
            : tool.askWhy?.(call.args, ctx.state);
      if (mustAskWhy) mode = "ask";

      let proposal: FileChangeProposal | undefined;
      if (tool.proposeChange) {
        const proposed = await tool.proposeChange(call.args, toolContext(call, ctx));
        if ("error" in proposed) return toolError(proposed.error);
        proposal = proposed;
      }
      if (mode === "auto") {
        if (proposal) call.proposal = proposal;
        return next(call);
      }

      const request: ApprovalRequest = {
        toolCallId: call.id,
        toolName: call.name,
        kind: tool.kind,
        args: call.args,
        ...(proposal ? { proposal } : {}),
        ...(command !== undefined ? { command } : {}),
        ...(secret ? { reason: `It reads a file that may hold secrets (matches ${secret}).` } : {}),
        ...(secretWrite ? { reason: SECRET_WRITE(secretWrite) } : {}),
        ...(hookAsks ? { reason: hookAsks } : {}),
        ...(memoryWrite ? { memory: true } : {}),
        ...(mustAskWhy ? { reason: mustAskWhy, mustAsk: true } : {}),
        ...(ctx.subagentType ? { subagentType: ctx.subagentType } : {}),
      };
      ctx.emit({
        type: "approval_requested",
        toolCallId: call.id,
        toolName: call.name,
        kind: tool.kind,
        args: call.args,
        ...(proposal ? { proposal } : {}),
        ...(request.reason ? { why: request.reason } : {}),
        ...(memoryWrite ? { memory: true } : {}),
      });
      const decision = await ask(options.gate, request, ctx.signal);
      const reason = decision.type === "reject" ? decision.reason : undefined;
      ctx.emit({
        type: "approval_decided",
        toolCallId: call.id,
        toolName: call.name,
        decision: decision.type,
        ...(reason ? { reason } : {}),
      });

      switch (decision.type) {
        case "reject":
          return toolError(rejectionText(call.name, reason), { rejected: true });
        case "approve":
          if (proposal) call.proposal = proposal;
          return next(call);
        case "edit":
          return runEdited(call, ctx, next, decision, proposal);
      }
    },
  };
}

async function runEdited(
  call: ToolCallRequest,
  ctx: RunContext,
  next: (call: ToolCallRequest) => Promise<ToolResult>,
  decision: Extract<ApprovalDecision, { type: "edit" }>,
  proposal: FileChangeProposal | undefined,
): Promise<ToolResult> {
  if (proposal && decision.content !== undefined) {
    call.proposal = { ...proposal, after: decision.content };
    const result = await next(call);
    if (result.isError || decision.content === proposal.after) return result;
    const diff = compactDiff(proposal.path, proposal.after, decision.content);
    return {
      ...result,
      content: `${result.content}\n\n${PERSON_CHANGED} (diff from your version to what was written):\n${diff}`,
    };
  }
  if (decision.args) {
    const parsed = call.tool.schema.safeParse(decision.args);
    if (!parsed.success) {
      return toolError(
        `Not run: the person edited the arguments but they were not valid for ${call.name}. Ask the person how to proceed.`,
      );
    }
    call.args = parsed.data as Record<string, unknown>;
    if (call.tool.proposeChange) {
      const proposed = await call.tool.proposeChange(call.args, toolContext(call, ctx));
      if ("error" in proposed) return toolError(proposed.error);
      call.proposal = proposed;
    }
    const result = await next(call);
    return {
      ...result,
      content: `The person changed the arguments before approving; ran with ${JSON.stringify(call.args)}.\n\n${result.content}`,
    };
  }
  if (proposal) call.proposal = proposal;
  return next(call);
}

/** How an approved edit's result says that the person changed the proposal first. */
export const PERSON_CHANGED = "The person changed your proposed content before approving it";
const REJECTED =
  /^The person rejected this \S+ call\. (?:Their reason: ([\s\S]*?) |No reason was given\. )Do not repeat it unchanged/;

/** A rejected call's result, as the model reads it. */
function rejectionText(toolName: string, reason: string | undefined): string {
  return `The person rejected this ${toolName} call. ${reason ? `Their reason: ${reason}` : "No reason was given."} Do not repeat it unchanged; adapt, or ask the person what they want.`;
}

/** Whether a tool result is a rejection, and the person's reason if they gave one. */
export function readRejection(content: string): { reason?: string } | undefined {
  const m = REJECTED.exec(content);
  return m ? (m[1] ? { reason: m[1] } : {}) : undefined;
}

/** Asks the gate, settling as a rejection if the run is cancelled or the gate fails. */
async function ask(gate: ApprovalGate, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
  if (signal.aborted) return { type: "reject", reason: "The task was cancelled." };
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ApprovalDecision>((resolve) => {
    onAbort = () => resolve({ type: "reject", reason: "The task was cancelled." });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([gate.request(request, signal), aborted]);
  } catch (error) {
    return { type: "reject", reason: `The approval could not be asked: ${(error as Error)?.message ?? String(error)}` };
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** A unified diff without the file headers, for telling the model what the person changed. */
export function compactDiff(path: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(path, path, before, after, undefined, undefined, { context: 2 });
  return patch
    .split("\n")
    .filter((line) => !line.startsWith("====") && !line.startsWith("Index:"))
    .join("\n")
    .trimEnd();
}

function toolContext(call: ToolCallRequest, ctx: RunContext): AgentToolContext {
  return { signal: ctx.signal, toolCallId: call.id, run: ctx };
}
