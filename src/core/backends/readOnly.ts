import type { BackendProtocol, EditResult, GlobResult, GrepOptions, GrepResult, LsResult, PreparedChange, ReadResult, TextResult, WriteResult } from "./protocol";

/**
 * A backend the agent may only read (the person's own skills, routed into the agent's view):
 * every write is refused with `why`, a message for the model.
 */
export class ReadOnlyBackend implements BackendProtocol {
  constructor(
    private readonly inner: BackendProtocol,
    private readonly why: string,
  ) {}

  ls(path: string): Promise<LsResult> {
    return this.inner.ls(path);
  }
  read(path: string, offset?: number, limit?: number): Promise<ReadResult> {
    return this.inner.read(path, offset, limit);
  }
  readText(path: string, maxBytes: number): Promise<TextResult> {
    return this.inner.readText(path, maxBytes);
  }
  grep(pattern: string, path?: string, glob?: string, options?: GrepOptions): Promise<GrepResult> {
    return this.inner.grep(pattern, path, glob, options);
  }
  glob(pattern: string, path?: string): Promise<GlobResult> {
    return this.inner.glob(pattern, path);
  }
  private refuse(): Promise<{ error: string }> {
    return Promise.resolve({ error: this.why });
  }
  write(): Promise<WriteResult> {
    return this.refuse();
  }
  edit(): Promise<EditResult> {
    return this.refuse();
  }
  prepareWrite(): Promise<PreparedChange | { error: string }> {
    return this.refuse();
  }
  prepareEdit(): Promise<PreparedChange | { error: string }> {
    return this.refuse();
  }
  commitChange(): Promise<WriteResult> {
    return this.refuse();
  }
  currentText(): Promise<{ error: string }> {
    return this.refuse();
  }
  deleteFile(): Promise<WriteResult> {
    return this.refuse();
  }
}
