import { SetupActions, type SetupProblem } from "./SetupActions";

/** First run: what is missing and the one button that fixes it. */
export function SetupView({ problem }: { problem: SetupProblem }) {
  return (
    <section className="setup" aria-labelledby="setup-heading">
      <span className="codicon codicon-hubot setup-icon" aria-hidden="true" />
      <h2 id="setup-heading">Set up Fathom</h2>
      <p>{problem.message}</p>
      <SetupActions problem={problem} />
      <p className="muted">
        Choose a provider (OpenAI, Anthropic, any OpenAI-compatible server such as Ollama, or VS Code&apos;s own
        language models) in the settings under <code>fathom.*</code>. Keys are kept in VS Code&apos;s secret storage.
      </p>
    </section>
  );
}
