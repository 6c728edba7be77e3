import type { SessionModeState } from "@agentclientprotocol/sdk";
import {
  APPROVAL_LEVELS,
  APPROVAL_LEVEL_TITLES,
  isApprovalLevel,
  type ApprovalLevel,
} from "../../core/trust/approvalLevels";

const DESCRIPTIONS: Record<ApprovalLevel, string> = {
  ask: "Every write and command is asked in the editor.",
  editsAuto: "Writes land at once (checkpointed; fathom restore takes them back); commands are asked.",
  autopilot:
    "Writes and sandboxed commands run unasked, within 50 model calls and $2 unless --max-steps / --spend-cap. Deny patterns, secret files and leaving the sandbox are still asked or refused.",
};

/**
 * The permission levels as ACP session modes (`session/new`'s `modes`, `session/set_mode`):
 * Autopilot only where commands run in the OS sandbox (`autopilotRefused` says why not).
 */
export function acpModes(current: ApprovalLevel, autopilotRefused: string | undefined): SessionModeState {
  return {
    currentModeId: current,
    availableModes: APPROVAL_LEVELS.filter((l) => l !== "autopilot" || !autopilotRefused).map((id) => ({
      id,
      name: APPROVAL_LEVEL_TITLES[id],
      description: DESCRIPTIONS[id],
    })),
  };
}

/** The level a `session/set_mode` asks for, or why it cannot be had (said to the client). */
export function levelForMode(modeId: string, autopilotRefused: string | undefined): ApprovalLevel | { error: string } {
  if (!isApprovalLevel(modeId))
    return { error: `Unknown mode "${modeId}": the modes are ${APPROVAL_LEVELS.join(", ")}.` };
  if (modeId === "autopilot" && autopilotRefused) return { error: autopilotRefused };
  return modeId;
}
