import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { Middleware } from "./types";

export const RULES_FILE = "AGENTS.md";
const MAX_RULES_CHARS = 20_000;

/**
 * The project's own instructions: `AGENTS.md` at the workspace root is added to the system
 * prompt (read once per run, so edits apply to the next task).
 */
export function rulesMiddleware(options: { workspaceRoot: string; fileName?: string }): Middleware {
  const file = path.join(options.workspaceRoot, options.fileName ?? RULES_FILE);
  return {
    name: "rules",
    async systemPrompt(ctx) {
      let text: string;
      try {
        text = await fs.readFile(file, "utf8");
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ENOENT" && code !== "ENOTDIR") {
          ctx.emit({ type: "warning", code: "rules", message: `Could not read ${file}: ${(error as Error).message}` });
        }
        return undefined;
      }
      text = text.replace(/^\uFEFF/, "").trim();
      if (!text) return undefined;
      if (text.length > MAX_RULES_CHARS) {
        ctx.emit({ type: "warning", code: "rules", message: `${RULES_FILE} is ${text.length} characters; only the first ${MAX_RULES_CHARS} are used.` });
        text = `${text.slice(0, MAX_RULES_CHARS)}\n[... cut: the rest of ${RULES_FILE} is not shown ...]`;
      }
      return `# Project rules (from /${options.fileName ?? RULES_FILE})\n${text}`;
    },
  };
}
