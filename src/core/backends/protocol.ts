/**
 * The backend protocol: the file operations the agent's tools run on. Every method resolves to a
 * value; a refused or failed operation returns `{ error }` with a message written for the model.
 * Paths are virtual: `/` is the backend's root.
 */

export interface FileInfo {
  path: string;
  is_dir?: boolean;
  size?: number;
  modified_at?: string;
}

export interface GrepMatch {
  path: string;
  /** 1-based line number. */
  line: number;
  /** The matching line, without its line terminator, cut to a sane length. */
  text: string;
}

export type GrepOutputMode = "files_with_matches" | "content" | "count";

export interface GrepOptions {
  /** Lets a backend skip work: in `files_with_matches` mode one match per file is enough. */
  outputMode?: GrepOutputMode;
  /** Most matches (content) or files (other modes) to return; the smallest by path/line win. */
  maxResults?: number;
  signal?: AbortSignal;
}

export interface LsResult {
  files?: FileInfo[];
  error?: string;
}
export interface ReadResult {
  content?: string;
  error?: string;
}
export interface WriteResult {
  path?: string;
  error?: string;
}
export interface EditResult {
  path?: string;
  occurrences?: number;
  error?: string;
}
export interface GrepResult {
  matches?: GrepMatch[];
  /** `count` mode: matching lines per file (the matches list then holds one entry per file). */
  counts?: Record<string, number>;
  error?: string;
  truncated?: boolean;
}
export interface TextResult {
  text?: string;
  truncated?: boolean;
  error?: string;
}
export interface GlobResult {
  files?: FileInfo[];
  error?: string;
  truncated?: boolean;
}

/** A whole-file change computed without writing anything (for review before it is applied). */
export interface PreparedChange {
  /** Normalised virtual path. */
  path: string;
  /** Current content (exactly as on disk, BOM and line endings included); null if absent. */
  before: string | null;
  after: string;
  /** `edit` only: how many occurrences were replaced. */
  occurrences?: number;
}

export interface BackendProtocol {
  ls(path: string): Promise<LsResult>;
  /** `cat -n` style window; see `formatWindow`. */
  read(path: string, offset?: number, limit?: number): Promise<ReadResult>;
  /**
   * The raw text of a regular file, at most `maxBytes` of it, under the same rules as `read`
   * (path guard, ignore files, no devices or pipes). For files Fathom itself loads (AGENTS.md).
   */
  readText(path: string, maxBytes: number): Promise<TextResult>;
  /** Create a file, or overwrite one the agent has read and that has not changed since. */
  write(path: string, content: string): Promise<WriteResult>;
  edit(path: string, oldString: string, newString: string, replaceAll?: boolean): Promise<EditResult>;
  /** Literal (not regex) search. */
  grep(pattern: string, path?: string, glob?: string, options?: GrepOptions): Promise<GrepResult>;
  glob(pattern: string, path?: string): Promise<GlobResult>;

  /** Checks a `write` (path, ignore rules, stale-write guard) and returns before/after; writes nothing. */
  prepareWrite(path: string, content: string): Promise<PreparedChange | { error: string }>;
  /** Checks an `edit` and computes the whole-file result; writes nothing. */
  prepareEdit(
    path: string,
    oldString: string,
    newString: string,
    replaceAll?: boolean,
  ): Promise<PreparedChange | { error: string }>;
  /**
   * Writes `after` atomically if the file still holds exactly `before` (null: must not exist),
   * and records the result as seen by the agent.
   */
  commitChange(path: string, before: string | null, after: string): Promise<WriteResult>;
  /** For restoring checkpoints: the file's exact text now (null: it does not exist), under the write rules. */
  currentText?(path: string): Promise<{ text: string | null } | { error: string }>;
  /** For restoring checkpoints: deletes a file Fathom created, only if it still holds exactly `expected`. */
  deleteFile?(path: string, expected: string): Promise<WriteResult>;
}

export function isError<T extends object>(value: T | { error: string }): value is { error: string } {
  return typeof (value as { error?: unknown }).error === "string";
}
