import type {
  BackendProtocol,
  EditResult,
  GlobResult,
  GrepOptions,
  GrepResult,
  LsResult,
  PreparedChange,
  ReadResult,
  TextResult,
  WriteResult,
} from "./protocol";

/**
 * A backend around another: reads, searches and the checking of a change (`prepare*`) go to
 * `inner` unchanged; each subclass decides what writing means (refused, checkpointed, awaited
 * in the editor).
 */
export abstract class WrappingBackend implements BackendProtocol {
  constructor(readonly inner: BackendProtocol) {}

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
  prepareWrite(path: string, content: string): Promise<PreparedChange | { error: string }> {
    return this.inner.prepareWrite(path, content);
  }
  prepareEdit(
    path: string,
    oldString: string,
    newString: string,
    replaceAll?: boolean,
  ): Promise<PreparedChange | { error: string }> {
    return this.inner.prepareEdit(path, oldString, newString, replaceAll);
  }

  abstract write(path: string, content: string): Promise<WriteResult>;
  abstract edit(path: string, oldString: string, newString: string, replaceAll?: boolean): Promise<EditResult>;
  abstract commitChange(path: string, before: string | null, after: string): Promise<WriteResult>;
}
