import type { BackendProtocol } from "../backends/protocol";
import type { SecretFileMatcher } from "../trust/secretFiles";
import { TextLines } from "./textPositions";

/** Largest file whose lines are shown (context lines, a symbol looked up by name). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export type FileSight = { lines: TextLines } | { hidden: "secret" | "unreadable"; why: string };

/**
 * The workspace's files as these tools may show them: through the backend, so the path guard,
 * `.fathomignore` and symlink checks decide, never a language server. A secret file is not
 * shown (reading it is the person's call, asked by read_file). Each file is read once per call.
 */
export class FileView {
  private readonly seen = new Map<string, Promise<FileSight>>();

  constructor(
    private readonly backend: BackendProtocol,
    private readonly isSecret?: SecretFileMatcher,
  ) {}

  sight(path: string): Promise<FileSight> {
    let found = this.seen.get(path);
    if (!found) {
      found = this.look(path);
      this.seen.set(path, found);
    }
    return found;
  }

  /** Whether the agent may see the file, without reading more of it than needed. */
  async visible(path: string): Promise<boolean> {
    const known = this.seen.get(path);
    if (known) return !("hidden" in (await known));
    if (this.isSecret?.(path)) return false;
    return (await this.backend.readText(path, 1)).error === undefined;
  }

  private async look(path: string): Promise<FileSight> {
    const secret = this.isSecret?.(path);
    if (secret)
      return {
        hidden: "secret",
        why: `${path} may hold secrets (it matches ${secret}); read_file it to ask the person first.`,
      };
    const r = await this.backend.readText(path, MAX_FILE_BYTES);
    if (r.error !== undefined) return { hidden: "unreadable", why: r.error };
    return { lines: new TextLines(r.text ?? "") };
  }
}
