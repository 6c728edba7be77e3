import * as vscode from "vscode";

/** The URI scheme of the documents that hold proposed (and original) file contents. */
export const PROPOSAL_SCHEME = "fathom-proposed";

/** Entries are keyed by path and query: two proposals for one file differ only in the query. */
const keyOf = (uri: vscode.Uri) => (uri.query ? `${uri.path}?${uri.query}` : uri.path);

interface Entry {
  data: Uint8Array;
  ctime: number;
  mtime: number;
  readonly: boolean;
}

/**
 * An in-memory file system for the two sides of a proposal's diff. The right side is writable,
 * so the person can change the proposal and even save it (Ctrl+S) without touching the real
 * file; the left side (the file as it was) is read-only. Nothing here reaches the disk.
 */
export class ProposedFileSystem implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  /** Puts a file in place (or replaces it), as the owner of the proposal; `quiet`: `announce` tells the window later. */
  set(uri: vscode.Uri, text: string, readonly: boolean, o: { quiet?: boolean } = {}): void {
    const now = Date.now();
    const existed = this.entries.get(keyOf(uri));
    this.entries.set(keyOf(uri), {
      data: Buffer.from(text, "utf8"),
      ctime: existed?.ctime ?? now,
      mtime: now,
      readonly,
    });
    if (!o.quiet)
      this.changed.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  /**
   * Makes the stored copy older than any open document of it, so that document's next save
   * goes through: one opened before the copy was put in place (a diff left from before a
   * restart) would otherwise fail as "the file is newer" and ask to be saved on close.
   */
  backdate(uri: vscode.Uri): void {
    const e = this.entries.get(keyOf(uri));
    if (e) this.entries.set(keyOf(uri), { ...e, mtime: 0 });
  }

  /** Tells the window a file changed (after a quiet `set`): its open document reloads. */
  announce(uri: vscode.Uri): void {
    if (this.entries.has(keyOf(uri))) this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** The stored text (BOM kept as U+FEFF), or undefined when absent. */
  text(uri: vscode.Uri): string | undefined {
    const e = this.entries.get(keyOf(uri));
    return e ? new TextDecoder("utf-8", { ignoreBOM: true }).decode(e.data) : undefined;
  }

  remove(uri: vscode.Uri): void {
    if (this.entries.delete(keyOf(uri))) this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.entries.get(keyOf(uri));
    if (e) {
      return {
        type: vscode.FileType.File,
        ctime: e.ctime,
        mtime: e.mtime,
        size: e.data.byteLength,
        ...(e.readonly ? { permissions: vscode.FilePermission.Readonly } : {}),
      };
    }
    if (this.isFolder(uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path.endsWith("/") ? uri.path : `${uri.path}/`;
    const out = new Map<string, vscode.FileType>();
    for (const key of this.entries.keys()) {
      const path = key.split("?")[0]!;
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf("/");
      out.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? vscode.FileType.File : vscode.FileType.Directory);
    }
    return [...out];
  }

  createDirectory(): void {
    // Folders exist implicitly.
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const e = this.entries.get(keyOf(uri));
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e.data;
  }

  /** A save of the right side (Ctrl+S) lands here, in memory only. */
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    const e = this.entries.get(keyOf(uri));
    if (!e) {
      // A proposal that was already decided: its document may still be saved on close.
      if (!options.create) throw vscode.FileSystemError.FileNotFound(uri);
      this.entries.set(keyOf(uri), { data: content, ctime: Date.now(), mtime: Date.now(), readonly: false });
      this.changed.fire([{ type: vscode.FileChangeType.Created, uri }]);
      return;
    }
    if (e.readonly)
      throw vscode.FileSystemError.NoPermissions(
        "The left side shows the file as it was; change the right side instead.",
      );
    if (!options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    this.entries.set(keyOf(uri), { ...e, data: content, mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.remove(uri);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions("Proposals cannot be renamed.");
  }

  dispose(): void {
    this.entries.clear();
    this.changed.dispose();
  }

  private isFolder(path: string): boolean {
    if (path === "/" || path === "") return true;
    const prefix = path.endsWith("/") ? path : `${path}/`;
    for (const p of this.entries.keys()) if (p.startsWith(prefix)) return true;
    return false;
  }
}
