import type { TaskMode } from "../../../src/protocol";

const MODES: { mode: TaskMode; label: string; icon: string; title: string }[] = [
  {
    mode: "plan",
    label: "Plan",
    icon: "list-tree",
    title: "Plan: the agent reads and asks, changes nothing, and ends with a plan you can edit and start (/plan)",
  },
  {
    mode: "act",
    label: "Act",
    icon: "play",
    title: "Act: the agent edits files and runs commands (each asked as your settings say)",
  },
];

/** Plan / Act: in Plan the agent only reads and ends with a plan you start; in Act it works. */
export function ModeSwitch({ mode, onChange }: { mode: TaskMode; onChange: (mode: TaskMode) => void }) {
  return (
    <span className="mode-switch" role="group" aria-label="Mode">
      {MODES.map((m) => (
        <button
          key={m.mode}
          type="button"
          className={`mode-option${mode === m.mode ? " selected" : ""}`}
          aria-pressed={mode === m.mode}
          title={m.title}
          onClick={() => onChange(m.mode)}
        >
          <span className={`codicon codicon-${m.icon}`} aria-hidden="true" />
          {m.label}
        </button>
      ))}
    </span>
  );
}
