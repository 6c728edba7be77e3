import { APPROVAL_LEVELS, APPROVAL_LEVEL_TITLES, type ApprovalLevel } from "../../protocol/approvals";
import type { ApprovalPolicy } from "../approval";

export { APPROVAL_LEVELS, APPROVAL_LEVEL_TITLES, type ApprovalLevel };

/**
 * Permission levels: the main switch of what runs unasked. The level is a floor under the
 * per-kind policy (`autoApprove.*`, the command allow list, `sandbox.autoApprove`): it can only
 * auto-approve more, never ask more, so settings people already have keep working. What no level
 * skips stays in the approvals middleware: the deny list, secret files, memory writes, a hook's
 * ask, leaving the sandbox, and every command when the sandbox cannot run.
 */

export const isApprovalLevel = (value: unknown): value is ApprovalLevel =>
  typeof value === "string" && (APPROVAL_LEVELS as readonly string[]).includes(value);

const rank = (level: ApprovalLevel) => APPROVAL_LEVELS.indexOf(level);

/** The lower of two levels. */
export const lowerLevel = (a: ApprovalLevel, b: ApprovalLevel): ApprovalLevel => (rank(a) <= rank(b) ? a : b);

export interface ResolvedLevel {
  level: ApprovalLevel;
  /** The person's own choice (their user setting; "ask" when unset or invalid). */
  chosen: ApprovalLevel;
  /** Set when a workspace or folder value lowered the person's choice. */
  loweredBy?: "workspace" | "folder";
  /** Values that were not levels, said so the person can fix them. */
  problems: string[];
}

/**
 * The level from where it was set: the person's value, lowered (never raised) by the workspace's
 * and the folder's, as a cloned repository must not widen what runs unasked. A value that is not
 * a level counts as unset (the person's: "ask").
 */
export function resolveApprovalLevel(values: { user?: unknown; workspace?: unknown; folder?: unknown }): ResolvedLevel {
  const problems: string[] = [];
  const valid = (where: string, value: unknown): ApprovalLevel | undefined => {
    if (value === undefined) return undefined;
    if (isApprovalLevel(value)) return value;
    problems.push(
      `fathom.approvals in the ${where} settings is ${JSON.stringify(value)}, which is not a level: use ${APPROVAL_LEVELS.map((l) => `"${l}"`).join(", ")}.`,
    );
    return undefined;
  };
  const chosen = valid("user", values.user) ?? "ask";
  let level = chosen;
  let loweredBy: ResolvedLevel["loweredBy"];
  for (const [where, value] of [
    ["workspace", valid("workspace", values.workspace)],
    ["folder", valid("folder", values.folder)],
  ] as const) {
    if (value !== undefined && rank(value) < rank(level)) {
      level = value;
      loweredBy = where;
    }
  }
  return { level, chosen, ...(loweredBy ? { loweredBy } : {}), problems };
}

/** Why Autopilot falls back to Edits auto where commands cannot run in the OS sandbox. */
export const AUTOPILOT_NEEDS_SANDBOX =
  "Autopilot runs commands unasked only inside the OS sandbox, which cannot run here, so Fathom uses Edits auto: edits land at once and commands ask.";
export const AUTOPILOT_SANDBOX_OFF =
  "Autopilot runs commands unasked only inside the OS sandbox, which is turned off (fathom.sandbox.enabled), so Fathom uses Edits auto: edits land at once and commands ask.";

/**
 * The level where it runs: Autopilot only where commands run in the OS sandbox, else Edits auto
 * with the reason (`sandbox`: "on", "off" by the person, or "unavailable" here).
 */
export function levelWhereSandbox(
  level: ApprovalLevel,
  sandbox: "on" | "off" | "unavailable",
): { level: ApprovalLevel; refused?: string } {
  if (level !== "autopilot" || sandbox === "on") return { level };
  return { level: "editsAuto", refused: sandbox === "off" ? AUTOPILOT_SANDBOX_OFF : AUTOPILOT_NEEDS_SANDBOX };
}

/** The per-kind policy with the level's floor: edits auto from Edits auto up, commands auto in Autopilot. */
export function policyAtLevel(policy: ApprovalPolicy, level: ApprovalLevel): ApprovalPolicy {
  if (level === "ask") return policy;
  return { ...policy, edit: "auto", ...(level === "autopilot" ? { execute: "auto" } : {}) };
}

/**
 * Autopilot's budget when the person set none (`fathom.maxSteps`, `fathom.spendCapUsd`, the CLI's
 * `--max-steps`, `--spend-cap`): model calls per run, and dollars per task. Never without both:
 * nobody watches each step.
 */
export const AUTOPILOT_DEFAULT_MAX_STEPS = 50;
export const AUTOPILOT_DEFAULT_SPEND_CAP_USD = 2;
