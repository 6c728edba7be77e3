import { promises as fsp, constants as fsc, type BigIntStats } from "node:fs";
import * as nodePath from "node:path";
import type {
  BackendProtocol,
  EditResult,
  FileInfo,
  GlobResult,
  GrepOptions,
  GrepResult,
  LsResult,
  PreparedChange,
  ReadResult,
  TextResult,
  WriteResult,
} from "./protocol";
import { O_NOFOLLOW, fdIsInside, normalizeVirtualPath, resolveInRoot, type Checked } from "./pathGuard";
import { looksBinary, readWindow } from "./readWindow";
import { applyTextEdit } from "./textEdit";
import { checkWindowArgs } from "./format";
import { atomicWrite, describe, mkdirInside, removeEmptyFolders } from "./atomicWrite";
import { FATHOM_IGNORE, IgnoreRules, inGitDir } from "./ignoreRules";
import { findRipgrep } from "./search/ripgrep";
import { grepFiles, grepGlobFilter, grepOneFile, listFiles } from "./search/searchFiles";
import { sortedHead, type SearchScope } from "./search/collect";
import { globArgs, narrowToGlob } from "./search/globScope";
import { lstatMany } from "./statMany";
import { statThroughFolders, verifyGrep, withShownPaths } from "./search/verifyInside";
import { listFolder } from "./listFolder";
import { editByPreparing, writeByPreparing } from "./preparedChanges";

export interface FilesystemBackendOptions {
  rootDir: string;
  /** `/` is the root and real absolute paths inside it are accepted (default). Off: paths are real. */
  virtualMode?: boolean;
  /** Largest file read whole, edited, written or searched (default 10). */
  maxFileSizeMb?: number;
  /** `undefined`: look for `rg` on PATH; `null`: always use the Node search; a string: that rg. */
  ripgrepPath?: string | null;
  /** Most files `glob` returns (default 1000) and matches `grep` returns (default 2000). */
  maxGlobResults?: number;
  maxGrepResults?: number;
}

/** `rel` is the path as asked for; `realRel` is where it leads once links are resolved. */
interface Target {
  vpath: string;
  rel: string;
  realRel: string;
  real: string;
  exists: boolean;
  shown: string;
}

/** A file version as the agent last saw it. */
const fingerprint = (st: BigIntStats): string => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;

/** The workspace on disk, confined to `rootDir`. See docs/trust-and-sandbox.md for the rules. */
export class FilesystemBackend implements BackendProtocol {
  readonly rootDir: string;
  readonly virtualMode: boolean;
  readonly maxFileBytes: number;
  private readonly rg: string | null;
  private readonly maxGlob: number;
  private readonly maxGrep: number;
  private realRootP: Promise<string | null> | null = null;
  private ignores: IgnoreRules | null = null;
  /** Real path → fingerprint of the version the agent last read or wrote. */
  private readonly seen = new Map<string, string>();
  /** Real path → the text a prepared change started from and that version's fingerprint. */
  private readonly prepared = new Map<string, { text: string; fp: string }>();

  constructor(opts: FilesystemBackendOptions) {
    this.rootDir = nodePath.resolve(opts.rootDir);
    this.virtualMode = opts.virtualMode ?? true;
    this.maxFileBytes = Math.round((opts.maxFileSizeMb ?? 10) * 1024 * 1024);
    this.rg = findRipgrep(opts.ripgrepPath);
    this.maxGlob = opts.maxGlobResults ?? 1000;
    this.maxGrep = opts.maxGrepResults ?? 2000;
  }

  /** Which search engine is in use (for logs and tests). */
  get searchEngine(): "ripgrep" | "node" {
    return this.rg ? "ripgrep" : "node";
  }

  /** Forgets what the agent has seen (a new task starts). */
  resetSeen(): void {
    this.seen.clear();
  }

  private async realRoot(): Promise<string | null> {
    this.realRootP ??= fsp.realpath(this.rootDir).catch(() => null);
    const r = await this.realRootP;
    if (r && !this.ignores) this.ignores = new IgnoreRules(r);
    return r;
  }

