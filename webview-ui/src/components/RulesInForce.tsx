import { postToHost } from "../vscodeApi";

/** "Rules (N)": the rules files in force for the task, as they started to apply; each opens the file. */
export function RulesInForce({ rules }: { rules: string[] }) {
  if (rules.length === 0) return null;
  return (
    <details className="rules-in-force">
      <summary title="Rules files the model was given in this task">Rules ({rules.length})</summary>
      <ul className="rules-list" aria-label="Rules in force">
        {rules.map((source) => (
          <li key={source}>
            <button
              type="button"
              className="link-button"
              title={`Open ${source}`}
              onClick={() => postToHost({ type: "openTeamFile", source })}
            >
              {source}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
