import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { measurePrompt, PROMPT_TOKEN_BUDGET } from "../../../bench/agent";

test("system prompt + all built-in tool schemas fit in 2,000 tokens", async () => {
  const prompt = await measurePrompt(mkdtempSync(path.join(tmpdir(), "fathom-prompt-")));
  assert.deepEqual(prompt.tools, [
    "write_todos",
    "ask_user",
    "web_fetch",
    "ls",
    "read_file",
    "write_file",
    "edit_file",
    "glob",
    "grep",
    "execute",
    "task",
  ]);
  assert.ok(prompt.tokens <= PROMPT_TOKEN_BUDGET, `${prompt.tokens} tokens`);
});

test("plan mode's first request is smaller than act's: only the tools that change nothing", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-prompt-"));
  const act = await measurePrompt(dir);
  const plan = await measurePrompt(dir, "plan");
  assert.deepEqual(plan.tools, ["write_todos", "ask_user", "web_fetch", "ls", "read_file", "glob", "grep", "task"]);
  assert.ok(plan.tokens < act.tokens, `plan ${plan.tokens} < act ${act.tokens} tokens`);
});
