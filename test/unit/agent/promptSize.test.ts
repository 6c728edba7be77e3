import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { measurePrompt, PROMPT_TOKEN_BUDGET } from "../../../bench/agent";

test("system prompt + all built-in tool schemas fit in 2,000 tokens", async () => {
  const prompt = await measurePrompt(mkdtempSync(path.join(tmpdir(), "fathom-prompt-")));
  assert.deepEqual(prompt.tools, ["write_todos", "ls", "read_file", "write_file", "edit_file", "glob", "grep", "execute", "task"]);
  assert.ok(prompt.tokens <= PROMPT_TOKEN_BUDGET, `${prompt.tokens} tokens`);
});
