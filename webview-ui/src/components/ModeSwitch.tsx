import type { TaskMode } from "../../../src/protocol";

/** Plan / Act: in Plan the agent only reads and ends with a plan you start; in Act it works. */
export function ModeSwitch({ mode, onChange }: { mode: TaskMode; onChange: (mode: TaskMode) => void }) {
  return (
    <span className="mode-switch" role="group" aria-label="Mode">
      <button
        type="button"
        className={`mode-option${mode === "plan" ? " selected" : ""}`}
        aria-pressed={mode === "plan"}
        title="Plan: the agent reads and asks, changes nothing, and ends with a plan you can edit and start (/plan)"
        onClick={() => onChange("plan")}
      >
        <span className="codicon codicon-list-tree" aria-hidden="true" />
        Plan
      </button>
      <button
        type="button"
        className={`mode-option${mode === "act" ? " selected" : ""}`}
        aria-pressed={mode === "act"}
        title="Act: the agent edits files and runs commands (each asked as your settings say)"
        onClick={() => onChange("act")}
      >
        <span className="codicon codicon-play" aria-hidden="true" />
        Act
      </button>
    </span>
  );
}
