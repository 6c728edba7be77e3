import type { FileHandle } from "node:fs/promises";
import { DEFAULT_READ_LIMIT, EMPTY_FILE_REMINDER, checkWindowArgs, formatNumberedLines, offsetPastEnd } from "./format";

/**
 * Reads a window of lines from an open file without loading the whole file: it streams in
 * chunks and keeps a sparse line index (a byte offset every `CHECKPOINT_LINES` lines) per file
 * version, so a later window deep in a huge file seeks almost directly to it.
 */

const CHUNK = 256 * 1024;
const CHECKPOINT_LINES = 1024;
/** Bytes kept of one line; the rest of a longer line is skipped with a note. */
const MAX_LINE_BYTES = 256 * 1024;
/** Bytes one window may return before it stops early with a note. */
const MAX_WINDOW_BYTES = 4 * 1024 * 1024;
const INDEX_CACHE_SIZE = 16;

interface LineIndex {
  /** checkpoints[k] = byte offset where line k*CHECKPOINT_LINES starts (0-based lines). */
  checkpoints: number[];
  /** Lines known in total, once the scan reached the end. */
  totalLines?: number;
}

const indexCache = new Map<string, LineIndex>();

/** Forgets every line index (benchmarks use it to time a first window again). */
export function clearLineIndexes(): void {
  indexCache.clear();
}

function getIndex(key: string): LineIndex {
  let idx = indexCache.get(key);
  if (idx) {
    indexCache.delete(key);
    indexCache.set(key, idx);
    return idx;
  }
  idx = { checkpoints: [0] };
  indexCache.set(key, idx);
  while (indexCache.size > INDEX_CACHE_SIZE) {
    const oldest = indexCache.keys().next().value;
    if (oldest === undefined) break;
    indexCache.delete(oldest);
  }
  return idx;
}

/** Reads of a scan start small (a window near a checkpoint needs little) and grow to this. */
const SCAN_CHUNK_MIN = 64 * 1024;
const SCAN_CHUNK_MAX = 4 * 1024 * 1024;

/**
 * Reads `[pos, size)` in chunks that grow from 64 KB to 4 MB, keeping the next read in flight
 * while the caller scans the current chunk (two buffers at most: memory does not grow with the
 * file). `stop()` must be awaited before the file is closed.
 */
class ChunkReader {
  private readonly bufs: Buffer[] = [];
  private slot = 0;
  private chunk = SCAN_CHUNK_MIN;
  private pending: Promise<{ buf: Buffer; at: number; n: number }> | null = null;

  constructor(
    private readonly fh: FileHandle,
    private readonly size: number,
    private pos: number,
  ) {
    this.pending = this.readAt();
  }

  private readAt(): Promise<{ buf: Buffer; at: number; n: number }> | null {
    if (this.pos >= this.size) return null;
    const want = Math.min(this.chunk, this.size - this.pos);
    this.chunk = Math.min(this.chunk * 2, SCAN_CHUNK_MAX);
    // Full-size buffers from the start: only the pages a read fills take memory, and no
    // smaller buffers are left behind for the collector.
    const buf = (this.bufs[this.slot] ??= Buffer.allocUnsafe(Math.min(SCAN_CHUNK_MAX, this.size - this.pos)));
    this.slot ^= 1;
    const at = this.pos;
    this.pos += want;
    return this.fh
      .read(buf, 0, want, at)
      .then(({ bytesRead }) => ({ buf: buf.subarray(0, bytesRead), at, n: bytesRead }));
  }

  /** The next chunk (a view, valid until the next call), or null at the end. */
  async next(): Promise<{ buf: Buffer; at: number } | null> {
    if (!this.pending) return null;
    const r = await this.pending;
    if (r.n <= 0) {
      this.pending = null;
      return null;
    }
    if (r.at + r.n < this.pos) this.pos = r.at + r.n; // short read: continue right after it
    this.pending = this.readAt();
    return r;
  }

  async stop(): Promise<void> {
    const p = this.pending;
    this.pending = null;
    await p?.catch(() => undefined);
  }
}

/**
 * Finds the byte offset where 0-based line `target` starts, scanning forward from the nearest
 * checkpoint (and recording new checkpoints). Returns null when the file has fewer lines (and
 * then records the total).
 */
async function seekLine(fh: FileHandle, size: number, idx: LineIndex, target: number): Promise<number | null> {
  if (idx.totalLines !== undefined && target >= idx.totalLines) return null;
  const k = Math.min(Math.floor(target / CHECKPOINT_LINES), idx.checkpoints.length - 1);
  let line = k * CHECKPOINT_LINES;
  const from = idx.checkpoints[k] ?? 0;
  if (line === target) return from < size ? from : finish(idx, line);
  let curStart = from;
  let nextCheckpoint = line + CHECKPOINT_LINES;
  const cps = idx.checkpoints;
  const reader = new ChunkReader(fh, size, from);
  try {
    for (let c = await reader.next(); c !== null; c = await reader.next()) {
      const { buf, at } = c;
      for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, nl + 1)) {
        line++;
        if (line === nextCheckpoint) {
          if (line / CHECKPOINT_LINES === cps.length) cps.push(at + nl + 1);
          nextCheckpoint += CHECKPOINT_LINES;
        }
        if (line === target) {
          const start = at + nl + 1;
          return start < size ? start : finish(idx, line);
        }
      }
      const lastNl = buf.lastIndexOf(10);
      if (lastNl !== -1) curStart = at + lastNl + 1;
    }
  } finally {
    await reader.stop();
  }
  // Reached the end: a last line without a final newline still counts.
  return finish(idx, curStart < size ? line + 1 : line);
}

