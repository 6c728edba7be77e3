import { postToHost } from "../vscodeApi";

/** Messages waiting for the running task to finish; each can be taken back. */
export function QueuedList({ queued }: { queued: string[] }) {
  if (queued.length === 0) return null;
  return (
    <section className="queued" aria-labelledby="queued-heading">
      <h2 className="queued-heading" id="queued-heading">
        Queued ({queued.length})
      </h2>
      <ul className="queued-list">
        {queued.map((text, index) => (
          <li key={index} className="queued-item">
            <span className="queued-text" title={text}>
              {text}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove queued message ${index + 1}`}
              title="Remove from queue"
              onClick={() => postToHost({ type: "removeQueued", index })}
            >
              <span className="codicon codicon-close" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
