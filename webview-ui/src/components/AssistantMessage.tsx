import type { AssistantItem } from "../../../src/protocol";
import { Markdown } from "./Markdown";

export function AssistantMessage({ item }: { item: AssistantItem }) {
  return (
    <article className="message assistant" aria-label="Fathom" aria-busy={item.streaming}>
      <div className="author">
        <span className="codicon codicon-hubot" aria-hidden="true" />
        Fathom
      </div>
      <Markdown text={item.text} />
      {item.streaming ? <span className="cursor" aria-hidden="true" /> : null}
    </article>
  );
}
