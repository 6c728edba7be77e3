import { allowedByRules, alwaysAllowRules, type ApprovalGate } from "../../core";

/** How "Always allow" rules for commands are kept in the task's `alwaysAllowed` list. */
export const EXECUTE_RULE = "execute:";
import type { Logger } from "../log";

/**
 * The rules "Always allow" on a card adds to the task: a command allows its program and
 * subcommand ("execute:npm test"), never every command; another tool allows itself.
 */
export function alwaysAllowedBy(tool: { toolName: string; exec?: { command: string } }): string[] {
  if (tool.toolName !== "execute") return [tool.toolName];
  return (alwaysAllowRules(tool.exec?.command ?? "") ?? []).map((r) => `${EXECUTE_RULE}${r}`);
}

export type ChatDecision = { type: "approve" } | { type: "reject"; reason?: string };

/**
 * What the session needs from the approval gate (the diff-review `ReviewGate` in VS Code): the
 * core's `request`, plus the answers the person gives on the chat's cards.
 */
export interface SessionGate extends ApprovalGate {
  /** The person answered from the chat card (`toolCallId` is the core's id). */
  decide(toolCallId: string, decision: ChatDecision): unknown;
  /** Shows the proposal again (the diff editor). */
  openDiff?(toolCallId: string): unknown;
  /** The chat shows the request's card (an open diff takes the proposal then). */
  cardShown?(toolCallId: string): void;
  /**
   * Opens the diff of an edit the model is still writing, under the id its request will have
   * (`before` null: a new file). `diffFirst`: the diff is where the person follows it (an inline edit).
   */
  prepare?(id: string, path: string, before: string | null, taskTitle?: string, diffFirst?: boolean): void;
  /** Shows on a prepared diff's right side the edit as far as the model has written it (the whole file's text). */
  previewPrepared?(id: string, after: string): void;
  /** Closes a prepared diff no request came for. */
  drop?(id: string): void;
}

export const RESTRICTED_REASON =
  "This workspace is in Restricted Mode (not trusted), so Fathom may read files and answer but not write files or run commands. " +
  'To allow it, trust the workspace (command "Workspaces: Manage Workspace Trust").';

/**
 * The gate a task uses: in Restricted Mode edits and commands are refused at once with the
 * reason (trust is read at each request, so granting it mid-task takes effect); tools the
 * person chose "Always allow" for in this task pass; everything else asks `inner`.
 */
export function guardedGate(
  inner: ApprovalGate,
  o: {
    isTrusted(): boolean;
    alwaysAllowed(): readonly string[];
    log: Logger;
    task?: () => { id: string; title: string };
  },
): ApprovalGate {
  return {
    async request(asked, signal) {
      // Every request says which task asks (the window may run several).
      const request = o.task ? { ...asked, task: o.task() } : asked;
      if (!o.isTrusted() && (request.kind === "edit" || request.kind === "execute")) {
        o.log.info(`Refused ${request.toolName}: Restricted Mode`);
        return { type: "reject", reason: RESTRICTED_REASON };
      }
      if (request.mustAsk) return inner.request(request, signal);
      if (request.kind === "execute") {
        // Only rules for program and subcommand count; a bare "execute" (saved by older
        // versions) allows nothing.
        const rules = o
          .alwaysAllowed()
          .filter((r) => r.startsWith(EXECUTE_RULE))
          .map((r) => r.slice(EXECUTE_RULE.length));
        if (request.command !== undefined && allowedByRules(request.command, rules)) return { type: "approve" };
      } else if (o.alwaysAllowed().includes(request.toolName)) return { type: "approve" };
      return inner.request(request, signal);
    },
  };
}
