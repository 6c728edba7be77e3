import type { ToolStatus } from "../../../src/protocol";

const STATUS: Record<ToolStatus, { icon: string; text: string; spin?: boolean }> = {
  streaming: { icon: "loading", text: "Preparing", spin: true },
  awaiting_approval: { icon: "shield", text: "Needs approval" },
  running: { icon: "loading", text: "Running", spin: true },
  done: { icon: "pass", text: "Done" },
  failed: { icon: "error", text: "Failed" },
  rejected: { icon: "circle-slash", text: "Rejected" },
  cancelled: { icon: "debug-stop", text: "Cancelled" },
};

export function statusText(status: ToolStatus): string {
  return STATUS[status].text;
}

/** A tool call's status as icon and words, never colour alone. */
export function StatusBadge({ status }: { status: ToolStatus }) {
  const { icon, text, spin } = STATUS[status];
  return (
    <span className={`status-badge status-${status}`}>
      <span className={`codicon codicon-${icon}${spin ? " codicon-modifier-spin" : ""}`} aria-hidden="true" />
      {text}
    </span>
  );
}
