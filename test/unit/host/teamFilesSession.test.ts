// The chat session with the team files: `/name args`, the Agent box, "Rules (N)".
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { FilesystemBackend, discoverTeamFiles, runSlash, type TeamCatalog } from "../../../src/core";
import type { SessionTeamFiles } from "../../../src/host/tasks/teamRun";
import { teamFilesView } from "../../../src/host/teamFiles/teamFilesView";
import { makeKit } from "./sessionKit";

const FILES: Record<string, string> = {
  "AGENTS.md": "Root rule: run npm test.\n",
  "src/api/AGENTS.md": "API rule: validate inputs.\n",
  "src/api/h.ts": "export const h = 1;\n",
  ".claude/commands/fix-issue.md": "---\ndescription: Fix a GitHub issue\n---\nFix issue #$1 with priority $2.\n",
  ".github/prompts/explain.prompt.md":
    "---\ndescription: Explain code\nagent: ask\n---\nExplain ${input:topic} simply.\n",
  ".github/agents/reviewer.agent.md":
    "---\ndescription: Reviews code without changing it\ntools: ['search', 'read']\n---\nREVIEWER: never edit.\n",
};

function workspace(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "fathom-team-session-"));
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** The host's team files without VS Code: the same discovery and expansion; inputs answered from `answers`. */
function teamFiles(root: string, answers: Record<string, string> = {}): SessionTeamFiles & { discoveries: number } {
  const backend = new FilesystemBackend({ rootDir: root });
  const self = {
    discoveries: 0,
    catalog(): Promise<TeamCatalog> {
      self.discoveries++;
      return discoverTeamFiles({ workspace: backend, user: [] });
    },
    expandSlash: (text: string, catalog: TeamCatalog, provider: string) =>
      runSlash({
        text,
        catalog,
        provider,
        backend,
        editor: {},
        ask: async (_c, missing) =>
          Object.fromEntries(missing.filter((m) => m.name in answers).map((m) => [m.name, answers[m.name]!])),
      }),
  };
  return self;
}

const lastUser = (messages: { role: string; content: unknown }[]) =>
  JSON.stringify(messages.filter((m) => m.role === "user").at(-1)?.content);

describe("team files in the chat session", () => {
  it("/name args sends the prompt file's filled-in body; the transcript keeps what the person typed", async () => {
    const root = workspace();
    const kit = makeKit([{ text: "On it." }], { root, env: { teamFiles: teamFiles(root) } });
    await kit.session.send("/fix-issue 42 high");
    await kit.session.whenIdle();
    assert.match(lastUser(kit.model.requests[0]!.messages), /Fix issue #42 with priority high\./);
    assert.equal(kit.session.state.items[0]!.kind === "user" && kit.session.state.items[0]!.text, "/fix-issue 42 high");
  });

  it("a prompt file's ${input:x} is asked; its `agent: ask` narrows the tools to reading", async () => {
    const root = workspace();
    const kit = makeKit([{ text: "Explained." }], { root, env: { teamFiles: teamFiles(root, { topic: "closures" }) } });
    await kit.session.send("/explain");
    await kit.session.whenIdle();
    const request = kit.model.requests[0]!;
    assert.match(lastUser(request.messages), /Explain closures simply\./);
    assert.ok(request.toolNames.includes("read_file"));
    for (const t of ["write_file", "edit_file", "execute"]) assert.ok(!request.toolNames.includes(t), t);
  });

  it("the Agent box: the task runs as the custom agent (its instructions, only its tools); an agent that is gone is said and not used", async () => {
    const root = workspace();
    const kit = makeKit([{ text: "Reviewed." }, { text: "Plain." }], { root, env: { teamFiles: teamFiles(root) } });
    kit.session.setAgent("reviewer");
    assert.equal(kit.session.state.agent, "reviewer");
    assert.ok(kit.messages.some((m) => m.type === "agent" && m.agent === "reviewer"));
    await kit.session.send("review app.ts");
    await kit.session.whenIdle();
    const narrowed = kit.model.requests[0]!;
    assert.match(narrowed.system, /REVIEWER: never edit\./);
    assert.ok(
      !narrowed.toolNames.includes("write_file") && !narrowed.toolNames.includes("execute"),
      narrowed.toolNames.join(),
    );
    assert.ok(narrowed.toolNames.includes("read_file"));

    // A reloaded window keeps the task's agent (and its narrower tools) and its rules.
    await kit.store.flush();
    const again = kit.reopen();
    await again.session.whenReady();
    assert.equal(again.session.state.agent, "reviewer");
    assert.deepEqual(again.session.state.rules, ["/AGENTS.md"]);
    again.session.dispose();

    kit.session.setAgent("ghost");
    await kit.session.send("again");
    await kit.session.whenIdle();
    assert.ok(
      kit.session.state.items.some((i) => i.kind === "notice" && /The agent "ghost" is no longer defined/.test(i.text)),
    );
    assert.ok(kit.model.requests[1]!.toolNames.includes("write_file"));
  });

  it('"Rules (N)": the rules in force join the state as they start to apply (a folder\'s with its first file read)', async () => {
    const root = workspace();
    const kit = makeKit(
      [{ toolCalls: [{ name: "read_file", arguments: { file_path: "/src/api/h.ts" } }] }, { text: "Read." }],
      { root, env: { teamFiles: teamFiles(root) } },
    );
    await kit.session.send("look at the handler");
    await kit.session.whenIdle();
    assert.deepEqual(kit.session.state.rules, ["/AGENTS.md", "/src/api/AGENTS.md"]);
    assert.deepEqual(
      kit.messages.filter((m) => m.type === "rules").map((m) => m.type === "rules" && m.rules),
      [["/AGENTS.md"], ["/AGENTS.md", "/src/api/AGENTS.md"]],
    );
  });

  it("the list the Fathom view shows: every kind with its source, plain one-line text", async () => {
    const root = workspace();
    writeFileSync(path.join(root, ".github/agents/bad.agent.md"), "---\ndescription: [unclosed\n---\nx\n");
    const view = teamFilesView(await teamFiles(root).catalog());
    assert.deepEqual(view.commands.map((c) => c.name).sort(), ["explain", "fix-issue"]);
    assert.deepEqual(
      view.agents.map((a) => [a.name, a.source]),
      [["reviewer", "/.github/agents/reviewer.agent.md"]],
    );
    assert.deepEqual(
      view.rules.map((r) => [r.source, r.when]),
      [
        ["/AGENTS.md", "always"],
        ["/src/api/AGENTS.md", "files under /src/api/"],
      ],
    );
    const problem = view.problems.find((p) => p.source === "/.github/agents/bad.agent.md");
    assert.ok(problem && problem.line !== undefined, JSON.stringify(view.problems));
  });
});
