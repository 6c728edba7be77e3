import { createHash } from "node:crypto";
import { diffArrays } from "diff";

/**
 * One changed block of a file, between two texts: lines `baseStart…` of the earlier text
 * (`baseLines`) became lines `agentStart…` of the later one (`agentLines`). Lines keep their
 * line endings, so a lost final newline is a change too. Indices are 0-based.
 */
export interface LineHunk {
  /** Stable while both texts stay as they are: the Keep and Undo of a list or a CodeLens name it. */
  id: string;
  baseStart: number;
  baseLines: string[];
  agentStart: number;
  agentLines: string[];
}

/** A text's lines, each with its line ending ("" has none). */
export function splitLines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

/** The changed blocks from `base` to `agent`, without context lines (each block its own hunk). */
export function lineHunks(base: string, agent: string): LineHunk[] {
  const hunks: LineHunk[] = [];
  let b = 0;
  let a = 0;
  let open: Omit<LineHunk, "id"> | undefined;
  const close = () => {
    if (open) hunks.push({ ...open, id: hunkId(open) });
    open = undefined;
  };
  for (const part of diffArrays(splitLines(base), splitLines(agent))) {
    const n = part.value.length;
    if (!part.added && !part.removed) {
      close();
      b += n;
      a += n;
      continue;
    }
    open ??= { baseStart: b, baseLines: [], agentStart: a, agentLines: [] };
    if (part.removed) {
      open.baseLines.push(...part.value);
      b += n;
    } else {
      open.agentLines.push(...part.value);
      a += n;
    }
  }
  close();
  return hunks;
}

function hunkId(h: Omit<LineHunk, "id">): string {
  return createHash("sha1")
    .update(`${h.baseStart}\0${h.agentStart}\0${h.baseLines.join("")}\0${h.agentLines.join("")}`)
    .digest("hex")
    .slice(0, 12);
}

/** Replaces, from the last block to the first, lines of `lines` (each block: start, count, what goes there). */
export function spliceBlocks(
  lines: readonly string[],
  blocks: { start: number; count: number; put: string[] }[],
): string {
  const out = [...lines];
  for (const block of [...blocks].sort((x, y) => y.start - x.start)) out.splice(block.start, block.count, ...block.put);
  return out.join("");
}

/**
 * Where a hunk's lines of the `agent` text are in the file `now` (the person may have edited it
 * since): the block of `now` to replace, or why it cannot be found as Fathom left it.
 */
export type HunkPlace = { nowStart: number; nowCount: number } | { conflict: string };

/** Places every hunk of `agent` in `now`, from one line diff of the two. */
export function placeHunks(agent: string, now: string, hunks: readonly LineHunk[]): HunkPlace[] {
  const agentLines = splitLines(agent);
  // toNow[i]: where agent line i is in `now` (-1: the person changed or removed it);
  // insertedBefore[i]: the person added lines just before agent line i (i = length: at the end).
  const toNow = new Array<number>(agentLines.length).fill(-1);
  const insertedBefore = new Array<boolean>(agentLines.length + 1).fill(false);
  let a = 0;
  let n = 0;
  for (const part of diffArrays(agentLines, splitLines(now))) {
    const count = part.value.length;
    if (part.added) {
      insertedBefore[a] = true;
      n += count;
    } else if (part.removed) a += count;
    else {
      for (let k = 0; k < count; k++) toNow[a + k] = n + k;
      a += count;
      n += count;
    }
  }
  const nowLength = n;
  const EDITED = "you changed these lines after Fathom: undo them by hand, or Keep them";
  return hunks.map((h): HunkPlace => {
    const s = h.agentStart;
    const count = h.agentLines.length;
    if (count > 0) {
      for (let k = 0; k < count; k++)
        if (toNow[s + k] === -1 || (k > 0 && insertedBefore[s + k])) return { conflict: EDITED };
      return { nowStart: toNow[s]!, nowCount: count };
    }
    // Fathom only removed lines: they go back between agent lines s-1 and s.
    if (insertedBefore[s])
      return { conflict: "you added lines where Fathom removed these: undo it by hand, or Keep it" };
    if (s === 0) return { nowStart: 0, nowCount: 0 };
    if (toNow[s - 1] !== -1) return { nowStart: toNow[s - 1]! + 1, nowCount: 0 };
    if (s === agentLines.length) return { nowStart: nowLength, nowCount: 0 };
    if (toNow[s] !== -1) return { nowStart: toNow[s]!, nowCount: 0 };
    return { conflict: EDITED };
  });
}
