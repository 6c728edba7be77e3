import type { ChatState } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

export type SetupProblem = NonNullable<ChatState["setupProblem"]>;

/** What a queued message waits for, in words ("an API key"). */
export function waitingFor(problem: SetupProblem): string {
  const action = problem.action ?? "fathom.setApiKey";
  return action === "fathom.setApiKey"
    ? "an API key"
    : action === "fathom.allowKeyForHost"
      ? "you to confirm the host"
      : "the settings to be fixed";
}

/** The button that fixes a set-up problem, and "Open Settings" beside it. */
export function SetupActions({ problem }: { problem: SetupProblem }) {
  const action = problem.action ?? "fathom.setApiKey";
  const label =
    problem.actionLabel ??
    (action === "fathom.setApiKey"
      ? "Set API Key"
      : action === "fathom.allowKeyForHost"
        ? "Send Key to This Host"
        : "Open Settings");
  const icon = action === "fathom.setApiKey" ? "key" : action === "fathom.allowKeyForHost" ? "shield" : "settings-gear";
  return (
    <div className="setup-actions">
      <button
        type="button"
        className="button primary"
        onClick={() => postToHost({ type: "runCommand", command: action })}
      >
        <span className={`codicon codicon-${icon}`} aria-hidden="true" />
        {label}
      </button>
      {action !== "fathom.openSettings" ? (
        <button
          type="button"
          className="button secondary"
          onClick={() => postToHost({ type: "runCommand", command: "fathom.openSettings" })}
        >
          Open Settings
        </button>
      ) : null}
    </div>
  );
}
