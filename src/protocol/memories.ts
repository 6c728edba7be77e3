import { z } from "zod";

/** One memory file in the Fathom view's Memories list. */
export const MemoryViewSchema = z.object({
  /** `/memories/style.md`, `/memories/user/tone.md`. */
  path: z.string().max(4096),
  firstLine: z.string().max(400),
  size: z.number().int().nonnegative(),
  /** Over the size a memory may hold (planted by hand): only its start is read. */
  overCap: z.boolean(),
});
export type MemoryView = z.infer<typeof MemoryViewSchema>;

/** Host → webview: the list, after any action on it. */
export const MemoriesMessageSchema = z.object({
  type: z.literal("memories"),
  memories: z.array(MemoryViewSchema).max(500),
});
/** Webview → host: list (when the list opens), open in an editor, delete one, clear all. */
export const MemoryActionSchema = z.object({
  type: z.literal("memoryAction"),
  action: z.enum(["list", "open", "delete", "clear"]),
  path: z.string().max(4096).optional(),
});
