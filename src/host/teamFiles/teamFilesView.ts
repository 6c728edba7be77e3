import { describeScope, plainText, type TeamCatalog } from "../../core";
import type { TeamFilesView } from "../../protocol";

/** Longest description the list shows (the model gets the file's own). */
const MAX_SHOWN_CHARS = 300;
/** Entries of each kind the list shows. */
const MAX_SHOWN = 500;

const shown = (text: string) => {
  const plain = plainText(text).replace(/\s+/g, " ").trim();
  return plain.length > MAX_SHOWN_CHARS ? `${plain.slice(0, MAX_SHOWN_CHARS - 1)}…` : plain;
};

/** The catalog as the Fathom view lists it: plain one-line text, capped. */
export function teamFilesView(catalog: TeamCatalog): TeamFilesView {
  return {
    rules: catalog.rules
      .slice(0, MAX_SHOWN)
      .map((r) => ({ source: r.file.label, when: shown(describeScope(r.scope)) })),
    commands: catalog.commands.slice(0, MAX_SHOWN).map((c) => ({
      name: c.name,
      description: shown(c.description),
      ...(c.argumentHint ? { argumentHint: shown(c.argumentHint).slice(0, 200) } : {}),
      source: c.file.label,
    })),
    skills: catalog.skills
      .slice(0, MAX_SHOWN)
      .map((s) => ({ name: s.name, description: shown(s.description), source: s.file.label })),
    agents: catalog.agents
      .slice(0, MAX_SHOWN)
      .map((a) => ({ name: a.name, description: shown(a.description), source: a.file.label })),
    problems: catalog.problems.slice(0, MAX_SHOWN).map((p) => ({
      source: plainText(p.file),
      ...(p.line !== undefined ? { line: p.line } : {}),
      message: shown(p.message),
      ...(p.note ? { note: true } : {}),
    })),
  };
}
