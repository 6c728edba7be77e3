import { z } from "zod";

/**
 * Permission levels (`fathom.approvals`): how much runs without a card. Lowest first, so a
 * level's index is its rank (a workspace may only lower it). The core, the host, the CLI and the
 * webview all read this one list.
 */
export const APPROVAL_LEVELS = ["ask", "editsAuto", "autopilot"] as const;
export const ApprovalLevelSchema = z.enum(APPROVAL_LEVELS);
export type ApprovalLevel = z.infer<typeof ApprovalLevelSchema>;

/** What the person reads for each level (the header's picker, the settings' enum titles). */
export const APPROVAL_LEVEL_TITLES: Record<ApprovalLevel, string> = {
  ask: "Ask",
  editsAuto: "Edits auto, review after",
  autopilot: "Autopilot",
};

/** The header's Approvals picker: the level in force and why it is not the one the person picked. */
export const ApprovalsViewSchema = z.object({
  /** The level tool calls get now. */
  level: ApprovalLevelSchema,
  /** The person's own (user) setting. */
  chosen: ApprovalLevelSchema,
  /** Why `level` is lower than `chosen` (a workspace setting, Restricted Mode, no OS sandbox), said to the person. */
  lowered: z.string().max(500).optional(),
  /** Why Autopilot cannot be picked here (the OS sandbox cannot run, or is off). */
  autopilotUnavailable: z.string().max(500).optional(),
});
export type ApprovalsView = z.infer<typeof ApprovalsViewSchema>;
