import type { BackendProtocol } from "../backends/protocol";
import { isNotKept, sizeText, type CheckpointStore, type Content } from "./checkpointStore";
import { lineHunks, placeHunks, spliceBlocks, splitLines, type HunkPlace, type LineHunk } from "./lineHunks";

/** Files an Undo writes at once. */
const UNDO_AT_ONCE = 8;

/** A hunk of the Changes list: where it is now in the file, or why it cannot be undone there. */
export interface ChangeHunk extends LineHunk {
  place: HunkPlace;
}

/** A file the task changed and the person has not reviewed all of. */
export interface FileChanges {
  path: string;
  /** Fathom created it (Undo of all deletes it). */
  created: boolean;
  added: number;
  removed: number;
  hunks: ChangeHunk[];
  /** Why its changes cannot be listed (a text over the size checkpoints keep, the file unreadable). */
  problem?: string;
  /** The texts the hunks are between (the diff's left side is `base`). */
  base: string;
  now: string | null;
}

/** A file's review state read from the journal: its accepted text and what Fathom's changes make it. */
interface Reviewed {
  base: Content;
  agent: Content;
}

export interface ChangesOutcome {
  /** Hunks undone (or kept) per file. */
  done: { path: string; hunks: LineHunk[]; of: number; created: boolean }[];
  conflicts: { path: string; reason: string }[];
  failed: { path: string; reason: string }[];
}

/** Which hunks to act on: a file's (all when `hunks` is absent), or every file's. */
export interface ChangeSelection {
  path?: string;
  hunks?: readonly string[];
}

/**
 * "Review after": a task's changes since its start, per file and per hunk, from its checkpoint
 * journal and the files now, with Keep (accept: recorded in the journal) and Undo (put back:
 * written through the backend, recorded as a `restore` write, so it is itself checkpointed).
 * Undo finds each hunk where Fathom left it in the file now; lines the person changed since are
 * a conflict, left as they are.
 */
export class TaskChanges {
  constructor(
    private readonly store: CheckpointStore,
    private readonly taskId: string,
    private readonly backend: BackendProtocol,
  ) {}

  private async reviewed(): Promise<Map<string, Reviewed>> {
    const byPath = new Map<string, Reviewed>();
    for (const e of await this.store.journal(this.taskId)) {
      if (e.t === "w") {
        const seen = byPath.get(e.path);
        if (seen) seen.agent = e.after;
        else byPath.set(e.path, { base: e.before, agent: e.after });
      } else if (e.t === "rv") byPath.set(e.path, { base: e.base, agent: e.agent });
    }
    return byPath;
  }

  /**
   * A write the person approved on its card (call `callId`) was reviewed then: unless the file
   * still had changes nobody reviewed before it, it does not go into the list.
   */
  async accept(callId: string): Promise<string[]> {
    const entries = await this.store.journal(this.taskId);
    const state = new Map<string, Reviewed>();
    const accepted = new Map<string, Content>();
    let approved = false;
    for (const e of entries) {
      if (e.t === "cp") approved = (e.meta?.callId ?? e.meta?.toolCallId) === callId;
      else if (e.t === "rv") state.set(e.path, { base: e.base, agent: e.agent });
      else if (e.t === "w") {
        const seen = state.get(e.path);
        if (approved && e.by === undefined && (!seen || seen.base === seen.agent)) accepted.set(e.path, e.after);
        if (seen) seen.agent = e.after;
        else state.set(e.path, { base: e.before, agent: e.after });
        approved = false;
      }
    }
    for (const [path, base] of accepted)
      await this.store.recordReview(this.taskId, path, base, state.get(path)!.agent, []);
    return [...accepted.keys()];
  }

  private async text(c: Content): Promise<string | null> {
    return c === null || isNotKept(c) ? null : (await this.store.blobs.get(c)).toString("utf8");
  }

  /** The files with changes not reviewed yet, in the order the task first wrote them. */
  async list(): Promise<FileChanges[]> {
    const out: FileChanges[] = [];
    for (const [path, r] of await this.reviewed()) {
      const file = await this.fileChanges(path, r);
      if (file) out.push(file);
    }
    return out;
  }

  async file(path: string): Promise<FileChanges | undefined> {
    const r = (await this.reviewed()).get(path);
    return r && this.fileChanges(path, r);
  }

  private async fileChanges(path: string, r: Reviewed): Promise<FileChanges | undefined> {
    if (r.base === r.agent) return undefined;
    const created = r.base === null;
    const blank = { path, created, added: 0, removed: 0, hunks: [], base: "", now: null };
    const tooLarge = [r.base, r.agent].find(isNotKept);
    if (tooLarge) return { ...blank, problem: `a text over the size checkpoints keep (${sizeText(tooLarge.notKept)})` };
    const base = (await this.text(r.base)) ?? "";
    const agent = (await this.text(r.agent)) ?? "";
    const hunks = lineHunks(base, agent);
    if (hunks.length === 0 && !created) return undefined;
    const read = this.backend.currentText
      ? await this.backend.currentText(path)
      : { error: "this workspace cannot be read back" };
    const now = "error" in read ? null : read.text;
    const places: HunkPlace[] =
      "error" in read
        ? hunks.map(() => ({ conflict: read.error }))
        : now === null
          ? hunks.map(() => ({ conflict: "the file was deleted after Fathom's change" }))
          : now === agent
            ? hunks.map((h) => ({ nowStart: h.agentStart, nowCount: h.agentLines.length }))
            : placeHunks(agent, now, hunks);
    return {
      path,
      created,
      added: hunks.reduce((n, h) => n + h.agentLines.length, 0),
      removed: hunks.reduce((n, h) => n + h.baseLines.length, 0),
      hunks: hunks.map((h, i) => ({ ...h, place: places[i]! })),
      base,
      now,
    };
  }

