import { Minimatch } from "minimatch";
import type {
  BackendProtocol,
  EditResult,
  FileInfo,
  GlobResult,
  GrepMatch,
  GrepOptions,
  GrepResult,
  LsResult,
  PreparedChange,
  ReadResult,
  TextResult,
  WriteResult,
} from "./protocol";
import { normalizeVirtualPath } from "./pathGuard";
import { formatTextWindow, splitLines } from "./format";
import { applyTextEdit } from "./textEdit";
import { MatchCollector, cleanLine } from "./search/collect";
import { editByPreparing, writeByPreparing } from "./preparedChanges";

/**
 * Files kept in memory: for tests, scratch space and evicted large tool results
 * (`/large_tool_results/`). Same rules and messages as the disk backend where they apply.
 */
export class StateBackend implements BackendProtocol {
  private readonly files = new Map<string, { content: string; modified: Date; version: number }>();
  private readonly seen = new Map<string, number>();
  private version = 0;

  constructor(initial: Record<string, string> = {}) {
    for (const [p, c] of Object.entries(initial)) {
      const v = normalizeVirtualPath(p);
      if (typeof v === "string") this.files.set(v, { content: c, modified: new Date(), version: ++this.version });
    }
  }

  /** Snapshot of every file (path → content). */
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.files].map(([k, v]) => [k, v.content]));
  }

  /** Changes a file as a person would (not through the agent): the agent's view becomes stale. */
  setExternal(path: string, content: string): void {
    const v = normalizeVirtualPath(path);
    if (typeof v === "string") this.files.set(v, { content, modified: new Date(), version: ++this.version });
  }

  resetSeen(): void {
    this.seen.clear();
  }

  async ls(path: string): Promise<LsResult> {
    const v = normalizeVirtualPath(path || "/");
    if (typeof v !== "string") return v;
    if (this.files.has(v)) return { error: `${v} is a file, not a folder. Use read_file to read it.` };
    const prefix = v === "/" ? "/" : v + "/";
    const out = new Map<string, FileInfo>();
    for (const [p, f] of this.files) {
      if (!p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1)
        out.set(p, {
          path: p,
          is_dir: false,
          size: Buffer.byteLength(f.content),
          modified_at: f.modified.toISOString(),
        });
      else out.set(prefix + rest.slice(0, slash) + "/", { path: prefix + rest.slice(0, slash) + "/", is_dir: true });
    }
    if (out.size === 0 && v !== "/") return { error: `Folder not found: ${v}.` };
    return { files: [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  }

  async read(path: string, offset?: number, limit?: number): Promise<ReadResult> {
    const v = normalizeVirtualPath(path);
    if (typeof v !== "string") return v;
    const f = this.files.get(v);
    if (!f) return { error: `File not found: ${v}. Use ls or glob to find the file.` };
    const r = formatTextWindow(f.content, offset ?? 0, limit ?? undefined);
    if (r.content !== undefined) this.seen.set(v, f.version);
    return r;
  }

  async readText(path: string, maxBytes: number): Promise<TextResult> {
    const v = normalizeVirtualPath(path);
    if (typeof v !== "string") return v;
    const f = this.files.get(v);
    if (!f) return { error: `File not found: ${v}.` };
    const bytes = Buffer.from(f.content, "utf8");
    return bytes.length > maxBytes
      ? { text: bytes.subarray(0, maxBytes).toString("utf8"), truncated: true }
      : { text: f.content, truncated: false };
  }

  async prepareWrite(path: string, content: string): Promise<PreparedChange | { error: string }> {
    const v = normalizeVirtualPath(path);
    if (typeof v !== "string") return v;
    if (typeof content !== "string") return { error: "content must be a string." };
    const f = this.files.get(v);
    if (f) {
      const seen = this.seen.get(v);
      if (seen === undefined)
        return { error: `${v} already exists. Read it with read_file first, then write it again (or use edit_file).` };
      if (seen !== f.version)
        return { error: `${v} has changed since you last read it. Read it again before writing.` };
    }
    return { path: v, before: f ? f.content : null, after: content };
  }

  async prepareEdit(
    path: string,
    oldString: string,
    newString: string,
    replaceAll = false,
  ): Promise<PreparedChange | { error: string }> {
    const v = normalizeVirtualPath(path);
    if (typeof v !== "string") return v;
    const f = this.files.get(v);
    if (!f) return { error: `File not found: ${v}. Use ls or glob to find the file.` };
    const seen = this.seen.get(v);
    if (seen !== undefined && seen !== f.version)
      return { error: `${v} has changed since you last read it. Read it again, then retry the edit.` };
    const r = applyTextEdit(f.content, oldString, newString, replaceAll, v);
    if (r.after === undefined) return { error: r.error ?? "The edit failed." };
    return { path: v, before: f.content, after: r.after, occurrences: r.occurrences };
  }

  async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    const v = normalizeVirtualPath(path);
    if (typeof v !== "string") return v;
    const cur = this.files.get(v);
    if ((cur ? cur.content : null) !== before)
      return { error: `${v} changed after the change was prepared; nothing was written. Read it again.` };
    const version = ++this.version;
    this.files.set(v, { content: after, modified: new Date(), version });
    this.seen.set(v, version);
    return { path: v };
  }

  write(path: string, content: string): Promise<WriteResult> {
    return writeByPreparing(this, path, content);
  }

  edit(path: string, oldString: string, newString: string, replaceAll = false): Promise<EditResult> {
    return editByPreparing(this, path, oldString, newString, replaceAll);
  }

  private under(path: string | undefined): string | { error: string } {
    const v = normalizeVirtualPath(path || "/");
    return v;
  }

  async grep(pattern: string, path?: string, glob?: string, options: GrepOptions = {}): Promise<GrepResult> {
    if (typeof pattern !== "string" || pattern === "") return { error: "pattern must be non-empty text." };
    if (/[\r\n]/.test(pattern)) return { error: "pattern must be a single line (grep matches within lines)." };
    const v = this.under(path);
    if (typeof v !== "string") return v;
    const mode = options.outputMode ?? "content";
    const collector = new MatchCollector(mode, options.maxResults ?? 2000);
    const mm = glob ? new Minimatch(glob.replace(/^\/+/, ""), { dot: true }) : null;
    const byName = glob ? !glob.replace(/^\/+/, "").includes("/") : false;
    for (const [p, f] of this.files) {
      const inScope = v === "/" || p === v || p.startsWith(v + "/");
      if (!inScope) continue;
      const below = p === v ? p.slice(p.lastIndexOf("/") + 1) : p.slice(v === "/" ? 1 : v.length + 1);
      if (mm && !mm.match(byName ? below.slice(below.lastIndexOf("/") + 1) : below)) continue;
      if (f.content.includes("\0")) continue;
      const found: GrepMatch[] = [];
      splitLines(f.content).forEach((line, i) => {
        if (line.includes(pattern)) found.push({ path: p, line: i + 1, text: cleanLine(line) });
      });
      collector.addFile(p, found);
    }
    return collector.result();
  }

  async glob(pattern: string, path?: string): Promise<GlobResult> {
    if (typeof pattern !== "string" || pattern.trim() === "")
      return { error: "pattern must be a glob such as **/*.ts." };
    const v = this.under(pattern.startsWith("/") ? "/" : path);
    if (typeof v !== "string") return v;
    const mm = new Minimatch(pattern.replace(/^\/+/, ""), { dot: true });
    const prefix = v === "/" ? "/" : v + "/";
    const files = [...this.files]
      .filter(([p]) => p.startsWith(prefix) && mm.match(p.slice(prefix.length)))
      .map(([p, f]) => ({
        path: p,
        is_dir: false,
        size: Buffer.byteLength(f.content),
        modified_at: f.modified.toISOString(),
      }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, truncated: false };
  }
}
