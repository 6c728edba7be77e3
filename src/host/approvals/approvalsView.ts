import { APPROVAL_LEVEL_TITLES, levelWhereSandbox, lowerLevel, type ApprovalLevel } from "../../core";
import type { ApprovalsView } from "../../protocol/approvals";
import type { FathomSettings, SandboxState } from "../settings";

const RESTRICTED =
  "This workspace is in Restricted Mode (not trusted): every edit and command is refused, whatever the level.";

/**
 * The level tool calls get now, and why it is lower than the person's pick: a workspace's value,
 * Restricted Mode, or Autopilot without the OS sandbox (pure: the host passes what it knows).
 * `sandbox` undefined: not checked yet (the check runs only once someone needs it).
 */
export function approvalsView(
  settings: Pick<FathomSettings, "approvals">,
  o: { restricted: boolean; sandbox: SandboxState | undefined },
): ApprovalsView & { refused?: string } {
  const { chosen, loweredBy } = settings.approvals;
  let level: ApprovalLevel = settings.approvals.level;
  let lowered =
    loweredBy !== undefined
      ? `This ${loweredBy === "folder" ? "folder's" : "workspace's"} settings lower fathom.approvals to ${APPROVAL_LEVEL_TITLES[level]} (a workspace may lower the level, never raise it).`
      : undefined;
  const where = o.sandbox === undefined ? { level } : levelWhereSandbox(level, o.sandbox);
  if (where.refused) {
    level = where.level;
    lowered = where.refused;
  }
  if (o.restricted) {
    level = lowerLevel(level, "ask");
    lowered = RESTRICTED;
  }
  const unavailable =
    o.sandbox === "off" || o.sandbox === "unavailable" ? levelWhereSandbox("autopilot", o.sandbox).refused : undefined;
  return {
    level,
    chosen,
    ...(lowered && level !== chosen ? { lowered } : {}),
    ...(unavailable ? { autopilotUnavailable: unavailable } : {}),
    ...(where.refused ? { refused: where.refused } : {}),
  };
}
