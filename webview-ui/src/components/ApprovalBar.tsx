import { useRef, useState } from "react";
import { useRemembered } from "../state/remembered";
import { postToHost } from "../vscodeApi";
import { requestFollow } from "../lib/follow";

interface Props {
  toolCallId: string;
  toolName: string;
  /** What "Always allow" allows ("npm test"); null hides it; absent: the tool. */
  alwaysAllow?: string | null | undefined;
  /** Why this is asked (leaving the sandbox, a secret file). */
  reason?: string | undefined;
}

/** Approve / Reject (with an optional reason) / Always allow (this command's program, or this tool) for the task. */
export function ApprovalBar({ toolCallId, toolName, alwaysAllow, reason: why }: Props) {
  const [reason, setReason] = useRemembered(`reason:${toolCallId}`, "");
  const [sent, setSent] = useState(false);
  const bar = useRef<HTMLDivElement>(null);
  const reasonId = `reason-${toolCallId}`;

  const decide = (decision: "approve" | "always" | "reject") => {
    if (sent) return;
    setSent(true);
    if (decision === "reject") {
      const text = reason.trim();
      requestFollow();
      postToHost({ type: "reject", toolCallId, ...(text ? { reason: text.slice(0, 10_000) } : {}) });
    } else {
      requestFollow();
      postToHost({ type: "approve", toolCallId, ...(decision === "always" ? { alwaysAllow: true } : {}) });
    }
    // The bar goes away when the host updates the card; keep the person's focus somewhere useful.
    if (bar.current?.contains(document.activeElement)) document.getElementById("message-input")?.focus();
  };

  return (
    <div className="approval-bar" ref={bar} role="group" aria-label={`Approval for ${toolName}`}>
      {why ? (
        <p className="approval-why">
          <span className="codicon codicon-shield" aria-hidden="true" /> {why}
        </p>
      ) : null}
      <div className="approval-buttons">
        <button type="button" className="button primary" disabled={sent} onClick={() => decide("approve")}>
          <span className="codicon codicon-check" aria-hidden="true" />
          Approve
        </button>
        <button type="button" className="button secondary" disabled={sent} onClick={() => decide("reject")}>
          <span className="codicon codicon-close" aria-hidden="true" />
          Reject
        </button>
        {alwaysAllow === null ? null : (
          <button
            type="button"
            className="button secondary"
            disabled={sent}
            title={
              alwaysAllow !== undefined
                ? `Run ${alwaysAllow} (any arguments) without asking for the rest of this task`
                : toolName.startsWith("mcp__")
                  ? `Run ${toolName} without asking: for the rest of this task, and from now on when the server is in your own MCP file (added to its autoApprove)`
                  : `Run ${toolName} without asking for the rest of this task`
            }
            onClick={() => decide("always")}
          >
            <span className="codicon codicon-check-all" aria-hidden="true" />
            Always allow {alwaysAllow ?? toolName}
          </button>
        )}
      </div>
      <label className="reason" htmlFor={reasonId}>
        Reason for rejecting (optional)
      </label>
      <input
        id={reasonId}
        className="text-input"
        type="text"
        value={reason}
        disabled={sent}
        placeholder="Tell Fathom what to do instead"
        onChange={(event) => setReason(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            decide("reject");
          }
        }}
      />
    </div>
  );
}
