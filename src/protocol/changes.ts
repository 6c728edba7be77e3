import { z } from "zod";

/** A file in the Changes list: what the task changed in it that the person has not reviewed yet. */
export const ChangedFileViewSchema = z.object({
  path: z.string().max(4096),
  /** Fathom created it (Undo deletes it). */
  created: z.boolean(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** Hunks not reviewed yet. */
  hunks: z.number().int().nonnegative(),
  /** Why some hunks cannot be undone (the person changed the same lines since). */
  conflicts: z.array(z.string().max(500)).max(50),
  /** Why its changes cannot be listed or undone at all. */
  problem: z.string().max(500).optional(),
});
export type ChangedFileView = z.infer<typeof ChangedFileViewSchema>;

/** The shown task's Changes list ("review after"): files it changed since its start, not reviewed yet. */
export const ChangesViewSchema = z.object({
  files: z.array(ChangedFileViewSchema).max(10_000),
});
export type ChangesView = z.infer<typeof ChangesViewSchema>;

/** Host → webview: the list after any write, Keep or Undo (null: the task changed nothing). */
export const ChangesMessageSchema = z.object({
  type: z.literal("changes"),
  changes: ChangesViewSchema.nullable(),
});

/** Webview → host: Keep or Undo a file's changes (absent `path`: every file's), or open its diff. */
export const ChangesActionSchema = z.object({
  type: z.literal("changesAction"),
  action: z.enum(["keep", "undo", "open"]),
  path: z.string().max(4096).optional(),
});