  private async target(path: string | undefined, fallback?: string): Promise<Checked<Target>> {
    const root = await this.realRoot();
    if (!root) return { error: `The workspace folder ${this.rootDir} does not exist or cannot be opened.` };
    let input: unknown = path;
    if (path === undefined || path === "") input = fallback ?? "/";
    if (typeof input === "string" && !this.virtualMode && nodePath.isAbsolute(input)) {
      const inside = [this.rootDir, root].some((r) => input === r || (input as string).startsWith(r + nodePath.sep));
      if (!inside)
        return {
          error: `Path '${input}' is outside the workspace (${this.rootDir}); only files inside it can be used.`,
        };
    }
    const v = normalizeVirtualPath(input, [root, this.rootDir]);
    if (typeof v !== "string") return v;
    const rel = v.slice(1);
    const shown = this.virtualMode ? v : nodePath.join(this.rootDir, rel);
    if (rel && (await this.ignores?.isHidden(rel, false))) {
      return { error: `'${shown}' is excluded by ${FATHOM_IGNORE} and cannot be used.` };
    }
    const r = await resolveInRoot(root, v);
    if ("error" in r) return r;
    const realRel = nodePath.relative(root, r.real).split(nodePath.sep).join("/");
    const isDir =
      r.exists &&
      (await fsp.stat(r.real).then(
        (s) => s.isDirectory(),
        () => false,
      ));
    if (realRel !== "" && (await this.ignores?.isHidden(realRel, isDir))) {
      return { error: `'${shown}' is excluded by ${FATHOM_IGNORE} and cannot be used.` };
    }
    return { vpath: v, rel, realRel, real: r.real, exists: r.exists, shown };
  }

  private shownOf(rel: string): string {
    return this.virtualMode ? "/" + rel : nodePath.join(this.rootDir, rel);
  }

  private notFound(t: Target): { error: string } {
    return {
      error: `File not found: ${t.shown}. Paths start at the workspace root '/'; use ls or glob to find the file.`,
    };
  }

  /** Opens a regular file for reading, refusing links, folders, pipes, sockets and devices. */
  private async openRegular(t: Target): Promise<Checked<{ fh: fsp.FileHandle; st: BigIntStats }>> {
    if (!t.exists) return this.notFound(t);
    const root = (await this.realRoot()) as string;
    try {
      const pre = await fsp.lstat(t.real);
      if (pre.isDirectory()) return { error: `${t.shown} is a folder, not a file. Use ls to see what it holds.` };
      if (!pre.isFile())
        return { error: `${t.shown} is not a regular file (a pipe, socket or device); it cannot be read.` };
      const fh = await fsp.open(t.real, fsc.O_RDONLY | O_NOFOLLOW | fsc.O_NONBLOCK);
      const st = await fh.stat({ bigint: true });
      if (!st.isFile() || !(await fdIsInside(root, fh.fd))) {
        await fh.close();
        return { error: `${t.shown} changed while it was being opened; try again.` };
      }
      return { fh, st };
    } catch (e) {
      return { error: `Cannot open ${t.shown}: ${describe(e)}.` };
    }
  }

  async ls(path: string): Promise<LsResult> {
    const t = await this.target(path);
    if ("error" in t) return t;
    if (!t.exists) return { error: `Folder not found: ${t.shown}. Use ls / to start from the root.` };
    const root = (await this.realRoot()) as string;
    return listFolder(
      root,
      t,
      (rel, isDir) => this.ignores?.isHidden(rel, isDir) ?? false,
      (rel) => this.shownOf(rel),
    );
  }

