import { z } from "zod";
import type { BackendProtocol } from "../backends/protocol";
import { parseFrontMatter } from "../teamFiles/frontMatter";
import type { Skill } from "../teamFiles/types";
import { defineTool } from "../tools/tool";
import type { Middleware } from "./types";
import { toolError } from "./types";

/** Characters the skills' names and descriptions may take in the system prompt, all of them together. */
export const SKILLS_PROMPT_BUDGET = 2_400;
/** Bytes of a SKILL.md read when it is loaded, and characters of its body given to the model. */
const MAX_SKILL_BYTES = 256 * 1024;
const MAX_SKILL_BODY = 30_000;
const MAX_LISTED_FILES = 40;

const HEADER =
  "# Skills\nInstructions for particular kinds of work. When one fits the task, call load_skill with its name first, then follow it.";

/**
 * Agent Skills (progressive disclosure): only each skill's name and description are in the
 * system prompt, within SKILLS_PROMPT_BUDGET; `load_skill` reads a skill's body when the model
 * needs it, through the agent's backend (a workspace skill through the guard, the person's own
 * through its read-only route), and lists the files it bundles (read_file reads them). A skill's
 * scripts run only through `execute`, asked and sandboxed like any command.
 */
export function skillsMiddleware(options: { skills: readonly Skill[]; backend: BackendProtocol }): Middleware {
  if (options.skills.length === 0) return { name: "skills" };
  const byName = new Map(options.skills.map((s) => [s.name, s]));
  const loadSkill = defineTool({
    name: "load_skill",
    description: "Load a skill's instructions (see Skills) by its name.",
    schema: z.object({ name: z.string().min(1).max(64) }),
    kind: "read",
    async run({ name }) {
      const skill = byName.get(name.trim());
      if (!skill?.file.path)
        return toolError(`No skill is named "${name}". The skills are: ${[...byName.keys()].join(", ")}.`);
      const read = await options.backend.readText(skill.file.path, MAX_SKILL_BYTES);
      if (read.text === undefined)
        return toolError(`Could not load the skill ${name}: ${read.error ?? "it could not be read"}.`);
      const fm = parseFrontMatter(read.text);
      let body = (fm.problem ? read.text : fm.body).trim();
      if (read.truncated || body.length > MAX_SKILL_BODY) {
        body = `${body.slice(0, MAX_SKILL_BODY)}\n[... the rest of ${skill.file.path} is not shown here; read it with read_file and an offset ...]`;
      }
      const files = await bundled(options.backend, skill.folder);
      const run = skill.realFolder
        ? ` Its scripts are in ${skill.realFolder} on disk: run them from there with execute (asked and sandboxed like any command).`
        : " Its scripts run only with execute, asked and sandboxed like any command.";
      return {
        content: `# Skill: ${skill.name} (from ${skill.file.path})\n\n${body}\n\nFiles of this skill (read them with read_file):\n${files.join("\n") || "(none besides SKILL.md)"}\n${run}`,
        details: { skill: skill.name, path: skill.file.path },
      };
    },
  });
  return {
    name: "skills",
    tools: [loadSkill],
    systemPrompt: () => skillsSection(options.skills),
  };
}

/** The skills' names and descriptions within the budget: descriptions are shortened evenly, then the last skills named only. */
export function skillsSection(skills: readonly Skill[], budget = SKILLS_PROMPT_BUDGET): string {
  const line = (s: Skill, description: string) => `- ${s.name}: ${description}`;
  const full = skills.map((s) => line(s, s.description));
  const size = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, HEADER.length);
  if (size(full) <= budget) return `${HEADER}\n${full.join("\n")}`;
  const names = skills.reduce((n, s) => n + s.name.length + 5, HEADER.length);
  const each = Math.max(40, Math.floor((budget - names) / skills.length));
  const short = skills.map((s) => line(s, shorten(s.description, each)));
  const kept: string[] = [];
  for (const [i, l] of short.entries()) {
    const rest = skills.slice(i + 1).map((s) => s.name);
    const tail = rest.length ? `- also: ${rest.join(", ")}` : "";
    if (size([...kept, l]) + tail.length + 1 > budget && kept.length > 0) {
      const others = skills
        .slice(i)
        .map((s) => s.name)
        .join(", ");
      kept.push(
        `- also (load_skill tells what they do): ${others.length > budget - size(kept) - 60 ? `${others.slice(0, Math.max(0, budget - size(kept) - 60))}…` : others}`,
      );
      break;
    }
    kept.push(l);
  }
  return `${HEADER}\n${kept.join("\n")}`;
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** The skill's files besides SKILL.md, one folder level deep, capped. */
async function bundled(backend: BackendProtocol, folder: string): Promise<string[]> {
  const out: string[] = [];
  const top = (await backend.ls(folder)).files ?? [];
  for (const f of top) {
    if (out.length >= MAX_LISTED_FILES) break;
    if (f.path.endsWith("/SKILL.md")) continue;
    if (!f.is_dir) {
      out.push(f.path);
      continue;
    }
    for (const g of (await backend.ls(f.path.replace(/\/$/, ""))).files ?? []) {
      if (out.length >= MAX_LISTED_FILES) break;
      out.push(g.path);
    }
  }
  return out.length >= MAX_LISTED_FILES ? [...out, `(more: list them with ls ${folder})`] : out;
}
