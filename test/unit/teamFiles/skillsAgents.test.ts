// Skills (names in the prompt, bodies on demand, the person's own read-only) and custom agents (tool lists only narrow).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { SKILLS_PROMPT_BUDGET, skillsSection } from "../../../src/core/middleware/skills";
import { discoverTeamFiles } from "../../../src/core/teamFiles/discovery";
import { userTeamFolders } from "../../../src/core/teamFiles/userFolders";
import type { Skill } from "../../../src/core/teamFiles/types";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";
import { teamWorkspace } from "./fixture";

test("thirty skills' names and descriptions fit the budget; every skill is named", () => {
  const skills: Skill[] = Array.from({ length: 30 }, (_, i) => ({
    name: `skill-${i}`,
    description: `Does task number ${i}: ${"a long explanation of when to use it and what it needs. ".repeat(3)}`,
    file: { path: `/.github/skills/skill-${i}/SKILL.md`, label: "", origin: "workspace" },
    folder: `/.github/skills/skill-${i}`,
  }));
  const section = skillsSection(skills);
  assert.ok(section.length <= SKILLS_PROMPT_BUDGET, `${section.length} characters`);
  for (const s of skills) assert.ok(section.includes(s.name), `${s.name} is missing`);
  assert.equal(skillsSection(skills.slice(0, 2)).split("\n").length, 4);
});