  async read(path: string, offset?: number, limit?: number): Promise<ReadResult> {
    const bad = checkWindowArgs(offset, limit);
    if (bad) return { error: bad };
    const t = await this.target(path);
    if ("error" in t) return t;
    const o = await this.openRegular(t);
    if ("error" in o) return o;
    const { fh, st } = o;
    try {
      const size = Number(st.size);
      if (size > this.maxFileBytes && offset === undefined && limit === undefined) {
        return {
          error: `${t.shown} is ${(size / 1048576).toFixed(1)} MB, over the ${this.maxFileBytes / 1048576} MB limit for reading without a window. Read part of it with offset and limit (for example offset=0, limit=200).`,
        };
      }
      if (await looksBinary(fh, size)) {
        return {
          error: `${t.shown} looks like a binary file (${size} bytes, has NUL bytes), so it cannot be shown as text.`,
        };
      }
      const r = await readWindow(fh, size, `${t.real}:${fingerprint(st)}`, offset ?? 0, limit ?? undefined);
      if (r.error) return { error: r.binary ? r.error.replace("This", t.shown) : r.error };
      this.seen.set(t.real, fingerprint(st));
      return { content: r.content ?? "" };
    } catch (e) {
      return { error: `Cannot read ${t.shown}: ${describe(e)}.` };
    } finally {
      await fh.close().catch(() => undefined);
    }
  }

  async readText(path: string, maxBytes: number): Promise<TextResult> {
    if (!Number.isInteger(maxBytes) || maxBytes < 1) return { error: "maxBytes must be a whole number, 1 or more." };
    const t = await this.target(path);
    if ("error" in t) return t;
    const o = await this.openRegular(t);
    if ("error" in o) return o;
    try {
      const size = Number(o.st.size);
      const buf = Buffer.alloc(Math.min(size, maxBytes));
      const { bytesRead } = await o.fh.read(buf, 0, buf.length, 0);
      const bytes = buf.subarray(0, bytesRead);
      if (bytes.includes(0)) return { error: `${t.shown} is a binary file.` };
      return { text: bytes.toString("utf8"), truncated: size > maxBytes };
    } catch (e) {
      return { error: `Cannot read ${t.shown}: ${describe(e)}.` };
    } finally {
      await o.fh.close().catch(() => undefined);
    }
  }

