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
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    rules: false,
    generalPurposeSubagent: false,
  });
  await collect(agent, "email me at a@b.c");
  assert.equal((model.requests[0]!.messages.at(-1) as { content: string }).content, "email me at a@b.c");
});

test("attachments: a range with its line numbers, a folder, terminal output and problems; a secret file is not attached", async () => {
  writeFileSync(
    path.join(dir, "src", "long.ts"),
    Array.from({ length: 30 }, (_, i) => `const line${i + 1} = ${i + 1};`).join("\n") + "\n",
  );
  writeFileSync(path.join(dir, ".env"), "API_KEY=sk-live-123\n");
  const model = new FakeModel([{ text: "ok" }]);
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    rules: false,
    generalPurposeSubagent: false,
  });
  await collect(agent, "What do these do?", {
    attachments: [
      { kind: "file", path: "/src/long.ts", startLine: 10, endLine: 12 },
      { kind: "file", path: "/src/long.ts", startLine: 10, endLine: 12 },
      { kind: "file", path: "/src" },
      { kind: "terminal", label: "Terminal: npm test (exit 1)", text: "$ npm test\nexit code 1\nFAIL add.test.js" },
      { kind: "problems", label: "Problems (1)", text: "/src/app.ts:1:1 error TS2322: nope (ts)" },
      { kind: "file", path: "/.env", startLine: 1, endLine: 1 },
      { kind: "file", path: "/secret.txt" },
    ],
  });
  const text = (model.requests[0]!.messages.at(-1) as { content: string }).content;
  assert.match(text, /^What do these do\?/);
  assert.match(
    text,
    /<file path="\/src\/long\.ts" lines="10-12">\n\s+10\tconst line10 = 10;\n\s+11\tconst line11 = 11;\n\s+12\tconst line12 = 12;\n[^<]*<\/file>/,
  );
  assert.equal(text.match(/lines="10-12"/g)?.length, 1, "the same range is attached once");
  assert.doesNotMatch(text, /line9 = 9|line13 = 13/, "only the range");
  assert.match(text, /<file path="\/src">\n\/src\/app\.ts/);
  assert.match(
    text,
    /<terminal_output label="Terminal: npm test \(exit 1\)">\n\$ npm test\nexit code 1\nFAIL add\.test\.js\n<\/terminal_output>/,
  );
  assert.match(text, /<problems label="Problems \(1\)">\n\/src\/app\.ts:1:1 error TS2322/);
  assert.match(
    text,
    /<file path="\/\.env" lines="1-1">\n\(not attached: \/\.env may hold secrets \(it matches \.env\)/,
  );
  assert.doesNotMatch(text, /sk-live-123/, "a secret file is never attached");
  assert.match(text, /<file path="\/secret\.txt">\n\(could not attach: .*fathomignore/i);
});

test("a mention of a secret file is not attached either; a message of chips alone is sent", async () => {
  const model = new FakeModel([{ text: "ok" }]);
  const agent = createAgent({
    model,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    rules: false,
    generalPurposeSubagent: false,
  });
  await collect(agent, "", { attachments: [{ kind: "file", path: "/src/app.ts", startLine: 1, endLine: 1 }] });
  const text = (model.requests[0]!.messages.at(-1) as { content: string }).content;
  assert.match(text, /lines="1-1">\n\s+1\texport const answer = 42;/);
  const model2 = new FakeModel([{ text: "ok" }]);
  const agent2 = createAgent({
    model: model2,
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    rules: false,
    generalPurposeSubagent: false,
  });
  await collect(agent2, "check @/.env please");
  const text2 = (model2.requests[0]!.messages.at(-1) as { content: string }).content;
  assert.match(text2, /<file path="\/\.env">\n\(not attached: .*secrets/);
  assert.doesNotMatch(text2, /sk-live-123/);
});
