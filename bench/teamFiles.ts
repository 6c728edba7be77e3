// Issue 30: discovery and parsing of a workspace with 200 rules, prompt, skill and agent files
// (cold, then warm with the parse cache, as the host keeps it), and the first request for
// "hello" as the provider receives it: no team files, the same catalog empty, and 30 skills.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent, runToEnd } from "../src/core/agent/createAgent";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import type { ChatModel, ModelRequest, ModelStreamEvent } from "../src/core/model/types";
import { TeamFileCache, discoverTeamFiles } from "../src/core/teamFiles/discovery";
import type { TeamCatalog } from "../src/core/teamFiles/types";

/** Answers "Hello!" and records how big the request was. */
class SizingModel implements ChatModel {
  readonly provider = "scripted" as const;
  readonly model = "sizing";
  readonly contextWindow = 200_000;
  size = 0;
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.size = JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools }).length;
    yield { type: "text_delta", text: "Hello!" };
    yield {
      type: "done",
      message: { role: "assistant", content: "Hello!" },
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: "end_turn",
    };
  }
}

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

const skill = (i: number) =>
  `---\nname: skill-${i}\ndescription: Does the kind of work number ${i} the team does often, with its own scripts and checklists for it.\n---\n# Skill ${i}\nSteps for work ${i}.\n`;

/** 200 files: 40 each of nested AGENTS.md, instructions with applyTo, prompt files, skills and agents. */
function twoHundredFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    files[`packages/p${i}/AGENTS.md`] = `Package ${i}: run its tests with npm test -w p${i}.\n`;
    files[`.github/instructions/i${i}.instructions.md`] =
      `---\napplyTo: 'packages/p${i}/**/*.ts'\n---\nTypeScript rules for package ${i}.\n`;
    files[`.github/prompts/c${i}.prompt.md`] =
      `---\ndescription: Command ${i}\nagent: ask\n---\nDo task ${i} on \${input:target}.\n`;
    files[`.github/skills/skill-${i}/SKILL.md`] = skill(i);
    files[`.github/agents/a${i}.agent.md`] =
      `---\ndescription: Agent ${i}\ntools: ['search', 'read']\n---\nYou are agent ${i}.\n`;
  }
  return files;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function firstRequest(dir: string, teamFiles?: TeamCatalog): Promise<number> {
  const model = new SizingModel();
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    ...(teamFiles ? { teamFiles } : {}),
  });
  await runToEnd(agent, "hello");
  return model.size;
}

export async function runTeamFilesBench(): Promise<void> {
  console.log("\n## Team files (issue 30)");
  const big = mkdtempSync(path.join(tmpdir(), "fathom-team-bench-"));
  const plain = mkdtempSync(path.join(tmpdir(), "fathom-team-plain-"));
  const skills = mkdtempSync(path.join(tmpdir(), "fathom-team-skills-"));
  try {
    write(big, twoHundredFiles());
    const backend = new FilesystemBackend({ rootDir: big, ripgrepPath: null });
    const cache = new TeamFileCache();
    let started = performance.now();
    const catalog = await discoverTeamFiles({ workspace: backend, user: [], cache });
    const coldMs = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < 15; i++) {
      started = performance.now();
      await discoverTeamFiles({ workspace: backend, user: [], cache });
      warm.push(performance.now() - started);
    }
    const found = catalog.rules.length + catalog.commands.length + catalog.skills.length + catalog.agents.length;

    write(plain, { "README.md": "# A project\n" });
    write(skills, {
      "README.md": "# A project\n",
      ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`.github/skills/skill-${i}/SKILL.md`, skill(i)])),
    });
    const without = await firstRequest(plain);
    const emptyCatalog = await firstRequest(
      plain,
      await discoverTeamFiles({ workspace: new FilesystemBackend({ rootDir: plain }), user: [] }),
    );
    const withSkills = await firstRequest(
      skills,
      await discoverTeamFiles({ workspace: new FilesystemBackend({ rootDir: skills }), user: [] }),
    );
    console.log(
      JSON.stringify(
        {
          files: 200,
          found,
          problems: catalog.problems.length,
          discovery_cold_ms: Math.round(coldMs * 10) / 10,
          discovery_warm_median_ms: Math.round(median(warm) * 10) / 10,
          discovery_warm_max_ms: Math.round(Math.max(...warm) * 10) / 10,
          hello_without_team_files: without,
          hello_with_none_found: emptyCatalog,
          hello_with_30_skills: withSkills,
          growth_with_30_skills: withSkills - without,
        },
        null,
        2,
      ),
    );
  } finally {
    for (const d of [big, plain, skills]) rmSync(d, { recursive: true, force: true });
  }
}