  /** Reads a whole file as text for an edit; null when it does not exist. */
  private async readWhole(t: Target): Promise<Checked<{ text: string | null; fp: string | null }>> {
    if (!t.exists) return { text: null, fp: null };
    const o = await this.openRegular(t);
    if ("error" in o) return o;
    try {
      if (Number(o.st.size) > this.maxFileBytes) {
        return { error: `${t.shown} is larger than the ${this.maxFileBytes / 1048576} MB limit for editing.` };
      }
      const buf = await o.fh.readFile();
      if (buf.includes(0)) return { error: `${t.shown} is a binary file; it cannot be edited as text.` };
      try {
        return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buf), fp: fingerprint(o.st) };
      } catch {
        return { error: `${t.shown} is not valid UTF-8 text; it cannot be edited.` };
      }
    } catch (e) {
      return { error: `Cannot read ${t.shown}: ${describe(e)}.` };
    } finally {
      await o.fh.close().catch(() => undefined);
    }
  }

  private writable(t: Target): string | null {
    if (t.rel === "") return "The workspace root is a folder, not a file.";
    // Both the path asked for and where its links lead: `docs/config -> ../.git/config` is .git.
    for (const rel of [t.rel, t.realRel]) {
      if (inGitDir(rel))
        return `${t.shown} is inside .git${rel === t.rel ? "" : " (through a link)"}, which the agent may not change.`;
      if (rel.toLowerCase() === FATHOM_IGNORE)
        return `${FATHOM_IGNORE} controls what the agent may touch; only a person may change it.`;
    }
    return null;
  }

  async prepareWrite(path: string, content: string): Promise<PreparedChange | { error: string }> {
    if (typeof content !== "string") return { error: "content must be a string." };
    const t = await this.target(path);
    if ("error" in t) return t;
    const bad = this.writable(t);
    if (bad) return { error: bad };
    if (Buffer.byteLength(content) > this.maxFileBytes)
      return { error: `content is over the ${this.maxFileBytes / 1048576} MB limit.` };
    const cur = await this.readWhole(t);
    if ("error" in cur) return cur;
    if (cur.text !== null) {
      const seen = this.seen.get(t.real);
      if (seen === undefined) {
        return {
          error: `${t.shown} already exists. Read it with read_file first, then write it again (or use edit_file for a small change).`,
        };
      }
      if (seen !== cur.fp) {
        return { error: `${t.shown} has changed on disk since you last read it. Read it again before writing.` };
      }
    }
    if (cur.text !== null && cur.fp !== null) this.prepared.set(t.real, { text: cur.text, fp: cur.fp });
    return { path: t.vpath, before: cur.text, after: content };
  }

  async prepareEdit(
    path: string,
    oldString: string,
    newString: string,
    replaceAll = false,
  ): Promise<PreparedChange | { error: string }> {
    if (typeof oldString !== "string" || typeof newString !== "string")
      return { error: "old_string and new_string must be strings." };
    const t = await this.target(path);
    if ("error" in t) return t;
    const bad = this.writable(t);
    if (bad) return { error: bad };
    const cur = await this.readWhole(t);
    if ("error" in cur) return cur;
    if (cur.text === null) return this.notFound(t);
    const seen = this.seen.get(t.real);
    if (seen !== undefined && seen !== cur.fp) {
      return { error: `${t.shown} has changed on disk since you last read it. Read it again, then retry the edit.` };
    }
    const r = applyTextEdit(cur.text, oldString, newString, replaceAll, t.shown);
    if (r.error !== undefined || r.after === undefined) return { error: r.error ?? "The edit failed." };
    if (Buffer.byteLength(r.after) > this.maxFileBytes)
      return { error: `The result would be over the ${this.maxFileBytes / 1048576} MB limit.` };
    if (cur.fp !== null) this.prepared.set(t.real, { text: cur.text, fp: cur.fp });
    return { path: t.vpath, before: cur.text, after: r.after, occurrences: r.occurrences };
  }

  async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    if (typeof after !== "string") return { error: "The new content must be a string." };
    const t = await this.target(path);
    if ("error" in t) return t;
    const bad = this.writable(t);
    if (bad) return { error: bad };
    if (!(await this.stillEquals(t, before))) {
      return {
        error: `${t.shown} changed on disk after the change was prepared; nothing was written. Read it again and redo the change.`,
      };
    }
    const root = (await this.realRoot()) as string;
    const made = await mkdirInside(root, nodePath.dirname(t.real));
    if ("error" in made) return { error: `${made.error} (${t.shown})` };
    // The folders now exist: resolve again so a link planted meanwhile is caught.
    const again = await this.target(path);
    const err =
      "error" in again
        ? again.error
        : again.real !== t.real
          ? `${t.shown} changed while writing; nothing was written.`
          : await atomicWrite(root, t.real, Buffer.from(after, "utf8"));
    if (err) {
      await removeEmptyFolders(made.created);
      return { error: err.includes(t.shown) ? err : `${err} (${t.shown})` };
    }
    try {
      this.seen.set(t.real, fingerprint(await fsp.lstat(t.real, { bigint: true })));
    } catch {
      /* written; the next edit will simply re-check */
    }
    return { path: t.vpath };
  }

  /** Whether the file on disk still holds exactly `before` (null: it does not exist). */
  private async stillEquals(t: Target, before: string | null): Promise<boolean> {
    const prep = this.prepared.get(t.real);
    this.prepared.delete(t.real);
    if (before !== null && prep && t.exists && prep.text === before) {
      // Same version as when the change was prepared: no need to read it again.
      const st = await fsp.lstat(t.real, { bigint: true }).catch(() => null);
      if (st && st.isFile() && fingerprint(st) === prep.fp) return true;
    }
    const cur = await this.readWhole(t);
    return !("error" in cur) && cur.text === before;
  }

  async currentText(path: string): Promise<{ text: string | null } | { error: string }> {
    const t = await this.target(path);
    if ("error" in t) return t;
    const cur = await this.readWhole(t);
    return "error" in cur ? cur : { text: cur.text };
  }

  async deleteFile(path: string, expected: string): Promise<WriteResult> {
    const t = await this.target(path);
    if ("error" in t) return t;
    const bad = this.writable(t);
    if (bad) return { error: bad };
    if (!(await this.stillEquals(t, expected))) return { error: `${t.shown} changed on disk; it was not deleted.` };
    // Within the root by construction (target resolved every link); unlink never follows one.
    const gone = await fsp.unlink(t.real).then(
      () => null,
      (e: unknown) => `Cannot delete ${t.shown}: ${describe(e)}.`,
    );
    this.seen.delete(t.real);
    return gone ? { error: gone } : { path: t.vpath };
  }

  write(path: string, content: string): Promise<WriteResult> {
    return writeByPreparing(this, path, content);
  }

  edit(path: string, oldString: string, newString: string, replaceAll = false): Promise<EditResult> {
    return editByPreparing(this, path, oldString, newString, replaceAll);
  }

  private async scope(t: Target, extra?: (rel: string) => boolean, signal?: AbortSignal): Promise<SearchScope> {
    const root = (await this.realRoot()) as string;
    const startRel = nodePath.relative(root, t.real).split(nodePath.sep).join("/");
    const base = await (this.ignores as IgnoreRules).searchFilter(startRel);
    return {
      realRoot: root,
      startRel,
      keep: extra ? (r) => base(r) && extra(r) : base,
      maxFileBytes: this.maxFileBytes,
      signal,
    };
  }

  async grep(pattern: string, path?: string, glob?: string, options: GrepOptions = {}): Promise<GrepResult> {
    if (typeof pattern !== "string" || pattern === "") return { error: "pattern must be non-empty text." };
    if (/[\r\n]/.test(pattern)) return { error: "pattern must be a single line (grep matches within lines)." };
    const t = await this.target(path);
    if ("error" in t) return t;
    if (!t.exists) return { error: `Path not found: ${t.shown}.` };
    const mode = options.outputMode ?? "content";
    const cap = Math.max(1, options.maxResults ?? this.maxGrep);
    try {
      const st = await fsp.stat(t.real);
      let r: GrepResult;
      if (st.isFile()) {
        r = await grepOneFile(t.real, t.rel, pattern, mode, cap, this.maxFileBytes);
      } else {
        const sc = await this.scope(t, undefined, options.signal);
        if (glob) {
          const keep = sc.keep;
          const g = grepGlobFilter(glob as string, sc.startRel);
          sc.keep = (rel) => keep(rel) && g(rel);
        }
        r = await grepFiles(this.rg, sc, pattern, mode, cap);
      }
      return withShownPaths(
        await verifyGrep((await this.realRoot()) as string, r, this.maxFileBytes, mode === "content"),
        (rel) => this.shownOf(rel),
      );
    } catch (e) {
      return { error: `Search failed: ${describe(e)}.` };
    }
  }

  async glob(pattern: string, path?: string): Promise<GlobResult> {
    const args = globArgs(pattern, path);
    if ("error" in args) return args;
    const t = await this.target(args.base);
    if ("error" in t) return t;
    if (!t.exists) return { error: `Folder not found: ${t.shown}.` };
    try {
      const st = await fsp.stat(t.real);
      if (!st.isDirectory()) return { error: `${t.shown} is a file; glob needs a folder.` };
      const sc = await this.scope(t);
      narrowToGlob(sc, args.pattern);
      const hits = await listFiles(this.rg, sc);
      if (!Array.isArray(hits)) return hits;
      const truncated = hits.length > this.maxGlob;
      // Only the files returned are stat'ed (size, date).
      const kept = sortedHead(hits, this.maxGlob);
      // Stat'ed through the real folders: a name listed via a swapped-in link is missing there.
      const stats = await statThroughFolders(sc.realRoot, kept, lstatMany);
      const files: FileInfo[] = [];
      kept.forEach((rel, i) => {
        const s = stats[i];
        if (s) files.push({ path: this.shownOf(rel), is_dir: false, size: s.size, modified_at: s.mtime.toISOString() });
      });
      return { files, truncated };
    } catch (e) {
      return { error: `glob failed: ${describe(e)}.` };
    }
  }
}
