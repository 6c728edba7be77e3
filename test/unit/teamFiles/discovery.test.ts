// Team files: each format found and read in its own meaning, with precedence and the person's folders.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import type { BackendProtocol } from "../../../src/core/backends/protocol";
import { TeamFileCache, discoverTeamFiles } from "../../../src/core/teamFiles/discovery";
import { userTeamFolders } from "../../../src/core/teamFiles/userFolders";
import { makeSandbox } from "../backends/helpers";
import { teamWorkspace } from "./fixture";

test("every format is found and read in its own meaning", async () => {
  const s = teamWorkspace();
  const c = await discoverTeamFiles({ workspace: new FilesystemBackend({ rootDir: s.root }) });
  const scope = (label: string) => c.rules.find((r) => r.file.label === label)?.scope;
  assert.deepEqual(scope("/AGENTS.md"), { kind: "always" });
  assert.deepEqual(scope("/src/api/AGENTS.md"), { kind: "folder", folder: "/src/api" });
  assert.deepEqual(scope("/.github/instructions/ts.instructions.md"), { kind: "globs", globs: ["**/*.ts"], root: "/" });
  assert.deepEqual(scope("/.github/instructions/all.instructions.md"), { kind: "always" });
  assert.deepEqual(scope("/.github/instructions/asked.instructions.md"), {
    kind: "requested",
    description: "Database migrations",
  });
  assert.deepEqual(scope("/.cursor/rules/always.mdc"), { kind: "always" });
  assert.deepEqual(scope("/.cursor/rules/tsx.mdc"), { kind: "globs", globs: ["*.tsx", "src/ui/**"], root: "/" });
  assert.deepEqual(scope("/.cursor/rules/manual.mdc"), { kind: "manual" });
  assert.deepEqual(scope("/.clinerules/01-style.md"), { kind: "always" });
  assert.deepEqual(scope("/.github/copilot-instructions.md"), { kind: "always" });
  // CLAUDE.md's imports are read (through the backend).
  assert.match(
    c.rules.find((r) => r.file.label === "/CLAUDE.md")!.text,
    /<included path="\/docs\/style\.md">\nUse two spaces\./,
  );
  assert.equal(
    c.rules.find((r) => r.file.label === "/.github/instructions/ts.instructions.md")!.text,
    "TypeScript: no any.",
  );

  assert.deepEqual(
    c.commands.map((x) => [x.name, x.format]),
    [
      ["review", "copilot-prompt"],
      ["fix-issue", "claude-command"],
      ["release", "cline-workflow"],
    ],
  );
  const review = c.commands.find((x) => x.name === "review")!;
  assert.equal(review.description, "Review a file");
  assert.equal(review.argumentHint, "FILE");
  assert.equal(review.agent, "ask");
  assert.deepEqual(review.tools, ["search", "readFile"]);
  assert.equal(c.commands.find((x) => x.name === "release")!.description, "Release the package");
  assert.ok(
    c.problems.some((p) => p.file === "/.claude/commands/review.md" && /already defines "review"/.test(p.message)),
  );

  assert.deepEqual(
    c.skills.map((x) => [x.name, x.folder]),
    [["pdf", "/.github/skills/pdf"]],
  );
  assert.ok(
    c.problems.some(
      (p) => p.file === "/.claude/skills/bad/SKILL.md" && /lowercase letters, digits and hyphens/.test(p.message),
    ),
  );
  assert.ok(c.problems.some((p) => p.file === "/.agents/skills/nodesc/SKILL.md" && /no description/.test(p.message)));

  const reviewer = c.agents.find((a) => a.name === "reviewer")!;
  assert.deepEqual(reviewer.tools!.sort(), ["glob", "grep", "ls", "read_file"]);
  assert.equal(reviewer.model, "GPT-4.1");
  const tester = c.agents.find((a) => a.name === "tester")!;
  assert.deepEqual(tester.tools!.sort(), [
    "command_output",
    "execute",
    "read_file",
    "run_tests",
    "stop_command",
    "write_file",
  ]);
  assert.deepEqual(tester.unknownTools, ["NotebookEdit"]);
  assert.equal(tester.instructions, "You write tests.");
});

