// Hostile team files: each refused or capped with a message; never a hang, a crash or a read outside the guard.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { discoverTeamFiles } from "../../../src/core/teamFiles/discovery";
import { parseFrontMatter } from "../../../src/core/teamFiles/frontMatter";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";
import { makeSandbox } from "../backends/helpers";

const BOMB = `---
name: bomb
description: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
---
body
`;

test("a 10 MB SKILL.md is found by its front matter and loaded capped; a YAML alias bomb is refused with its line", async () => {
  const s = makeSandbox({
    ".github/skills/huge/SKILL.md": `---\nname: huge\ndescription: A very long skill.\n---\n${"HUGE-BODY ".repeat(1_048_576)}`,
    ".claude/skills/bomb/SKILL.md": BOMB,
    ".github/agents/bomb.agent.md": BOMB,
  });
  after(s.cleanup);
  const backend = new FilesystemBackend({ rootDir: s.root });
  const started = Date.now();
  const catalog = await discoverTeamFiles({ workspace: backend });
  assert.ok(Date.now() - started < 3_000, `discovery took ${Date.now() - started} ms`);
  assert.deepEqual(
    catalog.skills.map((x) => x.name),
    ["huge"],
  );
  assert.ok(
    catalog.problems.some((p) => p.file === "/.claude/skills/bomb/SKILL.md" && /aliases/.test(p.message)),
    JSON.stringify(catalog.problems),
  );
  assert.ok(catalog.problems.some((p) => p.file === "/.github/agents/bomb.agent.md" && /skipped/.test(p.message)));
  const model = new FakeModel([{ toolCalls: [{ name: "load_skill", arguments: { name: "huge" } }] }, { text: "ok" }]);
  const { done } = await collect(
    createAgent({ model, workspaceRoot: s.root, backend, teamFiles: catalog, generalPurposeSubagent: false }),
    "go",
  );
  const loaded = done.state.messages.find((m) => m.role === "tool")!.content;
  assert.ok(loaded.length < 40_000, `${loaded.length} characters`);
  assert.match(loaded, /the rest of \/\.github\/skills\/huge\/SKILL\.md is not shown here/);
  assert.match(parseFrontMatter("---\nname: [unclosed\n---\n").problem!.message, /invalid YAML front matter/);
  assert.equal(parseFrontMatter("---\nname: [unclosed\n---\n").problem!.line, 2);
});

test("a rules folder full of links out of the workspace: each refused and said, nothing read", async () => {
  const s = makeSandbox({ ".clinerules/ok.md": "Fine rule.\n" });
  after(s.cleanup);
  for (let i = 0; i < 150; i++)
    symlinkSync(s.canary, path.join(s.root, ".clinerules", `link-${String(i).padStart(3, "0")}.md`));
  symlinkSync(s.outside, path.join(s.root, ".github"));
  mkdirSync(path.join(s.outside, "prompts"));
  writeFileSync(path.join(s.outside, "prompts", "steal.prompt.md"), "CANARY prompt\n");
  const catalog = await discoverTeamFiles({ workspace: new FilesystemBackend({ rootDir: s.root }) });
  assert.doesNotMatch(JSON.stringify(catalog.rules) + JSON.stringify(catalog.commands), /CANARY/);
  assert.ok(catalog.problems.filter((p) => /outside the workspace/.test(p.message)).length >= 90);
  assert.ok(catalog.problems.some((p) => /only the first 100 are read/.test(p.message)));
  assert.deepEqual(catalog.commands, []);
});

test("names with control characters are refused, never shown", async () => {
  const s = makeSandbox({
    ".github/prompts/evil\u001b[31m.prompt.md": "Body.\n",
    ".claude/agents/evil.md": '---\nname: "ev\\u202eil"\ndescription: x\n---\nBody\n',
    ".github/skills/evil/SKILL.md": '---\nname: "ev\\u0007il"\ndescription: x\n---\nBody\n',
  });
  after(s.cleanup);
  const catalog = await discoverTeamFiles({ workspace: new FilesystemBackend({ rootDir: s.root }) });
  assert.deepEqual([catalog.commands, catalog.agents, catalog.skills], [[], [], []]);
  assert.equal(
    catalog.problems.filter((p) => /control or invisible characters/.test(p.message)).length,
    3,
    JSON.stringify(catalog.problems),
  );
});