  /** Keep: the hunks become the file's accepted text; nothing on disk changes. */
  async keep(target: ChangeSelection = {}): Promise<ChangesOutcome> {
    const outcome: ChangesOutcome = { done: [], conflicts: [], failed: [] };
    const reviewed = await this.reviewed();
    for (const file of await this.targets(target)) {
      const r = reviewed.get(file.path)!;
      const chosen = pick(file, target);
      if (chosen.length === 0 && !(file.created && target.hunks === undefined)) continue;
      const all = chosen.length === file.hunks.length;
      const base = all
        ? r.agent
        : await this.store.keep(
            spliceBlocks(
              splitLines(file.base),
              chosen.map((h) => ({ start: h.baseStart, count: h.baseLines.length, put: h.agentLines })),
            ),
          );
      // When all is kept, base and agent name the same blob: nothing is left to review.
      await this.store.recordReview(this.taskId, file.path, base, r.agent, all ? [] : [base]);
      outcome.done.push({ path: file.path, hunks: chosen, of: file.hunks.length, created: file.created });
    }
    return outcome;
  }

  /**
   * Undo: the hunks go back to their text before the task, in the file as it is now. Files are
   * written a few at a time (each write waits on the disk; a 40-file task stays well under a second).
   */
  async undo(target: ChangeSelection = {}): Promise<ChangesOutcome> {
    const reviewed = await this.reviewed();
    const files = await this.targets(target);
    const results = new Array<ChangesOutcome>(files.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < files.length; i = next++)
        results[i] = await this.undoFile(files[i]!, reviewed.get(files[i]!.path)!, target);
    };
    await Promise.all(Array.from({ length: Math.min(UNDO_AT_ONCE, files.length) }, worker));
    return {
      done: results.flatMap((r) => r.done),
      conflicts: results.flatMap((r) => r.conflicts),
      failed: results.flatMap((r) => r.failed),
    };
  }

  private async undoFile(file: FileChanges, r: Reviewed, target: ChangeSelection): Promise<ChangesOutcome> {
    const outcome: ChangesOutcome = { done: [], conflicts: [], failed: [] };
    if (file.problem) {
      outcome.failed.push({ path: file.path, reason: file.problem });
      return outcome;
    }
    const chosen = pick(file, target);
    const placed = chosen.filter((h) => "nowStart" in h.place);
    for (const h of chosen)
      if ("conflict" in h.place) outcome.conflicts.push({ path: file.path, reason: h.place.conflict });
    if (file.now === null || (placed.length === 0 && !(file.created && file.hunks.length === 0))) return outcome;
    const agent = (await this.text(r.agent)) ?? "";
    const allBack = placed.length === file.hunks.length;
    const newAgent = spliceBlocks(
      splitLines(agent),
      placed.map((h) => ({ start: h.agentStart, count: h.agentLines.length, put: h.baseLines })),
    );
    const newNow = spliceBlocks(
      splitLines(file.now),
      placed.map((h) => {
        const at = h.place as { nowStart: number; nowCount: number };
        return { start: at.nowStart, count: at.nowCount, put: h.baseLines };
      }),
    );
    // A file Fathom created, all undone and untouched since, goes away again.
    const remove = file.created && allBack && newNow === "";
    // The text it had is safe in the store before the file is touched.
    const keptNow = await this.store.keep(file.now);
    const w = remove
      ? this.backend.deleteFile
        ? await this.backend.deleteFile(file.path, file.now)
        : { error: "this workspace cannot delete files" }
      : await this.backend.commitChange(file.path, file.now, newNow);
    if (w.error !== undefined) {
      this.store.release(keptNow);
      outcome.failed.push({ path: file.path, reason: w.error });
      return outcome;
    }
    await this.store.recordWrite(
      this.taskId,
      file.path,
      keptNow,
      await this.store.keep(remove ? null : newNow),
      "restore",
    );
    const agentNow = allBack ? r.base : await this.store.keep(newAgent);
    await this.store.recordReview(this.taskId, file.path, r.base, agentNow, allBack ? [] : [agentNow]);
    outcome.done.push({ path: file.path, hunks: placed, of: file.hunks.length, created: file.created });
    return outcome;
  }

  private async targets(target: ChangeSelection): Promise<FileChanges[]> {
    if (target.path === undefined) return this.list();
    const file = await this.file(target.path);
    return file ? [file] : [];
  }
}

function pick(file: FileChanges, target: ChangeSelection): ChangeHunk[] {
  if (target.hunks === undefined) return file.hunks;
  const ids = new Set(target.hunks);
  return file.hunks.filter((h) => ids.has(h.id));
}
