import { FilesystemBackend } from "../backends/filesystem";
import type { BackendProtocol } from "../backends/protocol";
import type { Middleware } from "./types";

export const RULES_FILE = "AGENTS.md";
const MAX_RULES_CHARS = 20_000;
/** Read no more than this: a huge (or endless) rules file costs nothing beyond it. */
const MAX_RULES_BYTES = 64 * 1024;

/**
 * The project's own instructions: `AGENTS.md` at the workspace root is added to the system
 * prompt (read once per run, so edits apply to the next task). It is written by whoever wrote
 * the repository, so it is read through the backend like any file the agent reads: the path
 * guard (a link to `~/.ssh/…` is refused), `.fathomignore`, regular files only (a pipe or a
 * device is refused, never waited on), and a size cap. Which file was loaded is reported.
 */
export function rulesMiddleware(options: { workspaceRoot: string; backend?: BackendProtocol; fileName?: string }): Middleware {
  const name = options.fileName ?? RULES_FILE;
  const vpath = `/${name}`;
  let backend = options.backend;
  return {
    name: "rules",
    async systemPrompt(ctx) {
      backend ??= new FilesystemBackend({ rootDir: options.workspaceRoot, ripgrepPath: null });
      const r = await backend.readText(vpath, MAX_RULES_BYTES);
      if (r.error !== undefined || r.text === undefined) {
        if (!/^File not found/.test(r.error ?? "")) {
          ctx.emit({ type: "warning", code: "rules", message: `${name} was not loaded: ${r.error ?? "it could not be read"}` });
        }
        return undefined;
      }
      let text = r.text.replace(/^\uFEFF/, "").trim();
      if (!text) return undefined;
      if (r.truncated || text.length > MAX_RULES_CHARS) {
        ctx.emit({ type: "warning", code: "rules", message: `${name} is too long; only its first ${MAX_RULES_CHARS} characters are used.` });
        text = `${text.slice(0, MAX_RULES_CHARS)}\n[... cut: the rest of ${name} is not shown ...]`;
      }
      ctx.emit({ type: "rules_loaded", files: [vpath] });
      return `# Project rules (from ${vpath})\n${text}`;
    },
  };
}
