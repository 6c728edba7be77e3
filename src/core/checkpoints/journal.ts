import { promises as fsp } from "node:fs";

/** A file's content in a checkpoint: a blob, absent (null), or not kept because it was too large. */
export type Content = string | null | { notKept: number };

/**
 * One task's checkpoint journal, a line of JSON per entry, appended as the task goes:
 * - `cp`: a checkpoint (the start of a person's message, or just before a write);
 * - `w`: a file Fathom changed (`before` and `after` as blobs; `after` null: deleted by a restore);
 * - `cmd`: a command that ran (its changes are not recorded, so a restore lists it);
 * - `rv`: the person reviewed a file in the Changes list (Keep or Undo): from here on its changes
 *   are those from `base` (what they accepted) to `agent` (what Fathom's changes make it).
 */
export type JournalEntry =
  | {
      t: "cp";
      n: number;
      at: number;
      kind: "message" | "write";
      label: string;
      conversationLength: number;
      meta?: Record<string, unknown>;
    }
  | { t: "w"; path: string; before: Content; after: Content; at: number; by?: "restore" }
  | { t: "cmd"; command: string; at: number }
  | { t: "rv"; path: string; base: Content; agent: Content; at: number };

export async function readJournal(file: string): Promise<JournalEntry[]> {
  const text = await fsp.readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return "";
    throw e;
  });
  const out: JournalEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as JournalEntry);
    } catch {
      // A line cut short by a kill: the entries before it stand.
    }
  }
  return out;
}

/** The newline goes first, so an entry appended after a torn one starts a line of its own. */
export async function appendJournal(file: string, entry: JournalEntry): Promise<void> {
  await fsp.appendFile(file, `\n${JSON.stringify(entry)}`);
}