test("a skill's description is in the first request and its body only after load_skill; the person's skills are read-only", async () => {
  const s = teamWorkspace();
  const home = path.join(s.base, "home");
  mkdirSync(path.join(home, ".agents/skills/notes/refs"), { recursive: true });
  writeFileSync(
    path.join(home, ".agents/skills/notes/SKILL.md"),
    "---\nname: notes\ndescription: Keep meeting notes.\n---\nNOTES-BODY: write notes as bullets.\n",
  );
  writeFileSync(path.join(home, ".agents/skills/notes/refs/format.md"), "FORMAT-REF\n");
  writeFileSync(path.join(home, "secret.txt"), "HOME-SECRET\n");
  const backend = new FilesystemBackend({ rootDir: s.root });
  const catalog = await discoverTeamFiles({ workspace: backend, user: userTeamFolders({}, home) });
  const model = new FakeModel([
    {
      toolCalls: [
        { name: "load_skill", arguments: { name: "pdf" } },
        { name: "load_skill", arguments: { name: "notes" } },
      ],
    },
    {
      toolCalls: [
        { name: "read_file", arguments: { file_path: "/.user-skills/notes/refs/format.md" } },
        { name: "read_file", arguments: { file_path: "/.user-skills/notes/../../secret.txt" } },
      ],
    },
    {
      toolCalls: [
        { name: "write_file", arguments: { file_path: "/.user-skills/notes/SKILL.md", content: "changed" } },
        { name: "ls", arguments: { path: "/" } },
      ],
    },
    { text: "done" },
  ]);
  const { done } = await collect(
    createAgent({ model, workspaceRoot: s.root, backend, teamFiles: catalog, generalPurposeSubagent: false }),
    "take notes",
  );
  const first = model.requests[0]!;
  assert.match(
    first.system,
    /# Skills\n.*\n- pdf: Extract text and tables from PDF files\.\n- notes: Keep meeting notes\./,
  );
  assert.doesNotMatch(JSON.stringify(first), /NOTES-BODY|Use scripts\/extract\.py/);
  assert.ok(first.toolNames.includes("load_skill"));
  const results = done.state.messages.filter((m) => m.role === "tool").map((m) => m.content);
  assert.match(
    results[0]!,
    /# Skill: pdf[\s\S]*Use scripts\/extract\.py\.[\s\S]*\/\.github\/skills\/pdf\/scripts\/extract\.py/,
  );
  assert.match(results[1]!, /NOTES-BODY[\s\S]*\/\.user-skills\/notes\/refs\/format\.md[\s\S]*run them from there/);
  assert.match(results[2]!, /FORMAT-REF/);
  assert.match(results[3]!, /'\.\.'/);
  assert.match(results[4]!, /your own skills' folders: the agent may read it, not change it/);
  assert.doesNotMatch(results[5]!, /user-skills/);
  assert.doesNotMatch(results.join("\n"), /HOME-SECRET/);
});

test("no team files: the agent and its first request are what they were", async () => {
  const s = teamWorkspace();
  const empty = path.join(s.base, "empty");
  mkdirSync(empty);
  const catalog = await discoverTeamFiles({ workspace: new FilesystemBackend({ rootDir: empty }) });
  const a = new FakeModel([{ text: "hi" }]);
  const b = new FakeModel([{ text: "hi" }]);
  await collect(
    createAgent({
      model: a,
      workspaceRoot: empty,
      backend: new FilesystemBackend({ rootDir: empty }),
      teamFiles: catalog,
    }),
    "hello",
  );
  await collect(
    createAgent({ model: b, workspaceRoot: empty, backend: new FilesystemBackend({ rootDir: empty }), rules: false }),
    "hello",
  );
  assert.deepEqual(a.requests[0], b.requests[0]);
});

test("a custom agent: subagent type for task, or the task's agent; its tool list only narrows, also for its subagents", async () => {
  const s = teamWorkspace();
  const backend = new FilesystemBackend({ rootDir: s.root });
  const catalog = await discoverTeamFiles({ workspace: backend });
  const seen: string[] = [];
  const main = new FakeModel([
    (req) => {
      assert.match(JSON.stringify(req), /reviewer: Reviews code without changing it/);
      return { toolCalls: [{ name: "task", arguments: { description: "review src", subagent_type: "reviewer" } }] };
    },
    (req) => {
      seen.push(
        req.tools
          .map((t) => t.name)
          .sort()
          .join(","),
      );
      seen.push(req.system);
      return { text: "looks fine" };
    },
    { text: "done" },
  ]);
  const run = await collect(
    createAgent({
      model: main,
      workspaceRoot: s.root,
      backend,
      teamFiles: catalog,
      executor: {
        run: async () => ({
          output: "",
          exitCode: 0,
          timedOut: false,
          cancelled: false,
          truncated: false,
          durationMs: 0,
        }),
      } as never,
    }),
    "review",
  );
  assert.equal(run.done.reason, "completed");
  assert.equal(seen[0], "glob,grep,ls,read_file");
  assert.match(
    seen[1]!,
    /# Agent: reviewer \(from \/\.github\/agents\/reviewer\.agent\.md\)\nYou review code\. Never edit\./,
  );
  assert.equal(run.done.state.messages.find((m) => m.role === "tool")!.content, "looks fine");

  // The task's agent: tester (Read, Write, Bash) — no edit_file, no task; its general-purpose subagents are narrowed too.
  const asTester = new FakeModel([{ text: "ok" }]);
  const agent = createAgent({
    model: asTester,
    workspaceRoot: s.root,
    backend,
    teamFiles: catalog,
    agent: "tester",
    executor: { run: async () => ({}) } as never,
  });
  await collect(agent, "test it");
  // (run_tests, kept with execute, is offered from the run's second step on.)
  assert.deepEqual(asTester.requests[0]!.toolNames.sort(), ["execute", "read_file", "write_file"]);
  assert.match(
    asTester.requests[0]!.system,
    /# Agent: tester .*\nYou act as this agent for the whole task:\nYou write tests\./,
  );
  assert.doesNotMatch(asTester.requests[0]!.system, /# Subagents/);
  assert.throws(
    () => createAgent({ model: asTester, workspaceRoot: s.root, backend, teamFiles: catalog, agent: "nobody" }),
    /No custom agent is named "nobody"/,
  );

  const narrowed = new FakeModel([
    { toolCalls: [{ name: "task", arguments: { description: "x", subagent_type: "general-purpose" } }] },
    (req) => ({
      text: req.tools
        .map((t) => t.name)
        .sort()
        .join(","),
    }),
    { text: "done" },
  ]);
  const { done } = await collect(
    createAgent({
      model: narrowed,
      workspaceRoot: s.root,
      backend,
      teamFiles: catalog,
      narrowTools: { names: ["read_file", "task"] },
    }),
    "go",
  );
  assert.equal(done.state.messages.find((m) => m.role === "tool")!.content, "read_file");
});

test("a subagent reads the parent's evicted /large_tool_results/", async () => {
  const s = teamWorkspace({ "big.txt": `${"line of a big file\n".repeat(6_000)}` });
  const backend = new FilesystemBackend({ rootDir: s.root });
  const model = new FakeModel([
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/big.txt" } }] },
    (req) => {
      const saved = /\/large_tool_results\/[\w.-]+/.exec(req.messages.at(-1)!.content)![0];
      return {
        toolCalls: [{ name: "task", arguments: { description: `read ${saved}`, subagent_type: "general-purpose" } }],
      };
    },
    (req) => ({
      toolCalls: [{ name: "read_file", arguments: { file_path: req.messages[0]!.content.slice(5), limit: 2 } }],
    }),
    (req) => ({ text: `subagent saw: ${req.messages.at(-1)!.content}` }),
    { text: "done" },
  ]);
  const { done } = await collect(
    createAgent({ model, workspaceRoot: s.root, backend, rules: false, evictionThresholdChars: 20_000 }),
    "go",
  );
  assert.match(
    done.state.messages.find((m) => m.role === "tool" && m.toolName === "task")!.content,
    /subagent saw: +1\t +1\tline of a big file/,
  );
});
