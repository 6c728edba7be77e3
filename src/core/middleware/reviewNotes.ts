import type { Middleware } from "./types";

/**
 * Notes about the person's review of the task's changes (what they undid in the Changes list),
 * given to the model before its next request: `take` hands over the notes not given yet.
 */
export function reviewNotesMiddleware(take: () => string[]): Middleware {
  return {
    name: "reviewNotes",
    beforeModel(ctx) {
      if (ctx.subagentType) return;
      const notes = take();
      if (notes.length > 0) ctx.state.messages.push({ role: "user", content: notes.join("\n\n") });
    },
  };
}
