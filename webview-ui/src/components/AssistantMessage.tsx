import type { AssistantItem } from "../../../src/protocol";
import { Markdown } from "./Markdown";
import { PlanCard } from "./PlanCard";
import { ReviewFindings } from "./ReviewFindings";

export function AssistantMessage({ item }: { item: AssistantItem }) {
  if (item.plan && !item.streaming) return <PlanCard item={{ ...item, plan: item.plan }} />;
  const thinking = item.streaming && item.text === "";
  return (
    <article className="message assistant" aria-label="Fathom" aria-busy={item.streaming}>
      <div className="author">
        <span className="codicon codicon-hubot" aria-hidden="true" />
        Fathom
      </div>
      {item.reasoning ? (
        // Collapsed: the reasoning is there for whoever wants it, not in the way of the answer.
        <details className="reasoning">
          <summary>
            <span className="codicon codicon-lightbulb" aria-hidden="true" />
            {thinking ? "Thinking…" : `Thought (${item.reasoning.length.toLocaleString()} characters)`}
          </summary>
          <div className="reasoning-text">{item.reasoning}</div>
        </details>
      ) : null}
      {item.text ? <Markdown text={item.text} /> : null}
      {item.review ? <ReviewFindings findings={item.review.findings} /> : null}
      {item.streaming ? <span className="cursor" aria-hidden="true" /> : null}
    </article>
  );
}
