// Issue 11, finding 3: AGENTS.md is written by whoever wrote the repository, so it is read
// through the backend's rules: no link out of the workspace, no pipe or device, a size cap,
// .fathomignore respected; and which file was loaded is reported.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { FakeModel } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";
import { makeSandbox } from "../backends/helpers";

async function systemPromptFor(root: string, withBackend = true) {
  const model = new FakeModel([{ text: "ok" }]);
  const agent = createAgent({
    model,
    workspaceRoot: root,
    ...(withBackend ? { backend: new FilesystemBackend({ rootDir: root, ripgrepPath: null }) } : {}),
  });
  const { events } = await collect(agent, "hi");
  return { system: model.requests[0]!.system, events };
}

describe("AGENTS.md is read like any file the agent reads", () => {
  it("a link to a secret outside the workspace is refused and said so", async () => {
    const s = makeSandbox();
    after(s.cleanup);
    symlinkSync(s.canary, path.join(s.root, "AGENTS.md"));
    for (const withBackend of [true, false]) {
      const { system, events } = await systemPromptFor(s.root, withBackend);
      assert.doesNotMatch(system, /CANARY-SECRET/);
      const warnings = ofType(events, "warning").filter((w) => w.code === "rules");
      assert.match(warnings[0]?.message ?? "", /AGENTS\.md was not loaded: .*outside the workspace/);
      assert.equal(ofType(events, "rules_loaded").length, 0);
    }
  });

  it(
    "a FIFO is refused at once (never waited on), and so is a link to /dev/zero",
    { skip: process.platform === "win32" },
    async () => {
      const s = makeSandbox();
      after(s.cleanup);
      execFileSync("mkfifo", [path.join(s.root, "AGENTS.md")]);
      const started = Date.now();
      const { system, events } = await systemPromptFor(s.root);
      assert.ok(Date.now() - started < 5_000, "waited on the FIFO");
      assert.doesNotMatch(system, /Project rules/);
      assert.match(ofType(events, "warning")[0]?.message ?? "", /not a regular file/);

      const z = makeSandbox();
      after(z.cleanup);
      symlinkSync("/dev/zero", path.join(z.root, "AGENTS.md"));
      const zero = await systemPromptFor(z.root);
      assert.doesNotMatch(zero.system, /Project rules/);
    },
  );

  it("the CLI does not hang on a FIFO AGENTS.md", { skip: process.platform === "win32" }, async () => {
    const s = makeSandbox();
    after(s.cleanup);
    execFileSync("mkfifo", [path.join(s.root, "AGENTS.md")]);
    const { startScriptedModelServer } = await import("../../support/scriptedModelServer");
    const server = await startScriptedModelServer([{ text: "done" }]);
    after(() => server.close());
    const main = path.resolve(__dirname, "../../../src/cli/main.ts");
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        main,
        "run",
        "--provider",
        "openai-compatible",
        "--base-url",
        server.baseUrlOpenAI,
        "--cwd",
        s.root,
        "hi",
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(-1);
      }, 20_000);
      child.on("close", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 0, stderr);
    assert.match(stderr, /AGENTS\.md was not loaded/);
  });

  it("a huge file costs at most the cap; .fathomignore hides it; a normal one is reported", async () => {
    const s = makeSandbox({ "AGENTS.md": "Use tabs.\n" + "x".repeat(5_000_000) });
    after(s.cleanup);
    const big = await systemPromptFor(s.root);
    assert.ok(big.system.length < 40_000, `system prompt is ${big.system.length} characters`);
    assert.match(big.system, /Use tabs\.[\s\S]*\[\.\.\. cut/);

    writeFileSync(path.join(s.root, ".fathomignore"), "AGENTS.md\n");
    const hidden = await systemPromptFor(s.root);
    assert.doesNotMatch(hidden.system, /Project rules/);

    const ok = makeSandbox({ "AGENTS.md": "Run npm test before finishing.\n" });
    after(ok.cleanup);
    mkdirSync(path.join(ok.root, "src"));
    const loaded = await systemPromptFor(ok.root);
    assert.match(loaded.system, /# Project rules \(from \/AGENTS\.md\)\nRun npm test before finishing\./);
    assert.deepEqual(ofType(loaded.events, "rules_loaded"), [{ type: "rules_loaded", files: ["/AGENTS.md"] }]);
  });
});
