import type { ChatState } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

type SetupProblem = NonNullable<ChatState["setupProblem"]>;

/** First run: what is missing and the one button that fixes it. */
export function SetupView({ problem }: { problem: SetupProblem }) {
  const action = problem.action ?? "fathom.setApiKey";
  const label = problem.actionLabel ?? (action === "fathom.setApiKey" ? "Set API Key" : "Open Settings");
  return (
    <section className="setup" aria-labelledby="setup-heading">
      <span className="codicon codicon-hubot setup-icon" aria-hidden="true" />
      <h2 id="setup-heading">Set up Fathom</h2>
      <p>{problem.message}</p>
      <div className="setup-actions">
        <button type="button" className="button primary" onClick={() => postToHost({ type: "runCommand", command: action })}>
          <span className={`codicon codicon-${action === "fathom.setApiKey" ? "key" : "settings-gear"}`} aria-hidden="true" />
          {label}
        </button>
        {action !== "fathom.openSettings" ? (
          <button type="button" className="button secondary" onClick={() => postToHost({ type: "runCommand", command: "fathom.openSettings" })}>
            Open Settings
          </button>
        ) : null}
      </div>
      <p className="muted">
        Choose a provider (OpenAI, Anthropic, or any OpenAI-compatible server such as Ollama) in the settings under <code>fathom.*</code>. Keys are kept in
        VS Code&apos;s secret storage.
      </p>
    </section>
  );
}
