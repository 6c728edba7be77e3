/** Shown under the transcript while the agent works. */
export function WorkingIndicator() {
  return (
    <div className="working">
      <span className="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" />
      Working…
    </div>
  );
}
