import type { AgentContext, PermissionOption, ToolCallContent } from "@agentclientprotocol/sdk";
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from "../../core/approval";
import { acpDiff, acpLocations, acpText, acpToolKind, acpToolTitle } from "./acpToolCalls";

/**
 * Fathom's approval gate answered by the ACP client (`session/request_permission`): allow once,
 * allow always (this tool, for the rest of the session, unless the call must reach the person)
 * or reject. A reject, a cancelled request or a client that fails leaves the call unrun and
 * the model told.
 */

const OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

export const REJECTED = "The person rejected this call in their editor. Do not retry it; ask or try another way.";

export class AcpApprovalGate implements ApprovalGate {
  /** Tools the person allowed for the rest of the session. */
  private readonly always = new Set<string>();

  constructor(
    private readonly client: AgentContext,
    private readonly sessionId: string,
    private readonly root: string,
  ) {}

  async request(r: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (!r.mustAsk && this.always.has(r.toolName)) return { type: "approve" };
    const content: ToolCallContent[] = r.proposal ? [acpDiff(this.root, r.proposal)] : [];
    const why = [r.command ? `$ ${r.command}` : "", r.reason ?? ""].filter(Boolean).join("\n");
    if (why) content.push(acpText(why));
    let outcome;
    try {
      const answer = await this.client.request(
        "session/request_permission",
        {
          sessionId: this.sessionId,
          toolCall: {
            toolCallId: r.toolCallId,
            title: acpToolTitle(r.toolName, r.args),
            kind: acpToolKind(r.toolName),
            status: "pending",
            locations: acpLocations(this.root, r.args),
            content,
            rawInput: r.args,
          },
          // "Always" cannot answer a call that must reach the person each time.
          options: r.mustAsk ? OPTIONS.filter((o) => o.kind !== "allow_always") : OPTIONS,
        },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      outcome = answer.outcome;
    } catch (error) {
      if (signal.aborted) return { type: "reject", reason: "The task was cancelled." };
      return { type: "reject", reason: `The editor could not ask the person (${(error as Error).message}).` };
    }
    if (outcome.outcome !== "selected") return { type: "reject", reason: "The task was cancelled." };
    if (outcome.optionId === "allow_always") this.always.add(r.toolName);
    if (outcome.optionId === "allow_once" || outcome.optionId === "allow_always") return { type: "approve" };
    return { type: "reject", reason: REJECTED };
  }
}
