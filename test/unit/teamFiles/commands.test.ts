// Slash commands from prompt files: arguments, inputs, editor variables, imports, front matter.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { discoverTeamFiles } from "../../../src/core/teamFiles/discovery";
import { commandInputs, expandCommand, parsePromptFile, splitArgs } from "../../../src/core/teamFiles/promptFiles";
import { parseSlashCommand as parseSlash } from "../../../src/protocol";
import { commandRun, modelForName } from "../../../src/core/teamFiles/agentRuns";
import type { PromptCommand } from "../../../src/core/teamFiles/types";
import { teamWorkspace } from "./fixture";

const ref = { path: "/.claude/commands/x.md", label: "/.claude/commands/x.md", origin: "workspace" as const };
const command = (body: string, format: PromptCommand["format"] = "claude-command"): PromptCommand => {
  const parsed = parsePromptFile(body, ref, format, "x.md");
  assert.ok("command" in parsed, JSON.stringify(parsed.problems));
  return parsed.command;
};

test("$ARGUMENTS, $1…, quoted words; a body without placeholders gets the arguments after it", async () => {
  assert.deepEqual(parseSlash("/fix-issue 123 high"), { name: "fix-issue", args: "123 high" });
  assert.equal(parseSlash("/src/a.ts is broken"), undefined);
  assert.equal(parseSlash("hello /x"), undefined);
  assert.deepEqual(splitArgs(`a "b c" 'd e' f\\ g`), ["a", "b c", "d e", "f g"]);
  assert.equal(
    (await expandCommand(command("Fix #$1 ($2): $ARGUMENTS"), `123 "very high"`)).text,
    `Fix #123 (very high): 123 "very high"`,
  );
  assert.equal(
    (await expandCommand(command("Summarize the changes."), "in French")).text,
    "Summarize the changes.\n\nin French",
  );
  assert.equal((await expandCommand(command("No args."), "")).text, "No args.");
});

test("${input:x} asked (or name=value in the arguments), ${selection} and ${file} from the editor", async () => {
  const c = command(
    "---\ndescription: d\n---\nMake ${input:formName:the form's name} in ${fileDirname} (${fileBasename}): ${selection} ${input:formName}",
    "copilot-prompt",
  );
  assert.deepEqual(commandInputs(c), [{ name: "formName", placeholder: "the form's name" }]);
  const filled = await expandCommand(c, "formName=Login extra", {
    editor: { file: "/src/ui/app.tsx", selection: "const a = 1;" },
  });
  assert.equal(filled.text, "Make Login in /src/ui (app.tsx): const a = 1; Login\n\nextra");
  const asked = await expandCommand(c, "", { inputs: { formName: "Signup" } });
  assert.equal(asked.text, "Make Signup in  ():  Signup");
  assert.deepEqual(asked.notes, [
    "${fileDirname}: no file is open",
    "${fileBasename}: no file is open",
    "${selection}: nothing is selected",
  ]);
});

test("a command's @imports are read through the backend; one that includes itself is refused, not looped", async () => {
  const s = teamWorkspace({
    ".claude/commands/self.md":
      "---\ndescription: Includes itself\n---\nStart. @.claude/commands/self.md and @docs/style.md and @../../outside/canary.txt and @../../../../etc/hosts.txt end.\n",
    ".claude/commands/a.md": "A includes @.claude/commands/b.md\n",
    ".claude/commands/b.md": "B includes @.claude/commands/a.md\n",
    "etc/hosts.txt": "not the real one\n",
  });
  const backend = new FilesystemBackend({ rootDir: s.root });
  const catalog = await discoverTeamFiles({ workspace: backend });
  const readInclude = async (p: string) => {
    const r = await backend.readText(p, 65_536);
    return r.text !== undefined ? { text: r.text } : { error: r.error! };
  };
  // A command's file references are from the workspace root, as Claude Code reads them.
  const self = catalog.commands.find((c) => c.name === "self")!;
  const started = Date.now();
  const out = await expandCommand(self, "", { readInclude });
  assert.ok(Date.now() - started < 2_000);
  assert.match(out.text, /@\.claude\/commands\/self\.md \[not included: it would include itself\]/);
  assert.match(out.text, /<included path="\/docs\/style\.md">\nUse two spaces\.\n<\/included>/);
  // `..` cannot leave the workspace: it stays inside (the workspace's own etc/hosts.txt; no canary from outside).
  assert.match(out.text, /<included path="\/etc\/hosts\.txt">\nnot the real one/);
  assert.doesNotMatch(out.text, /CANARY/);
  const loop = await expandCommand(
    catalog.commands.find((c) => c.name === "a")!,
    "",
    { readInclude },
  );
  assert.match(
    loop.text,
    /<included path="\/\.claude\/commands\/b\.md">\nB includes @\.claude\/commands\/a\.md \[not included: it would include itself\]/,
  );
  assert.ok(loop.notes.some((n) => /includes it again/.test(n)));
});

test("front matter: Copilot's ask mode narrows to reading, tools map to Fathom's, a model only when the provider has it", async () => {
  const s = teamWorkspace();
  const catalog = await discoverTeamFiles({ workspace: new FilesystemBackend({ rootDir: s.root }) });
  const review = commandRun(
    catalog.commands.find((c) => c.name === "review")!,
    catalog,
    "openai",
  );
  assert.deepEqual(review.narrowing, { kinds: ["read"], names: ["grep", "glob", "ls", "read_file"] });
  const fix = commandRun(
    catalog.commands.find((c) => c.name === "fix-issue")!,
    catalog,
    "openai",
  );
  assert.deepEqual([...fix.narrowing!.names!].sort(), [
    "command_output",
    "edit_file",
    "execute",
    "read_file",
    "run_tests",
    "stop_command",
    "write_file",
  ]);
  assert.deepEqual(modelForName("sonnet", "anthropic"), { model: "claude-sonnet-5-5" });
  assert.deepEqual(modelForName("Claude Sonnet 4.5 (copilot)", "anthropic"), { model: "claude-sonnet-4-5" });
  assert.deepEqual(modelForName("GPT-4.1", "openai"), { model: "gpt-4.1" });
  assert.match(modelForName("sonnet", "openai").note!, /not a model of openai/);
  assert.match(modelForName("gpt-4.1", "openai-compatible").note!, /not used/);
  assert.deepEqual(modelForName("inherit", "openai"), {});
  const unknownAgent = commandRun(
    { ...catalog.commands[0]!, agent: "wizard", tools: undefined } as PromptCommand,
    catalog,
    "openai",
  );
  assert.match(unknownAgent.notes[0]!, /"wizard" .* not one Fathom has/);
  assert.equal(
    commandRun({ ...catalog.commands[0]!, agent: "reviewer", tools: undefined } as PromptCommand, catalog, "openai")
      .agent,
    "reviewer",
  );
});
