/** Before the host answers (connecting) or before the first message of a task. */
export function EmptyState({ connecting, demo = false }: { connecting: boolean; demo?: boolean }) {
  return (
    <div className="empty">
      {connecting ? (
        <p>
          <span className="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Connecting to Fathom…
        </p>
      ) : (
        <>
          <span className="codicon codicon-hubot empty-icon" aria-hidden="true" />
          <p>Describe a change, ask about the code, or have Fathom run your tests.</p>
          {demo ? (
            <p>
              This is the demo: a recorded session plays the model&apos;s part. Send any message to start it, for
              example <em>The test for slugify fails. Find out why and fix it.</em>
            </p>
          ) : null}
          <p className="muted">
            Fathom plans with a todo list, proposes edits for you to approve, and runs commands in the terminal. Type{" "}
            <kbd>@</kbd> to mention a file.
          </p>
        </>
      )}
    </div>
  );
}
