import { flagValue, listValue, parseFrontMatter, textValue } from "./frontMatter";
import type { RuleFile, RuleFormat, RuleScope, TeamFileProblem, TeamFileRef } from "./types";

/** Characters of one rules file used (the rest is cut, said in the text). */
export const MAX_RULE_FILE_CHARS = 20_000;

type Parsed = { rule: RuleFile; problems: TeamFileProblem[] } | { problems: TeamFileProblem[] };

/**
 * One rules file in its own format's meaning:
 * - `AGENTS.md`, `CLAUDE.md`: at the root always; in a folder, for files under that folder;
 * - `.github/copilot-instructions.md`, `.clinerules` (a file, or each file of the folder): always;
 * - `.github/instructions/*.instructions.md`: `applyTo` globs (`**` is always); without it,
 *   offered by its `description`, else only when mentioned;
 * - `.cursor/rules/*.mdc`: `alwaysApply`, else `globs`, else offered by `description`, else manual.
 */
export function parseRuleFile(
  text: string,
  file: TeamFileRef,
  format: RuleFormat,
  where: { folder?: string; root: string },
): Parsed {
  const problems: TeamFileProblem[] = [];
  let body = text.replace(/^\uFEFF/, "");
  let scope: RuleScope = where.folder !== undefined ? { kind: "folder", folder: where.folder } : { kind: "always" };
  if (format === "instructions.md" || format === "cursor-mdc") {
    const fm = parseFrontMatter(body, { lenient: true });
    if (fm.problem)
      return {
        problems: [
          { kind: "rules", file: file.label, line: fm.problem.line, message: `skipped: ${fm.problem.message}` },
        ],
      };
    body = fm.body;
    scope = format === "cursor-mdc" ? cursorScope(fm.data, where.root) : copilotScope(fm.data, where.root);
  } else if (
    format === "AGENTS.md" ||
    format === "CLAUDE.md" ||
    format === "copilot-instructions" ||
    format === "clinerules"
  ) {
    // Plain Markdown; a front matter block some tools add is not rules text.
    const fm = parseFrontMatter(body, { lenient: true });
    if (fm.present && !fm.problem) body = fm.body;
  }
  body = body.trim();
  if (!body) return { problems };
  const truncated = body.length > MAX_RULE_FILE_CHARS;
  if (truncated) {
    body = `${body.slice(0, MAX_RULE_FILE_CHARS)}\n[... cut: the rest of ${file.label} is not shown (${MAX_RULE_FILE_CHARS.toLocaleString("en-US")} characters per rules file) ...]`;
    problems.push({
      kind: "rules",
      file: file.label,
      message: `is too long; only its first ${MAX_RULE_FILE_CHARS.toLocaleString("en-US")} characters are used`,
      note: true,
    });
  }
  return { rule: { file, format, scope, text: body, truncated }, problems };
}

function copilotScope(data: Record<string, unknown>, root: string): RuleScope {
  const globs = listValue(data.applyTo) ?? [];
  if (globs.some((g) => g === "**" || g === "**/*" || g === "*")) return { kind: "always" };
  if (globs.length) return { kind: "globs", globs, root };
  const description = textValue(data.description, 300);
  return description ? { kind: "requested", description } : { kind: "manual" };
}

function cursorScope(data: Record<string, unknown>, root: string): RuleScope {
  if (flagValue(data.alwaysApply)) return { kind: "always" };
  const globs = listValue(data.globs) ?? [];
  if (globs.length) return { kind: "globs", globs, root };
  const description = textValue(data.description, 300);
  return description ? { kind: "requested", description } : { kind: "manual" };
}

/** How a rule's scope reads in the list ("always", "files under /src/api/", "**\/*.ts"). */
export function describeScope(scope: RuleScope): string {
  switch (scope.kind) {
    case "always":
      return "always";
    case "folder":
      return `files under ${scope.folder === "/" ? "/" : `${scope.folder}/`}`;
    case "globs":
      return `files matching ${scope.globs.join(", ")}`;
    case "requested":
      return `when it fits: ${scope.description}`;
    case "manual":
      return "only when you mention it";
  }
}
