import type { ChangesOutcome } from "./taskChanges";

const MAX_NOTE_CHARS = 4_000;
const MAX_HUNK_LINES = 8;

/**
 * What the model is told at its next turn after the person undid some of its changes in the
 * Changes list: which files and lines went back, so it does not redo them blindly.
 */
export function undoneNote(done: ChangesOutcome["done"]): string {
  const parts: string[] = [];
  for (const file of done) {
    if (file.created && file.hunks.length === file.of) {
      parts.push(`- ${file.path}: all your changes undone; the file you created was deleted.`);
      continue;
    }
    const which = file.hunks.length === file.of ? "all your changes" : `${file.hunks.length} of ${file.of} changes`;
    const blocks = file.hunks.map((h) => {
      const show = (sign: string, lines: string[]) =>
        lines
          .slice(0, MAX_HUNK_LINES)
          .map((l) => `${sign}${l.replace(/\r?\n$/, "")}`)
          .concat(lines.length > MAX_HUNK_LINES ? [`${sign}… (${lines.length - MAX_HUNK_LINES} more lines)`] : []);
      return [`@@ line ${h.baseStart + 1}`, ...show("-", h.agentLines), ...show("+", h.baseLines)].join("\n");
    });
    parts.push(`- ${file.path}: ${which} undone (yours as -, put back as +):\n${blocks.join("\n")}`);
  }
  let body = parts.join("\n");
  if (body.length > MAX_NOTE_CHARS) body = `${body.slice(0, MAX_NOTE_CHARS)}\n… (cut)`;
  return `<changes-undone>\nThe person reviewed your changes and undid these; the files on disk are as shown now. Do not make these changes again unless the person asks; read a file again before editing it.\n${body}\n</changes-undone>`;
}
