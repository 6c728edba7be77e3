import { revealInvisible } from "../lib/invisible";
import type { Proposal, ToolStatus } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";
import { ApprovalBar } from "./ApprovalBar";
import { DiffLines } from "./DiffLines";

const OUTCOME: Record<Proposal["outcome"], { icon: string; text: string }> = {
  pending: { icon: "shield", text: "Waiting for your approval" },
  approved: { icon: "pass", text: "Approved" },
  approved_with_changes: { icon: "edit", text: "Approved with your changes" },
  rejected: { icon: "circle-slash", text: "Rejected" },
  auto_applied: { icon: "pass", text: "Applied automatically" },
  failed: { icon: "error", text: "Not written: failed" },
};

const APPLIED = new Set<Proposal["outcome"]>(["approved", "approved_with_changes", "auto_applied"]);

interface Props {
  toolCallId: string;
  toolName: string;
  proposal: Proposal;
  status: ToolStatus;
  /** null: no "Always allow" (a task of one edit). */
  alwaysAllow?: string | null | undefined;
}

/**
 * A proposed edit: the diff, its +/− counts, how it ended, and the approval bar while pending.
 * A write to memory says so, with its whole text: every later task reads it.
 */
export function DiffCard({ toolCallId, toolName, proposal, status, alwaysAllow }: Props) {
  const outcome = OUTCOME[proposal.outcome];
  const waiting = status === "awaiting_approval" && proposal.outcome === "pending";
  const memory = proposal.memory === true;
  return (
    <section
      className={`diff-card outcome-${proposal.outcome}${memory ? " memory-write" : ""}`}
      aria-label={memory ? `Memory write to ${proposal.path}` : `Proposed change to ${proposal.path}`}
    >
      <div className="diff-header">
        <span className={`codicon codicon-${memory ? "bookmark" : "diff"}`} aria-hidden="true" />
        <button
          type="button"
          className="link-button diff-path"
          title="Open file"
          onClick={() => postToHost({ type: "openFile", path: proposal.path })}
        >
          {revealInvisible(proposal.path)}
        </button>
        {memory ? <span className="tag tag-memory">memory</span> : null}
        {proposal.isNewFile ? <span className="tag">new file</span> : null}
        <span className="diff-counts" title={`${proposal.added} lines added, ${proposal.removed} removed`}>
          <span className="codicon codicon-diff-added" aria-hidden="true" />
          <span aria-hidden="true">+{proposal.added}</span>
          <span className="codicon codicon-diff-removed" aria-hidden="true" />
          <span aria-hidden="true">−{proposal.removed}</span>
          <span className="visually-hidden">
            {proposal.added} lines added, {proposal.removed} removed
          </span>
        </span>
      </div>
      {memory ? (
        <p className="memory-note">
          Fathom's memory, kept outside the repository: every later task reads it. Approve only what you want
          remembered.
        </p>
      ) : null}
      <DiffLines diff={proposal.diff} path={proposal.path} />
      <div className="diff-footer">
        <span className={`outcome outcome-${proposal.outcome}`}>
          <span className={`codicon codicon-${outcome.icon}`} aria-hidden="true" />
          {outcome.text}
          {proposal.outcome === "rejected" && proposal.reason ? `: “${proposal.reason}”` : ""}
        </span>
        <button type="button" className="button secondary" onClick={() => postToHost({ type: "openDiff", toolCallId })}>
          <span className="codicon codicon-diff-multiple" aria-hidden="true" />
          Open in diff editor
        </button>
        {/* Memory is not checkpointed: a restore never takes back what was remembered. */}
        {status === "done" && APPLIED.has(proposal.outcome) && !memory ? (
          <button
            type="button"
            className="button secondary"
            aria-label={`Restore to before this change to ${proposal.path}`}
            title="Restore files or conversation to before this change"
            onClick={() => postToHost({ type: "previewRestore", itemId: toolCallId })}
          >
            <span className="codicon codicon-discard" aria-hidden="true" />
            Restore…
          </button>
        ) : null}
      </div>
      {waiting ? (
        <ApprovalBar toolCallId={toolCallId} toolName={toolName} {...(alwaysAllow === null ? { alwaysAllow } : {})} />
      ) : null}
    </section>
  );
}
