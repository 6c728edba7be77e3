/**
 * A diff cut into the parts a review sends the model, each small enough for its context: files in
 * order, a file larger than a part split at hunks, a hunk larger than a part split at lines (the
 * numbers stay right, since every line carries its new-side number). Files with nothing to review
 * (binary, deleted, lockfiles, generated, secret files) are skipped with the reason; so is what lies
 * past the most parts one review makes.
 */
import { contentLeftOut } from "../commitMessage/diffBudget";
import type { FileDiff } from "../commitMessage/fileDiffs";
import { numberHunk, type DiffLine } from "./diffLines";

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface ReviewChunk {
  /** The diff as the model sees it: `=== path` lines, hunk headers, numbered lines. */
  text: string;
  /** The files (some of) whose lines it holds. */
  files: string[];
  /** Added and removed lines it holds. */
  changedLines: number;
}

export interface ReviewChunks {
  chunks: ReviewChunk[];
  skipped: SkippedFile[];
  /** The most characters of diff one part holds. */
  chunkChars: number;
}

/** One review makes at most this many parts (model calls add up); the rest is skipped, said so. */
export const MAX_REVIEW_CHUNKS = 20;
const CHARS_PER_TOKEN = 4;
/** A part may take this share of the context; the rest is the prompt, files the model reads and its answers. */
const CONTEXT_SHARE = 0.3;
/** Past this a part holds more than a model reviews well, whatever its context. */
const MAX_CHUNK_CHARS = 60_000;
const MIN_CHUNK_CHARS = 2_000;

/** Characters of diff per part for a model with this context window (tokens). */
export function reviewChunkChars(contextWindow: number): number {
  return Math.max(
    MIN_CHUNK_CHARS,
    Math.min(MAX_CHUNK_CHARS, Math.floor(contextWindow * CHARS_PER_TOKEN * CONTEXT_SHARE)),
  );
}

/** Why a file of the diff is not reviewed, or undefined when it is. */
export function skipReason(file: FileDiff, secret?: (path: string) => string | undefined): string | undefined {
  if (file.status === "deleted") return "deleted: no new lines to comment on";
  const leftOut = contentLeftOut(file, secret);
  if (leftOut) return leftOut === "binary" ? "binary: no lines to review" : leftOut;
  if (file.hunks.length === 0) return `${file.status} with no change to its lines`;
  return undefined;
}

function numbered(line: DiffLine): string {
  return `${line.newLine === undefined ? "".padStart(6) : String(line.newLine).padStart(6)} ${line.mark}${line.text}`;
}

interface Piece {
  file: string;
  text: string;
  changed: number;
}

/** A file's hunks as pieces of at most `max` characters each (a longer hunk split at lines). */
function filePieces(file: FileDiff, max: number): Piece[] {
  const pieces: Piece[] = [];
  for (const hunk of file.hunks.map(numberHunk)) {
    let lines: string[] = [hunk.header];
    let size = hunk.header.length + 1;
    let changed = 0;
    for (const line of hunk.lines) {
      const text = numbered(line);
      if (size + text.length + 1 > max && lines.length > 1) {
        pieces.push({ file: file.path, text: lines.join("\n"), changed });
        lines = [`${hunk.header} (continued)`];
        size = lines[0]!.length + 1;
        changed = 0;
      }
      // A single line longer than a part is cut: its start says enough to review it.
      lines.push(text.length > max / 2 ? `${text.slice(0, Math.floor(max / 2))} [line cut]` : text);
      size += Math.min(text.length, Math.floor(max / 2)) + 1;
      if (line.mark === "+" || line.mark === "-") changed++;
    }
    pieces.push({ file: file.path, text: lines.join("\n"), changed });
  }
  return pieces;
}

function fileHeader(file: FileDiff, continued: boolean): string {
  const what = file.oldPath && file.status === "renamed" ? `renamed from ${file.oldPath}` : file.status;
  return `=== ${file.path} (${what}, +${file.added} -${file.removed})${continued ? " (continued)" : ""}`;
}

/** The diff's files as the parts a review sends, within `chunkChars` characters each. */
export function reviewChunks(
  files: readonly FileDiff[],
  o: { chunkChars: number; secret?: (path: string) => string | undefined; maxChunks?: number },
): ReviewChunks {
  const maxChunks = o.maxChunks ?? MAX_REVIEW_CHUNKS;
  const skipped: SkippedFile[] = [];
  const chunks: ReviewChunk[] = [];
  let current: { parts: string[]; files: string[]; size: number; changed: number } | undefined;
  const close = () => {
    if (current && current.parts.length > 0)
      chunks.push({ text: current.parts.join("\n"), files: current.files, changedLines: current.changed });
    current = undefined;
  };
  for (const file of files) {
    const reason = skipReason(file, o.secret);
    if (reason) {
      skipped.push({ path: file.path, reason });
      continue;
    }
    if (chunks.length >= maxChunks) {
      skipped.push({
        path: file.path,
        reason: `past the ${maxChunks} parts one review makes: review a narrower range`,
      });
      continue;
    }
    const header = fileHeader(file, false);
    const pieces = filePieces(file, o.chunkChars - header.length - 40);
    let headerInChunk = false;
    for (const piece of pieces) {
      if (current && current.size + piece.text.length + header.length + 2 > o.chunkChars) {
        close();
        headerInChunk = false;
      }
      if (chunks.length >= maxChunks) {
        skipped.push({ path: file.path, reason: `only partly reviewed: past the ${maxChunks} parts one review makes` });
        break;
      }
      current ??= { parts: [], files: [], size: 0, changed: 0 };
      if (!headerInChunk) {
        const line = fileHeader(file, piece !== pieces[0]);
        current.parts.push(line);
        current.size += line.length + 1;
        current.files.push(file.path);
        headerInChunk = true;
      }
      current.parts.push(piece.text);
      current.size += piece.text.length + 1;
      current.changed += piece.changed;
    }
  }
  close();
  return { chunks, skipped, chunkChars: o.chunkChars };
}
