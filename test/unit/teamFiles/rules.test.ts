// Rules enter the conversation when they start to apply, each once, within one budget.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { RULES_BUDGET_CHARS, applying } from "../../../src/core/middleware/rules";
import { discoverTeamFiles } from "../../../src/core/teamFiles/discovery";
import { FakeModel } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";
import { teamWorkspace } from "./fixture";

const read = (file_path: string) => ({ name: "read_file", arguments: { file_path } });

test("a folder's AGENTS.md and glob rules reach the model with the first file touched there, once; root rules from the start", async () => {
  const s = teamWorkspace({ "src/api/deep/x.ts": "x\n", "README.md": "readme\n" });
  const backend = new FilesystemBackend({ rootDir: s.root });
  const catalog = await discoverTeamFiles({ workspace: backend });
  const model = new FakeModel([
    { toolCalls: [read("/README.md")] },
    { toolCalls: [read("/src/api/handler.ts")] },
    { toolCalls: [read("/src/api/deep/x.ts")] },
    { text: "done" },
  ]);
  const { events, done } = await collect(
    createAgent({ model, workspaceRoot: s.root, backend, teamFiles: catalog, generalPurposeSubagent: false }),
    "go",
  );
  assert.equal(done.reason, "completed");
  const [first, second, third, fourth] = model.requests;
  // Root and always rules in the system prompt; offered ones listed; none of the folder's.
  assert.match(first!.system, /# Project rules \(from \/AGENTS\.md\)\nRoot rules/);
  assert.match(first!.system, /Cursor always rule\./);
  assert.match(first!.system, /Everywhere instructions\./);
  assert.match(
    first!.system,
    /More project rules\n.*\n- \/\.github\/instructions\/asked\.instructions\.md: Database migrations/,
  );
  assert.doesNotMatch(first!.system, /React rule|Manual rule|API rules|TypeScript: no any/);
  const results = (r: typeof first) => r!.messages.filter((m) => m.role === "tool").map((m) => m.content);
  assert.doesNotMatch(results(second).join("\n"), /API rules/);
  // After reading /src/api/handler.ts: the folder's rules and the *.ts instructions.
  const afterHandler = results(third).at(-1)!;
  assert.match(afterHandler, /<rules path="\/src\/api\/AGENTS\.md" applies="files under \/src\/api\/">\nAPI rules/);
  assert.match(
    afterHandler,
    /<rules path="\/\.github\/instructions\/ts\.instructions\.md"[^>]*>\nTypeScript: no any\./,
  );
  // Not again for a second file in the same folder.
  assert.doesNotMatch(results(fourth).at(-1)!, /<rules/);
  assert.deepEqual(
    ofType(events, "rules_loaded").map((e) => e.files),
    [
      [
        "/AGENTS.md",
        "/CLAUDE.md",
        "/.clinerules/01-style.md",
        "/.github/copilot-instructions.md",
        "/.github/instructions/all.instructions.md",
        "/.cursor/rules/always.mdc",
      ],
      ["/src/api/AGENTS.md", "/.github/instructions/ts.instructions.md"],
    ],
  );
});

test("nearest folder first, then globs; globs without a slash match a name anywhere", () => {
  const rule = (label: string, scope: never) => ({
    file: { label, origin: "workspace" as const },
    format: "AGENTS.md" as const,
    scope,
    text: label,
    truncated: false,
  });
  const rules = [
    rule("/AGENTS-root", { kind: "folder", folder: "/" } as never),
    rule("/a/AGENTS.md", { kind: "folder", folder: "/a" } as never),
    rule("/a/b/AGENTS.md", { kind: "folder", folder: "/a/b" } as never),
    rule("/ab/AGENTS.md", { kind: "folder", folder: "/ab" } as never),
    rule("tsx", { kind: "globs", globs: ["*.tsx"], root: "/" } as never),
    rule("ui", { kind: "globs", globs: ["src/ui/**"], root: "/" } as never),
  ];
  assert.deepEqual(
    applying(rules, "/a/b/c.tsx").map((r) => r.file.label),
    ["/a/b/AGENTS.md", "/a/AGENTS.md", "/AGENTS-root", "tsx"],
  );
  assert.deepEqual(
    applying(rules, "/src/ui/x.ts").map((r) => r.file.label),
    ["/AGENTS-root", "ui"],
  );
  assert.deepEqual(
    applying(rules, "/abc.ts").map((r) => r.file.label),
    ["/AGENTS-root"],
  );
});

test("all rules share one budget; the cut is said to the model and the person", async () => {
  const big = "r".repeat(25_000);
  const s = teamWorkspace({
    "AGENTS.md": `${"a".repeat(19_000)}\n`,
    "CLAUDE.md": `${"c".repeat(19_000)}\n`,
    "src/api/AGENTS.md": `${big}\n`,
  });
  const backend = new FilesystemBackend({ rootDir: s.root });
  const catalog = await discoverTeamFiles({ workspace: backend });
  const model = new FakeModel([{ toolCalls: [read("/src/api/handler.ts")] }, { text: "done" }]);
  const { events } = await collect(
    createAgent({ model, workspaceRoot: s.root, backend, teamFiles: catalog, generalPurposeSubagent: false }),
    "go",
  );
  const system = model.requests[0]!.system;
  const rulesChars = (system.match(/# Project rules[\s\S]*/)?.[0] ?? "").length;
  assert.ok(rulesChars < RULES_BUDGET_CHARS + 2_000, `${rulesChars} characters of rules in the system prompt`);
  assert.match(system, /\[\.\.\. cut: the rules budget/);
  const afterRead = model.requests[1]!.messages.at(-1)!.content;
  assert.match(afterRead, /<rules path="\/src\/api\/AGENTS\.md"[^>]*>\n\n?\[\.\.\. cut: the rules budget/);
  assert.ok(ofType(events, "warning").some((w) => w.code === "rules" && /was cut/.test(w.message)));
});

test("a file the person attaches brings its folder's rules with the message", async () => {
  const s = teamWorkspace();
  const backend = new FilesystemBackend({ rootDir: s.root });
  const catalog = await discoverTeamFiles({ workspace: backend });
  const model = new FakeModel([{ text: "ok" }]);
  await collect(
    createAgent({ model, workspaceRoot: s.root, backend, teamFiles: catalog, generalPurposeSubagent: false }),
    "look at @/src/api/handler.ts please",
  );
  assert.match(model.requests[0]!.messages[0]!.content, /<rules path="\/src\/api\/AGENTS\.md"/);
});
