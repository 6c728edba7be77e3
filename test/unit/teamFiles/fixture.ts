// A workspace holding every kind of team file, for the team-files tests.
import { after } from "node:test";
import { makeSandbox } from "../backends/helpers";

export const TEAM_WORKSPACE: Record<string, string> = {
  "AGENTS.md": "Root rules: run npm test.\n",
  "CLAUDE.md": "Claude root rules. See @docs/style.md for style.\n",
  "docs/style.md": "Use two spaces.\n",
  "src/api/AGENTS.md": "API rules: every handler validates its input.\n",
  "src/api/handler.ts": "export const h = 1;\n",
  ".github/copilot-instructions.md": "Copilot-wide instructions.\n",
  ".github/instructions/ts.instructions.md": "---\napplyTo: '**/*.ts'\n---\nTypeScript: no any.\n",
  ".github/instructions/all.instructions.md": '---\napplyTo: "**"\n---\nEverywhere instructions.\n',
  ".github/instructions/asked.instructions.md":
    "---\ndescription: Database migrations\n---\nMigrations are reversible.\n",
  ".cursor/rules/always.mdc": "---\ndescription:\nglobs:\nalwaysApply: true\n---\nCursor always rule.\n",
  ".cursor/rules/tsx.mdc": "---\ndescription:\nglobs: *.tsx, src/ui/**\nalwaysApply: false\n---\nReact rule.\n",
  ".cursor/rules/manual.mdc": "---\nalwaysApply: false\n---\nManual rule.\n",
  ".clinerules/01-style.md": "Cline style rule.\n",
  ".clinerules/workflows/release.md": "# Release the package\nBump the version, then tag.\n",
  ".github/prompts/review.prompt.md":
    "---\ndescription: Review a file\nargument-hint: FILE\nagent: ask\ntools: ['search', 'readFile']\n---\nReview ${input:file:the file} for bugs.\n",
  ".claude/commands/fix-issue.md":
    "---\ndescription: Fix a GitHub issue\nallowed-tools: Read, Edit, Bash(git:*)\n---\nFix issue #$1 with priority $2. Context: $ARGUMENTS\n",
  ".claude/commands/review.md": "---\ndescription: A second review\n---\nShadowed.\n",
  ".github/skills/pdf/SKILL.md":
    "---\nname: pdf\ndescription: Extract text and tables from PDF files.\n---\n# PDF\nUse scripts/extract.py.\n",
  ".github/skills/pdf/scripts/extract.py": "print('x')\n",
  ".claude/skills/bad/SKILL.md": "---\nname: Bad Name\ndescription: x\n---\nbody\n",
  ".agents/skills/nodesc/SKILL.md": "---\nname: nodesc\n---\nbody\n",
  ".github/agents/reviewer.agent.md":
    "---\ndescription: Reviews code without changing it\ntools: ['search', 'read']\nmodel: GPT-4.1\n---\nYou review code. Never edit.\n",
  ".claude/agents/tester.md":
    "---\nname: tester\ndescription: Writes and runs tests\ntools: Read, Write, Bash, NotebookEdit\nmodel: sonnet\n---\nYou write tests.\n",
};

export function teamWorkspace(extra: Record<string, string> = {}) {
  const s = makeSandbox({ ...TEAM_WORKSPACE, ...extra });
  after(s.cleanup);
  return s;
}
