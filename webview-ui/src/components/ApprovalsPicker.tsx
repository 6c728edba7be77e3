import { APPROVAL_LEVELS, APPROVAL_LEVEL_TITLES, type ApprovalsView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

const ICONS = { ask: "shield", editsAuto: "edit", autopilot: "rocket" } as const;

const EXPLAINED = {
  ask: "Ask: every edit and command waits on its card",
  editsAuto: "Edits auto, review after: edits land at once (checkpointed); commands still ask",
  autopilot: "Autopilot: edits and sandboxed commands run unasked, within a step limit and a spend cap",
} as const;

/**
 * The Approvals box in the header: the person's permission level (their user setting), applied
 * from the next tool call. Says when a workspace, Restricted Mode or a missing OS sandbox lowers
 * it, and why Autopilot cannot be picked here.
 */
export function ApprovalsPicker({ approvals }: { approvals: ApprovalsView | undefined }) {
  if (!approvals) return null;
  const { level, chosen, lowered, autopilotUnavailable } = approvals;
  const note = lowered && level !== chosen ? `Using ${APPROVAL_LEVEL_TITLES[level]}: ${lowered}` : undefined;
  return (
    <span className="approvals-picker">
      <label title={note ?? EXPLAINED[level]}>
        <span className={`codicon codicon-${ICONS[level]}`} aria-hidden="true" />
        <span className="visually-hidden">Approvals</span>
        <select
          aria-label="Approvals"
          aria-describedby={note ? "approvals-note" : undefined}
          value={chosen}
          onChange={(event) => {
            const picked = APPROVAL_LEVELS.find((l) => l === event.target.value);
            if (picked) postToHost({ type: "setApprovals", level: picked });
          }}
        >
          {APPROVAL_LEVELS.map((l) => (
            <option
              key={l}
              value={l}
              title={l === "autopilot" && autopilotUnavailable ? autopilotUnavailable : EXPLAINED[l]}
              disabled={l === "autopilot" && autopilotUnavailable !== undefined && chosen !== "autopilot"}
            >
              {APPROVAL_LEVEL_TITLES[l]}
              {l === "autopilot" && autopilotUnavailable ? " (needs the OS sandbox)" : ""}
            </option>
          ))}
        </select>
      </label>
      {note ? (
        <span className="tag approvals-lowered" id="approvals-note" title={note}>
          <span className="codicon codicon-warning" aria-hidden="true" />
          <span aria-hidden="true">{APPROVAL_LEVEL_TITLES[level]}</span>
          <span className="visually-hidden">{note}</span>
        </span>
      ) : null}
    </span>
  );
}
