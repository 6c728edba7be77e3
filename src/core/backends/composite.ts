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
import { normalizeVirtualPath } from "./pathGuard";
import { compareMatch } from "./search/collect";

/**
 * Routes paths to backends by prefix, longest prefix first. Used for multi-root workspaces
 * (`/frontend/...`, `/backend/...`: the first segment names the folder) and for non-disk areas
 * such as `/large_tool_results/`. Paths inside a routed backend are seen without the prefix, and
 * results are given back with it.
 */
export class CompositeBackend implements BackendProtocol {
  private readonly routes: { prefix: string; backend: BackendProtocol }[];
  private readonly unlisted: ReadonlySet<string>;

  /**
   * `fallback` serves paths no route matches (null: such paths are an error). `unlisted` routes
   * are reached only by their own paths: a listing or search of a folder above leaves them out.
   */
  constructor(
    private readonly fallback: BackendProtocol | null,
    routes: Record<string, BackendProtocol>,
    options: { unlisted?: readonly string[] } = {},
  ) {
    this.unlisted = new Set(options.unlisted ?? []);
    this.routes = Object.entries(routes)
      .map(([p, backend]) => {
        const v = normalizeVirtualPath(p);
        if (typeof v !== "string" || v === "/") throw new Error(`Invalid route prefix: ${p}`);
        return { prefix: v, backend };
      })
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  private route(
    path: string | undefined,
  ): { backend: BackendProtocol; prefix: string; inner: string } | { error: string } {
    const v = normalizeVirtualPath(path === undefined || path === "" ? "/" : path);
    if (typeof v !== "string") return v;
    for (const r of this.routes) {
      if (v === r.prefix || v.startsWith(r.prefix + "/")) {
        return { backend: r.backend, prefix: r.prefix, inner: v.slice(r.prefix.length) || "/" };
      }
    }
    if (!this.fallback) {
      const names = this.routes.map((r) => r.prefix + "/").join(", ");
      return { error: `Path '${v}' is not in any workspace folder. Start paths with one of: ${names}` };
    }
    return { backend: this.fallback, prefix: "", inner: v };
  }

  private hidden(prefix: string): boolean {
    for (const u of this.unlisted) if (prefix === u || prefix.startsWith(`${u}/`)) return true;
    return false;
  }

  private outer(prefix: string, p: string): string {
    return prefix === "" ? p : p === "/" ? prefix : prefix + p;
  }

  async ls(path: string): Promise<LsResult> {
    const r = this.route(path);
    if ("error" in r) {
      const v = normalizeVirtualPath(path || "/");
      if (v !== "/") return r;
    }
    const files: FileInfo[] = [];
    if (!("error" in r)) {
      const res = await r.backend.ls(r.inner);
      if (res.error && !(r.prefix === "" && r.inner === "/")) return res;
      for (const f of res.files ?? []) files.push({ ...f, path: this.outer(r.prefix, f.path) });
    }
    // At a folder that contains route prefixes, show them as folders.
    const v = normalizeVirtualPath(path || "/");
    if (typeof v === "string" && ("error" in r || r.prefix === "")) {
      const base = v === "/" ? "/" : v + "/";
      for (const { prefix } of this.routes) {
        if (!prefix.startsWith(base) || this.hidden(prefix)) continue;
        const child = base + prefix.slice(base.length).split("/")[0] + "/";
        if (!files.some((f) => f.path === child)) files.push({ path: child, is_dir: true });
      }
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files };
  }

  async read(path: string, offset?: number, limit?: number): Promise<ReadResult> {
    const r = this.route(path);
    return "error" in r ? r : r.backend.read(r.inner, offset, limit);
  }

  async readText(path: string, maxBytes: number): Promise<TextResult> {
    const r = this.route(path);
    return "error" in r ? r : r.backend.readText(r.inner, maxBytes);
  }

  async write(path: string, content: string): Promise<WriteResult> {
    const r = this.route(path);
    if ("error" in r) return r;
    const w = await r.backend.write(r.inner, content);
    return w.path ? { path: this.outer(r.prefix, w.path) } : w;
  }

  async edit(path: string, oldString: string, newString: string, replaceAll?: boolean): Promise<EditResult> {
    const r = this.route(path);
    if ("error" in r) return r;
    const e = await r.backend.edit(r.inner, oldString, newString, replaceAll);
    return e.path ? { ...e, path: this.outer(r.prefix, e.path) } : e;
  }

  async prepareWrite(path: string, content: string): Promise<PreparedChange | { error: string }> {
    const r = this.route(path);
    if ("error" in r) return r;
    const p = await r.backend.prepareWrite(r.inner, content);
    return "error" in p ? p : { ...p, path: this.outer(r.prefix, p.path) };
  }

  async prepareEdit(path: string, o: string, n: string, all?: boolean): Promise<PreparedChange | { error: string }> {
    const r = this.route(path);
    if ("error" in r) return r;
    const p = await r.backend.prepareEdit(r.inner, o, n, all);
    return "error" in p ? p : { ...p, path: this.outer(r.prefix, p.path) };
  }

  async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    const r = this.route(path);
    if ("error" in r) return r;
    const w = await r.backend.commitChange(r.inner, before, after);
    return w.path ? { path: this.outer(r.prefix, w.path) } : w;
  }

