import { postToHost } from "../vscodeApi";
import { SetupActions, type SetupProblem, waitingFor } from "./SetupActions";
import { IconButton } from "./IconButton";

/**
 * Messages waiting for the running task to finish, or for set-up (a key) when there is a
 * problem; each can be taken back. When set-up blocks them the list says so, and offers the fix
 * unless the set-up view above already does.
 */
export function QueuedList({
  queued,
  setupProblem,
  setupShown,
}: {
  queued: string[];
  setupProblem: SetupProblem | null;
  setupShown: boolean;
}) {
  if (queued.length === 0) return null;
  return (
    <section className="queued" aria-labelledby="queued-heading">
      <h2 className="queued-heading" id="queued-heading">
        {setupProblem
          ? `Queued (${queued.length}), waiting for ${waitingFor(setupProblem)}`
          : `Queued (${queued.length})`}
      </h2>
      {setupProblem && !setupShown ? (
        <div className="queued-waiting">
          <p>{setupProblem.message} It is sent as soon as that is done.</p>
          <SetupActions problem={setupProblem} />
        </div>
      ) : null}
      <ul className="queued-list">
        {queued.map((text, index) => (
          <li key={index} className="queued-item">
            <span className="queued-text" title={text}>
              {text}
            </span>
            <IconButton
              icon="close"
              label={`Remove queued message ${index + 1}`}
              title="Remove from queue"
              onClick={() => postToHost({ type: "removeQueued", index })}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
