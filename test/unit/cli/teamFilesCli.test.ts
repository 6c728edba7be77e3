// `fathom run` with the files teams keep, as a child process against the scripted model server.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import type { AgentEvent } from "../../../src/core/run/events";
import { runCli, type CliRun } from "../../support/cliProcess";

const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A workspace with these files, and a home of its own (so the person's real folders are not read). */
function workspace(files: Record<string, string>): { dir: string; home: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-team-cli-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, home: mkdtempSync(path.join(tmpdir(), "fathom-team-home-")) };
}

function cli(args: string[], home: string): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OPENAI_API_KEY: "sk-team-test",
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".data"),
    FATHOM_RETRY_BASE_DELAY_MS: "1",
  };
  return runCli([...args], env);
}

async function server(turns: ScriptedTurn[]) {
  const s = await startScriptedModelServer(turns);
  servers.push(s);
  return s;
}

const run = (s: ScriptedModelServer, w: { dir: string; home: string }, ...args: string[]) =>
  cli(
    [
      "run",
      "--yes",
      "--json",
      "--no-sandbox",
      "--provider",
      "openai",
      "--base-url",
      s.baseUrlOpenAI,
      "--cwd",
      w.dir,
      ...args,
    ],
    w.home,
  );

const events = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AgentEvent & Record<string, unknown>);
const bodyText = (s: ScriptedModelServer, i: number) => JSON.stringify(s.requests[i]!.body);
const toolNames = (s: ScriptedModelServer, i: number) =>
  ((s.requests[i]!.body as { tools?: { function: { name: string } }[] }).tools ?? [])
    .map((t) => t.function.name)
    .sort();

test("a nested AGENTS.md reaches the model only after a file in its folder is read; --json reports the rules", async () => {
  const w = workspace({
    "AGENTS.md": "Root rule: run npm test.\n",
    "src/api/AGENTS.md": "API rule: validate every input.\n",
    "src/api/h.ts": "export const h = 1;\n",
  });
  const s = await server([
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/src/api/h.ts" } }] },
    { text: "Read." },
  ]);
  const r = await run(s, w, "look at the handler");
  assert.equal(r.code, 0, r.stderr);
  assert.match(bodyText(s, 0), /Root rule: run npm test/);
  assert.doesNotMatch(bodyText(s, 0), /API rule/);
  assert.match(bodyText(s, 1), /API rule: validate every input/);
  const evs = events(r.stdout);
  const loaded = evs.filter((e) => e.type === "rules_loaded").flatMap((e) => (e as { files: string[] }).files);
  assert.deepEqual(loaded, ["/AGENTS.md", "/src/api/AGENTS.md"]);
  assert.deepEqual(evs.at(-1)!.rules, ["/AGENTS.md", "/src/api/AGENTS.md"]);
});

test('"/name args" sends the prompt file\'s body with its arguments filled in; an unknown agent is a usage error naming the agents', async () => {
  const w = workspace({
    ".claude/commands/fix-issue.md":
      "---\ndescription: Fix a GitHub issue\n---\nFix issue #$1 with priority $2. All: $ARGUMENTS\n",
    ".github/agents/reviewer.agent.md": "---\ndescription: Reviews\ntools: ['search', 'read']\n---\nYou review.\n",
  });
  const s = await server([{ text: "Fixed." }]);
  const r = await run(s, w, "/fix-issue 42 high");
  assert.equal(r.code, 0, r.stderr);
  const messages = (s.requests[0]!.body as { messages: { role: string; content: unknown }[] }).messages;
  const user = JSON.stringify(messages.filter((m) => m.role === "user"));
  assert.match(user, /Fix issue #42 with priority high\. All: 42 high/);
  assert.doesNotMatch(user, /\/fix-issue/);

  const bad = await run(s, w, "--agent", "nobody", "hi");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--agent nobody: no custom agent has that name\. The agents are: reviewer\./);
});

test("a skill's description is in the first request and its body only after load_skill", async () => {
  const w = workspace({
    ".github/skills/pdf/SKILL.md":
      "---\nname: pdf\ndescription: Extract text and tables from PDF files.\n---\n# PDF\nSKILL-BODY: use scripts/extract.py.\n",
  });
  const s = await server([{ toolCalls: [{ name: "load_skill", arguments: { name: "pdf" } }] }, { text: "Loaded." }]);
  const r = await run(s, w, "read the pdf");
  assert.equal(r.code, 0, r.stderr);
  assert.match(bodyText(s, 0), /pdf: Extract text and tables from PDF files\./);
  assert.doesNotMatch(bodyText(s, 0), /SKILL-BODY/);
  assert.match(bodyText(s, 1), /SKILL-BODY: use scripts\/extract\.py/);
});

test("--agent runs as the custom agent: its instructions, and only the tools its list names", async () => {
  const w = workspace({
    ".github/agents/reviewer.agent.md":
      "---\ndescription: Reviews code without changing it\ntools: ['search', 'read']\n---\nREVIEWER: never edit.\n",
  });
  const s = await server([{ text: "Plain." }, { text: "Reviewed." }]);
  const plain = await run(s, w, "hi");
  assert.equal(plain.code, 0, plain.stderr);
  const narrowed = await run(s, w, "--agent", "reviewer", "review it");
  assert.equal(narrowed.code, 0, narrowed.stderr);
  const all = toolNames(s, 0);
  const mine = toolNames(s, 1);
  assert.ok(all.includes("write_file") && all.includes("execute"), all.join());
  assert.ok(mine.length > 0 && mine.every((t) => all.includes(t)), mine.join());
  for (const t of ["write_file", "edit_file", "execute"]) assert.ok(!mine.includes(t), `${t} in ${mine.join()}`);
  assert.ok(mine.includes("read_file") && mine.includes("grep"), mine.join());
  assert.match(bodyText(s, 1), /REVIEWER: never edit\./);
  assert.doesNotMatch(bodyText(s, 0), /REVIEWER/);
});