/** Records the file's line count once the scan reached the end; the target was not found. */
function finish(idx: LineIndex, total: number): null {
  idx.totalLines = total;
  return null;
}

export interface WindowResult {
  content?: string;
  error?: string;
  binary?: boolean;
}

/**
 * Reads lines [offset, offset+limit) of an open regular file of `size` bytes. `versionKey`
 * identifies this exact version of the file (device, inode, size, mtime) for the line index.
 */
export async function readWindow(
  fh: FileHandle,
  size: number,
  versionKey: string,
  offset = 0,
  limit = DEFAULT_READ_LIMIT,
): Promise<WindowResult> {
  // Checked here too, not only by callers: a bad offset must never reach the shared line index.
  const bad = checkWindowArgs(offset, limit);
  if (bad) return { error: bad };
  if (size === 0) return offset === 0 ? { content: EMPTY_FILE_REMINDER } : { error: offsetPastEnd(offset, 0) };
  const idx = getIndex(versionKey);
  const start = await seekLine(fh, size, idx, offset);
  if (start === null) {
    const total = idx.totalLines ?? (await countAll(fh, size, idx));
    return { error: offsetPastEnd(offset, total) };
  }
  const lines: Buffer[] = [];
  const cutNotes: number[] = [];
  let cur: Buffer[] = [];
  let curBytes = 0;
  let curCut = false;
  let total = 0;
  let pos = start;
  let endPos = start; // just after the last line break taken
  let full = false; // stopped at `limit` lines, right after a line break
  let stoppedEarly = false;
  const buf = Buffer.allocUnsafe(CHUNK);
  const endLine = (): void => {
    lines.push(Buffer.concat(cur));
    if (curCut) cutNotes.push(offset + lines.length);
    total += curBytes;
    cur = [];
    curBytes = 0;
    curCut = false;
  };
  const take = (slice: Buffer): void => {
    const room = MAX_LINE_BYTES - curBytes;
    if (slice.length > room) {
      curCut = true;
      slice = slice.subarray(0, Math.max(0, room));
    }
    if (slice.length) {
      cur.push(Buffer.from(slice));
      curBytes += slice.length;
    }
  };
  outer: while (pos < size && lines.length < limit) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, size - pos), pos);
    if (bytesRead <= 0) break;
    let i = 0;
    while (i < bytesRead) {
      const nl = buf.indexOf(10, i);
      if (nl === -1 || nl >= bytesRead) {
        take(buf.subarray(i, bytesRead));
        break;
      }
      take(buf.subarray(i, nl));
      endLine();
      i = nl + 1;
      endPos = pos + i;
      if (lines.length >= limit) {
        full = true;
        break outer;
      }
      if (total >= MAX_WINDOW_BYTES) {
        stoppedEarly = true;
        break outer;
      }
    }
    pos += bytesRead;
  }
  if (curBytes > 0 || curCut) endLine();
  const texts: string[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  for (let j = 0; j < lines.length; j++) {
    const b = lines[j] as Buffer;
    if (b.includes(0)) return binary(size);
    let text: string;
    try {
      text = decoder.decode(b);
    } catch {
      // A line cut at MAX_LINE_BYTES may end inside a character: decode leniently then.
      if (cutNotes.includes(offset + j + 1)) text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);
      else return binary(size);
    }
    if (j === 0 && offset === 0 && text.startsWith("\uFEFF")) text = text.slice(1);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    texts.push(text);
  }
  let content = formatNumberedLines(texts, offset + 1);
  const last = offset + texts.length;
  const notes: string[] = [];
  for (const n of cutNotes) notes.push(`Line ${n} is longer than ${MAX_LINE_BYTES} bytes; only its start is shown.`);
  if (stoppedEarly) notes.push(`Stopped after ${MAX_WINDOW_BYTES} bytes. Use offset=${last} to read more.`);
  else if (full && endPos < size) {
    // Bytes after the last line break taken: at least one more line.
    notes.push(`Showing lines ${offset + 1}-${last}. Use offset=${last} to read more.`);
  }
  if (notes.length) content += "\n\n(" + notes.join(" ") + ")";
  return { content };
}

async function countAll(fh: FileHandle, size: number, idx: LineIndex): Promise<number> {
  await seekLine(fh, size, idx, Number.MAX_SAFE_INTEGER);
  return idx.totalLines ?? 0;
}

function binary(size: number): WindowResult {
  return {
    binary: true,
    error: `This looks like a binary file (${size} bytes; it has NUL bytes or is not valid UTF-8), so it cannot be shown as text.`,
  };
}

/** Quick binary sniff of a file's first bytes. */
export async function looksBinary(fh: FileHandle, size: number): Promise<boolean> {
  const n = Math.min(8192, size);
  if (n === 0) return false;
  const buf = Buffer.allocUnsafe(n);
  const { bytesRead } = await fh.read(buf, 0, n, 0);
  return buf.subarray(0, bytesRead).includes(0);
}
