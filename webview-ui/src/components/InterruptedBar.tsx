import { postToHost } from "../vscodeApi";

/** The open task stopped when the window reloaded or VS Code restarted: offer to continue it. */
export function InterruptedBar() {
  return (
    <div className="banner info" role="status">
      <span className="codicon codicon-debug-pause" aria-hidden="true" />
      <span className="banner-message">This task was interrupted before it finished.</span>
      <span className="banner-actions">
        <button type="button" className="button primary" onClick={() => postToHost({ type: "resumeTask" })}>
          <span className="codicon codicon-debug-continue" aria-hidden="true" />
          Resume
        </button>
      </span>
    </div>
  );
}
