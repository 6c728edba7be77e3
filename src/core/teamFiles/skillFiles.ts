import { parseFrontMatter, textValue } from "./frontMatter";
import { badName, type Skill, type TeamFileProblem, type TeamFileRef } from "./types";

/** The open format's limits (agentskills.io): a name of at most 64 characters, a description of at most 1,024. */
const MAX_DESCRIPTION = 1_024;
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Parsed = { skill: Skill; problems: TeamFileProblem[] } | { problems: TeamFileProblem[] };

/**
 * A `SKILL.md` (Agent Skills): front matter with `name` (lowercase letters, digits and hyphens,
 * matching its folder) and `description`, both required; the body is loaded only when the model
 * asks for the skill. Anything invalid skips the skill, with the reason.
 */
export function parseSkillFile(
  text: string,
  file: TeamFileRef,
  where: { folder: string; folderName: string; realFolder?: string },
): Parsed {
  const skip = (message: string, line?: number): Parsed => ({
    problems: [{ kind: "skills", file: file.label, ...(line ? { line } : {}), message: `skipped: ${message}` }],
  });
  const fm = parseFrontMatter(text);
  if (fm.problem) return skip(fm.problem.message, fm.problem.line);
  if (!fm.present) return skip("SKILL.md must start with front matter (--- name: … description: … ---)", 1);
  const rawName = typeof fm.data.name === "string" ? fm.data.name.trim() : "";
  const problem = badName(rawName, SKILL_NAME);
  if (problem)
    return skip(
      rawName && !/[^\x20-\x7e]/.test(rawName) && problem.includes("characters other")
        ? `its name "${rawName}" must be lowercase letters, digits and hyphens`
        : problem,
    );
  const description = textValue(fm.data.description, MAX_DESCRIPTION + 1);
  if (!description) return skip("it has no description (the model chooses skills by their descriptions)");
  const problems: TeamFileProblem[] = [];
  if (rawName !== where.folderName)
    problems.push({
      kind: "skills",
      file: file.label,
      message: `its name "${rawName}" differs from its folder's "${where.folderName}"; it is loaded by its name`,
      note: true,
    });
  const cut = description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description;
  return {
    skill: {
      name: rawName,
      description: cut,
      file,
      folder: where.folder,
      ...(where.realFolder ? { realFolder: where.realFolder } : {}),
    },
    problems,
  };
}
