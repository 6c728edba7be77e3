import { parsePatch } from "diff";

export interface DiffLine {
  kind: "add" | "del" | "ctx" | "hunk" | "note";
  text: string;
  oldLine?: number;
  newLine?: number;
}

export interface ParsedDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** A unified diff as display lines with line numbers and +/− counts. Never throws. */
export function parseUnifiedDiff(unified: string): ParsedDiff {
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  let patches;
  try {
    patches = parsePatch(unified);
  } catch {
    return { lines: unified.split("\n").map((text) => ({ kind: "note", text })), added, removed };
  }
  for (const patch of patches) {
    for (const hunk of patch.hunks) {
      // parsePatch reads an empty side's "-0,0" as 1: print it back as written.
      const start = (at: number, count: number) => (count === 0 ? at - 1 : at);
      lines.push({
        kind: "hunk",
        text: `@@ -${start(hunk.oldStart, hunk.oldLines)},${hunk.oldLines} +${start(hunk.newStart, hunk.newLines)},${hunk.newLines} @@`,
      });
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      for (const line of hunk.lines) {
        const sign = line[0];
        const text = line.slice(1);
        if (sign === "+") {
          added += 1;
          lines.push({ kind: "add", text, newLine: newLine++ });
        } else if (sign === "-") {
          removed += 1;
          lines.push({ kind: "del", text, oldLine: oldLine++ });
        } else if (sign === "\\") {
          lines.push({ kind: "note", text: line });
        } else {
          lines.push({ kind: "ctx", text, oldLine: oldLine++, newLine: newLine++ });
        }
      }
    }
  }
  return { lines, added, removed };
}
