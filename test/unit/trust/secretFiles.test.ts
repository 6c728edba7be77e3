// Issue 11, finding 9 (files): reading a file that usually holds credentials is asked even when
// reads are auto-approved, grep leaves such files out, and ordinary reads stay unasked.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ApprovalRequest } from "../../../src/core/approval";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { secretFileMatcher } from "../../../src/core/trust/secretFiles";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";
import { makeSandbox } from "../backends/helpers";

describe("the secret-file list", () => {
  const isSecret = secretFileMatcher();
  const secret = [
    "/.env",
    "/.env.local",
    "/app/.env.production",
    "/certs/server.pem",
    "/tls.key",
    "/home/id_rsa",
    "/keys/id_ed25519",
    "/.npmrc",
    "/.netrc",
    "/.git-credentials",
    "/config/credentials.json",
    "/.git/config",
    "/sub/.git/config",
    "/prod.tfvars",
    "/.ENV",
  ];
  const plain = [
    "/src/app.ts",
    "/.env.example",
    "/.env.sample",
    "/keys/id_ed25519.pub",
    "/README.md",
    "/src/keyboard.ts",
    "/environment.ts",
    "/docs/env.md",
    "/.gitignore",
  ];
  for (const p of secret) it(`asks for ${p}`, () => assert.ok(isSecret(p), p));
  for (const p of plain) it(`does not ask for ${p}`, () => assert.equal(isSecret(p), undefined, p));
  it("the person's settings add files and exempt built-ins; later lines win", () => {
    const custom = secretFileMatcher(["*.secret.json", "!.env.test"]);
    assert.ok(custom("/config/db.secret.json"));
    assert.equal(custom("/.env.test"), undefined);
    assert.ok(custom("/.env"));
  });
});

describe("reads of secret files go to the person", () => {
  const s = makeSandbox({
    ".env": "API_TOKEN=CANARY-SECRET\n",
    "src/app.ts": "export const token = process.env.API_TOKEN;\n",
  });
  after(s.cleanup);

  it("read_file of .env is asked although reads are auto-approved; src is not", async () => {
    const asked: ApprovalRequest[] = [];
    const model = new FakeModel([
      { toolCalls: [{ name: "read_file", arguments: { file_path: "/src/app.ts" } }] },
      { toolCalls: [{ name: "read_file", arguments: { file_path: "/.env" } }] },
      { text: "done" },
    ]);
    const agent = createAgent({
      model,
      workspaceRoot: s.root,
      backend: new FilesystemBackend({ rootDir: s.root }),
      approvalPolicy: { read: "auto" },
      approvalGate: { request: async (r) => (asked.push(r), { type: "reject", reason: "no" }) },
      rules: false,
    });
    await collect(agent, "read things");
    assert.deepEqual(
      asked.map((r) => r.args.file_path),
      ["/.env"],
    );
    assert.match(asked[0]!.reason ?? "", /may hold secrets \(matches \.env\)/);
    assert.doesNotMatch(JSON.stringify(model.requests.at(-1)!.messages), /CANARY-SECRET/);
  });

  it("grep leaves secret files out and says so", async () => {
    const model = new FakeModel([
      { toolCalls: [{ name: "grep", arguments: { pattern: "API_TOKEN", output_mode: "content" } }] },
      { text: "done" },
    ]);
    await collect(
      createAgent({ model, workspaceRoot: s.root, backend: new FilesystemBackend({ rootDir: s.root }), rules: false }),
      "find the token",
    );
    const result = JSON.stringify(model.requests[1]!.messages.at(-1));
    assert.doesNotMatch(result, /CANARY-SECRET/);
    assert.match(result, /src\/app\.ts/);
    assert.match(result, /1 secret file such as \/\.env left out/);
  });
});
