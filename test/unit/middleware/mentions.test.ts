import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { collect } from "../../support/agentTestKit";
import { FakeModel } from "../../support/fakeModel";

const dir = mkdtempSync(path.join(tmpdir(), "fathom-mentions-"));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(path.join(dir, "src"));
writeFileSync(path.join(dir, "src", "app.ts"), "export const answer = 42;\n");
writeFileSync(path.join(dir, ".fathomignore"), "secret.txt\n");
writeFileSync(path.join(dir, "secret.txt"), "hunter2\n");

test("@ mentions attach the file, a folder listing, or the reason it cannot be read", async () => {
  const model = new FakeModel([{ text: "ok" }, { text: "ok again" }]);
  const backend = new FilesystemBackend({ rootDir: dir });
  const agent = createAgent({ model, workspaceRoot: dir, backend, rules: false, generalPurposeSubagent: false });
  const { done } = await collect(agent, "Look at @/src/app.ts, @/src and @/secret.txt, and @/missing.ts.");
  const sent = model.requests[0]!.messages.at(-1)!;
  assert.equal(sent.role, "user");
  const text = (sent as { content: string }).content;
  assert.match(text, /^Look at @\/src\/app\.ts/);
  assert.match(text, /<file path="\/src\/app\.ts">\n\s+1\texport const answer = 42;/);
  assert.match(text, /<file path="\/src">\n\/src\/app\.ts/);
  assert.match(text, /<file path="\/secret\.txt">\n\(could not attach: .*fathomignore/i);
  assert.doesNotMatch(text, /hunter2/, "an ignored file is never attached");
  assert.match(text, /<file path="\/missing\.ts">\n\(could not attach:/);
  // Attached once: the next turn does not attach again.
  await collect(agent, "thanks", { state: done.state });
  const second = model.requests[1]!.messages;
  assert.equal(second.filter((m) => m.role === "user" && m.content.includes("<mentioned_files>")).length, 1);
});

test("a message without mentions is sent unchanged", async () => {
  const model = new FakeModel([{ text: "ok" }]);
  const agent = createAgent({ model, workspaceRoot: dir, backend: new FilesystemBackend({ rootDir: dir }), rules: false, generalPurposeSubagent: false });
  await collect(agent, "email me at a@b.c");
  assert.equal((model.requests[0]!.messages.at(-1) as { content: string }).content, "email me at a@b.c");
});