  async currentText(path: string): Promise<{ text: string | null } | { error: string }> {
    const r = this.route(path);
    if ("error" in r) return r;
    return r.backend.currentText ? r.backend.currentText(r.inner) : { error: `${path} cannot be restored here.` };
  }

  async deleteFile(path: string, expected: string): Promise<WriteResult> {
    const r = this.route(path);
    if ("error" in r) return r;
    if (!r.backend.deleteFile) return { error: `${path} cannot be deleted here.` };
    const w = await r.backend.deleteFile(r.inner, expected);
    return w.path ? { path: this.outer(r.prefix, w.path) } : w;
  }

  /** Backends a search starting at `path` covers: the routed one, or every one below it. */
  private targets(
    path: string | undefined,
  ): { backend: BackendProtocol; prefix: string; inner: string }[] | { error: string } {
    const v = normalizeVirtualPath(path === undefined || path === "" ? "/" : path);
    if (typeof v !== "string") return v;
    const r = this.route(v);
    const base = v === "/" ? "/" : v + "/";
    const below = this.routes
      .filter((x) => x.prefix.startsWith(base) && !this.hidden(x.prefix))
      .map((x) => ({ backend: x.backend, prefix: x.prefix, inner: "/" }));
    if ("error" in r) return below.length ? below : r;
    return r.prefix === "" ? [r, ...below] : [r];
  }

  async grep(pattern: string, path?: string, glob?: string, options: GrepOptions = {}): Promise<GrepResult> {
    const ts = this.targets(path);
    if ("error" in ts) return ts;
    const out: GrepResult = { matches: [], truncated: false };
    for (const t of ts) {
      const res = await t.backend.grep(pattern, t.inner, glob, options);
      if (res.error) {
        if (ts.length === 1) return res;
        continue;
      }
      for (const m of res.matches ?? []) out.matches?.push({ ...m, path: this.outer(t.prefix, m.path) });
      if (res.counts) {
        out.counts ??= {};
        for (const [k, n] of Object.entries(res.counts)) out.counts[this.outer(t.prefix, k)] = n;
      }
      out.truncated ||= res.truncated ?? false;
    }
    out.matches?.sort(compareMatch);
    const cap = options.maxResults;
    if (cap !== undefined && out.matches && out.matches.length > cap) {
      out.matches.length = cap;
      out.truncated = true;
    }
    return out;
  }

  async glob(pattern: string, path?: string): Promise<GlobResult> {
    const ts = this.targets(pattern.startsWith("/") ? "/" : path);
    if ("error" in ts) return ts;
    const files: FileInfo[] = [];
    let truncated = false;
    for (const t of ts) {
      const res = await t.backend.glob(pattern, t.inner);
      if (res.error) {
        if (ts.length === 1) return res;
        continue;
      }
      for (const f of res.files ?? []) files.push({ ...f, path: this.outer(t.prefix, f.path) });
      truncated ||= res.truncated ?? false;
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, truncated };
  }
}
