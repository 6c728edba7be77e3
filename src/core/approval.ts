import type { FileChangeProposal, ToolKind } from "./tools/tool";

/**
 * Human in the loop. The core asks; the host (diff editor + chat card), the CLI (terminal
 * prompt) or a test answers. The gate never runs anything itself.
 */

export interface ApprovalRequest {
  toolCallId: string;
  toolName: string;
  kind: ToolKind;
  /** Validated arguments the model sent. */
  args: Record<string, unknown>;
  /** Edit tools: the whole-file change to review. The person may change `after`. */
  proposal?: FileChangeProposal;
  /** `execute`: the command line, for display. */
  command?: string;
  /** Why this call is asked although its kind is auto-approved (a secret file, leaving the sandbox). */
  reason?: string;
  /** Must reach the person: no "Always allow" rule answers it (running outside the sandbox). */
  mustAsk?: boolean;
  /** A write to Fathom's memory (`/memories/…`): shown as memory, with its text in full. */
  memory?: boolean;
  /** Set when a subagent asks (its `subagent_type`). */
  subagentType?: string;
  /** Which task asks, where several run at once (set by the host). */
  task?: { id: string; title: string };
}

export type ApprovalDecision =
  | { type: "approve" }
  /**
   * Approve with changes: `content` replaces the proposed file content (edit tools);
   * `args` replaces the arguments (other tools). The model is told what changed.
   */
  | { type: "edit"; content?: string; args?: Record<string, unknown> }
  /** The call is not run; the model receives the reason. */
  | { type: "reject"; reason?: string };

export interface ApprovalGate {
  /** Must settle (usually as reject) when `signal` aborts. */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

export type ApprovalMode = "auto" | "ask";

/** Per-kind defaults plus per-tool overrides. */
export interface ApprovalPolicy {
  read?: ApprovalMode;
  edit?: ApprovalMode;
  execute?: ApprovalMode;
  other?: ApprovalMode;
  tools?: Record<string, ApprovalMode>;
}

export const DEFAULT_APPROVAL_POLICY: Required<Omit<ApprovalPolicy, "tools">> = {
  read: "auto",
  edit: "ask",
  execute: "ask",
  other: "auto",
};

export function approvalModeFor(
  policy: ApprovalPolicy,
  toolName: string,
  kind: ToolKind,
  toolDefault?: ApprovalMode,
): ApprovalMode {
  return policy.tools?.[toolName] ?? toolDefault ?? policy[kind] ?? DEFAULT_APPROVAL_POLICY[kind];
}

/** A gate for unattended runs: approves everything it is asked. */
export const approveAll: ApprovalGate = { request: async () => ({ type: "approve" }) };

/** A gate for when nobody can answer: rejects with a reason the model can act on. */
export function rejectAll(reason: string): ApprovalGate {
  return { request: async () => ({ type: "reject", reason }) };
}