test("the person's folders: their rules, prompts, skills and agents, after the workspace's", async () => {
  const s = teamWorkspace();
  const home = path.join(s.base, "home");
  const files: Record<string, string> = {
    ".config/fathom/AGENTS.md": "My own rule: answer in English.\n",
    ".config/fathom/prompts/review.md": "---\ndescription: My review\n---\nMine.\n",
    ".config/fathom/prompts/standup.md": "---\ndescription: Write my standup\n---\nSummarize yesterday.\n",
    ".claude/skills/notes/SKILL.md": "---\nname: notes\ndescription: Keep meeting notes.\n---\nNotes body.\n",
    ".claude/agents/helper.md": "---\nname: helper\ndescription: Helps\n---\nHelp.\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    writeFileSync(path.join(home, rel), text);
  }
  const c = await discoverTeamFiles({
    workspace: new FilesystemBackend({ rootDir: s.root }),
    user: userTeamFolders({}, home),
  });
  const mine = c.rules.find((r) => r.file.label === "~/.config/fathom/AGENTS.md")!;
  assert.equal(mine.file.origin, "user");
  assert.equal(mine.file.realPath, path.join(home, ".config/fathom/AGENTS.md"));
  // The workspace's review wins; the person's other prompt is there.
  assert.equal(c.commands.find((x) => x.name === "review")!.file.label, "/.github/prompts/review.prompt.md");
  assert.ok(c.commands.some((x) => x.name === "standup" && x.file.origin === "user"));
  const notes = c.skills.find((x) => x.name === "notes")!;
  assert.equal(notes.file.path, "/.user-skills/notes/SKILL.md");
  assert.equal(notes.realFolder, path.join(home, ".claude/skills/notes"));
  assert.ok(c.agents.some((a) => a.name === "helper" && a.format === "claude-agent"));
});

test("a warm discovery reads only files that changed", async () => {
  const s = teamWorkspace();
  const fs = new FilesystemBackend({ rootDir: s.root });
  let reads = 0;
  const counting: BackendProtocol = Object.assign(Object.create(fs) as FilesystemBackend, {
    readText: (p: string, n: number) => {
      reads++;
      return fs.readText(p, n);
    },
  });
  const cache = new TeamFileCache();
  const first = await discoverTeamFiles({ workspace: counting, cache });
  const cold = reads;
  reads = 0;
  const second = await discoverTeamFiles({ workspace: counting, cache });
  assert.deepEqual(second, first);
  // Only CLAUDE.md (whose imports may change without it) and its import are read again.
  assert.equal(reads, 2, `a warm discovery read ${reads} files (cold: ${cold})`);
  writeFileSync(path.join(s.root, "AGENTS.md"), "Changed rules, longer than before.\n");
  reads = 0;
  const third = await discoverTeamFiles({ workspace: counting, cache });
  assert.equal(reads, 3);
  assert.match(third.rules.find((r) => r.file.label === "/AGENTS.md")!.text, /Changed rules/);
});

test("a multi-root workspace: each folder's files, with its own root", async () => {
  const s = makeSandbox({
    "front/AGENTS.md": "Front rules.\n",
    "front/src/AGENTS.md": "Front src.\n",
    "back/.github/prompts/deploy.prompt.md": "Deploy.\n",
  });
  after(s.cleanup);
  const { CompositeBackend } = await import("../../../src/core/backends/composite");
  const ws = new CompositeBackend(null, {
    "/front": new FilesystemBackend({ rootDir: path.join(s.root, "front") }),
    "/back": new FilesystemBackend({ rootDir: path.join(s.root, "back") }),
  });
  const c = await discoverTeamFiles({ workspace: ws, roots: ["/front", "/back"] });
  assert.deepEqual(
    c.rules.map((r) => [r.file.label, r.scope.kind]),
    [
      ["/front/AGENTS.md", "always"],
      ["/front/src/AGENTS.md", "folder"],
    ],
  );
  assert.deepEqual(
    c.commands.map((x) => x.file.label),
    ["/back/.github/prompts/deploy.prompt.md"],
  );
});
