import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  hookSetKey,
  loadHooks,
  matchesTool,
  MAX_HOOKS,
  workspaceHookFiles,
  type HookDefinition,
} from "../../../src/core/hooks/hookConfig";

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-hookcfg-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const hook = (matcher: string, dialect: "claude" | "fathom" = "claude"): HookDefinition => ({
  event: "PreToolUse",
  matcher,
  command: "true",
  timeoutMs: 1000,
  failClosed: false,
  origin: "user",
  dialect,
  source: "x",
});

test("Claude Code's settings, Fathom's hooks.json and VS Code's .github/hooks read into one list", () => {
  const root = folder({
    ".claude/settings.json": JSON.stringify({
      permissions: {},
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh", timeout: 5 }] }] },
    }),
    ".fathom/hooks.json": `// comments are fine\n{ "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "npm test" }] }], "PreToolUse": [{ "matcher": "execute", "failClosed": true, "hooks": [{ "type": "command", "command": "guard" }] }] } }`,
    ".github/hooks/format.json": JSON.stringify({
      version: 1,
      hooks: { postToolUse: [{ type: "command", bash: "prettier --write .", timeoutSec: 30 }] },
    }),
    ".github/hooks/vscode.json": JSON.stringify({
      hooks: {
        SessionStart: [
          { type: "command", command: "generic", linux: "on-linux", osx: "on-mac", windows: "on-windows", timeout: 5 },
        ],
      },
    }),
  });
  const files = workspaceHookFiles(root);
  const { hooks, problems } = loadHooks(files.map((file) => ({ file, origin: "workspace" as const })));
  assert.deepEqual(problems, []);
  assert.deepEqual(
    hooks.map((h) => [h.event, h.matcher, h.command, h.timeoutMs, h.failClosed, h.dialect, h.origin]),
    [
      ["PreToolUse", "Bash", "./check.sh", 5000, false, "claude", "workspace"],
      ["Stop", "", "npm test", 60_000, false, "fathom", "workspace"],
      ["PreToolUse", "execute", "guard", 60_000, true, "fathom", "workspace"],
      ["PostToolUse", "", "prettier --write .", 30_000, false, "fathom", "workspace"],
      [
        "SessionStart",
        "",
        process.platform === "darwin" ? "on-mac" : process.platform === "win32" ? "on-windows" : "on-linux",
        5000,
        false,
        "fathom",
        "workspace",
      ],
    ],
  );
});

test("matchers: Claude's tool names map to Fathom's, regexes match whole names, empty and * match all", () => {
  assert.equal(matchesTool(hook("Bash"), "execute"), true);
  assert.equal(matchesTool(hook("Bash"), "read_file"), false);
  assert.equal(matchesTool(hook("Edit|Write"), "edit_file"), true);
  assert.equal(matchesTool(hook("Edit|Write"), "write_file"), true);
  assert.equal(matchesTool(hook("Edit"), "edit_selection"), false);
  assert.equal(matchesTool(hook("mcp__github__.*"), "mcp__github__create_issue"), true);
  assert.equal(matchesTool(hook("execute", "fathom"), "execute"), true);
  assert.equal(matchesTool(hook(""), "anything"), true);
  assert.equal(matchesTool(hook("*"), "anything"), true);
  assert.equal(matchesTool(hook("Read"), "read_file_extra"), false);
});

test("bad entries are left out and said: unknown events, other types, broken regexes, broken JSON", () => {
  const root = folder({
    "a.json": JSON.stringify({
      hooks: {
        Notification: [{ hooks: [{ type: "command", command: "x" }] }],
        PreToolUse: [
          { matcher: "(", hooks: [{ type: "command", command: "y" }] },
          { hooks: [{ type: "prompt", prompt: "z" }] },
        ],
      },
    }),
    "b.json": "{ not json",
  });
  const { hooks, problems } = loadHooks([
    { file: path.join(root, "a.json"), origin: "user" },
    { file: path.join(root, "b.json"), origin: "user" },
  ]);
  assert.equal(hooks.length, 0);
  assert.equal(problems.length, 4);
  assert.match(
    problems.map((p) => p.message).join("\n"),
    /"Notification" is not one Fathom runs[\s\S]*matcher "\(" is not[\s\S]*type "prompt"[\s\S]*not valid JSON/,
  );
});

test("hostile: 1,000 hooks are capped at the limit and a 10 MB file is not read; both said, quickly", () => {
  const many = {
    hooks: {
      PreToolUse: [{ hooks: Array.from({ length: 1000 }, (_, i) => ({ type: "command", command: `echo ${i}` })) }],
    },
  };
  const root = folder({
    "many.json": JSON.stringify(many),
    "huge.json": `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"${"x".repeat(10 * 1024 * 1024)}"}]}]}}`,
  });
  const started = Date.now();
  const { hooks, problems } = loadHooks([
    { file: path.join(root, "many.json"), origin: "user" },
    { file: path.join(root, "huge.json"), origin: "user" },
  ]);
  assert.ok(Date.now() - started < 2000);
  assert.equal(hooks.length, MAX_HOOKS);
  assert.match(
    problems.map((p) => p.message).join("\n"),
    /huge\.json is 10240 KB; hook files over 256 KB are not read[\s\S]*900 hooks were left out: Fathom runs at most 100 hooks/,
  );
});

test("the approval key changes with any hook of the set", () => {
  const a = hookSetKey([hook("Bash")]);
  assert.equal(hookSetKey([hook("Bash")]), a);
  assert.notEqual(hookSetKey([{ ...hook("Bash"), command: "true; curl evil" }]), a);
  assert.notEqual(hookSetKey([hook("Bash"), hook("Edit")]), a);
});
