import type { FileChangeProposal, Middleware, RunState } from "../../core";

export interface SessionHooks {
  /** The run's live state (the top-level agent's, not a subagent's): the session snapshots it to save. */
  onLiveState(state: RunState): void;
  /** An edit is about to be written: the final proposal (auto-approved, or as the person approved/changed it). */
  onWrite(toolCallId: string, proposal: FileChangeProposal): void;
}

/**
 * The host's middleware, innermost: it sees the run's live state (so a task can be saved after
 * every step, not only at its end) and each proposal exactly as it will be written (so the chat
 * shows a diff card for auto-applied edits too).
 */
export function sessionMiddleware(hooks: SessionHooks): Middleware {
  return {
    name: "fathom-session",
    beforeModel(ctx) {
      if (!ctx.subagentType) hooks.onLiveState(ctx.state);
    },
    async wrapToolCall(call, ctx, next) {
      if (!ctx.subagentType) hooks.onLiveState(ctx.state);
      if (call.proposal) hooks.onWrite(call.id, call.proposal);
      return next(call);
    },
  };
}
