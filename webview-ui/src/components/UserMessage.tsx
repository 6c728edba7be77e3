import type { UserItem } from "../../../src/protocol";

export function UserMessage({ item }: { item: UserItem }) {
  return (
    <article className="message user" aria-label="You">
      <div className="author">
        <span className="codicon codicon-account" aria-hidden="true" />
        You{item.queued ? <span className="tag">queued</span> : null}
      </div>
      <p className="user-text">{item.text}</p>
    </article>
  );
}
