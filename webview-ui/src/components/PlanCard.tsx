import { useState } from "react";
import type { AssistantItem } from "../../../src/protocol";
import { requestFollow } from "../lib/follow";
import { useRemembered } from "../state/remembered";
import { postToHost } from "../vscodeApi";
import { Markdown } from "./Markdown";

/**
 * A plan-mode answer: the plan, which the person edits in place and starts (the task goes on in
 * Act with it), or asks changes for by writing a message (the task stays in Plan).
 */
export function PlanCard({ item }: { item: AssistantItem & { plan: NonNullable<AssistantItem["plan"]> } }) {
  const [editing, setEditing] = useRemembered(`plan-editing:${item.id}`, false);
  const [draft, setDraft] = useRemembered(`plan:${item.id}`, item.text);
  const [sent, setSent] = useState(false);
  const proposed = item.plan.status === "proposed";
  const start = () => {
    if (sent || !draft.trim()) return;
    setSent(true);
    requestFollow();
    postToHost({ type: "startPlan", itemId: item.id, text: (editing ? draft : item.text).trim().slice(0, 64_000) });
  };
  return (
    <article className="message assistant plan-card" aria-label="Plan">
      <div className="author">
        <span className="codicon codicon-list-tree" aria-hidden="true" />
        Plan{proposed ? null : <span className="tag">started</span>}
        {item.plan.capped ? (
          <span className="tag" title="The plan was long and was cut">
            cut
          </span>
        ) : null}
      </div>
      {editing && proposed ? (
        <textarea
          className="text-input plan-editor"
          aria-label="Edit the plan"
          rows={Math.min(24, draft.split("\n").length + 1)}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
      ) : (
        <Markdown text={item.text} />
      )}
      {proposed ? (
        <div className="plan-actions">
          <button
            type="button"
            className="button primary"
            disabled={sent}
            onClick={start}
            title="Start: the task goes on in Act with this plan as its todos"
          >
            <span className="codicon codicon-play" aria-hidden="true" />
            Start
          </button>
          <button
            type="button"
            className="button secondary"
            disabled={sent}
            aria-pressed={editing}
            onClick={() => setEditing(!editing)}
          >
            <span className="codicon codicon-edit" aria-hidden="true" />
            {editing ? "Done editing" : "Edit"}
          </button>
          <span className="plan-hint">Or write below what to change: the task stays in Plan.</span>
        </div>
      ) : null}
    </article>
  );
}
