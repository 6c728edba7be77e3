// Checkpoints work the same whatever the workspace is (issue 13, item 1): a git repository with
// a nested repository (neither .git is read or written; nothing is added to the workspace), a
// multi-root workspace (two folders with the same relative paths, routed as VS Code's are), and
// parallel subagents (each write's checkpoint names the call that made it).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CompositeBackend } from "../../../src/core/backends/composite";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { createAgent } from "../../../src/core/agent/createAgent";
import { CheckpointStore } from "../../../src/core/checkpoints/checkpointStore";
import { CheckpointingBackend } from "../../../src/core/checkpoints/checkpointingBackend";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

/** Every file and folder under `dir` with its bytes and mtime: any change shows. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const full = path.join(dir, rel);
    const st = statSync(full);
    out.set(rel, st.isDirectory() ? `dir ${st.mtimeMs}` : `${st.mtimeMs} ${readFileSync(full, "base64")}`);
  }
  return out;
}

/** A .git folder as git leaves it (enough to be one; no git runs here). */
function fakeGitDir(at: string): void {
  mkdirSync(path.join(at, ".git", "objects", "ab"), { recursive: true });
  mkdirSync(path.join(at, ".git", "refs", "heads"), { recursive: true });
  writeFileSync(path.join(at, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(path.join(at, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n");
  writeFileSync(path.join(at, ".git", "index"), Buffer.from([0x44, 0x49, 0x52, 0x43, 0, 0, 0, 2]));
  writeFileSync(path.join(at, ".git", "objects", "ab", "cdef"), Buffer.from([0x78, 0x01, 0x2b]));
}

describe("checkpoints in any workspace", () => {
  it("a repository with a nested repository: restores only Fathom's files, never touches either .git, adds nothing", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "fathom-cpw-repo-"));
    fakeGitDir(root);
    mkdirSync(path.join(root, "vendor", "lib"), { recursive: true });
    fakeGitDir(path.join(root, "vendor", "lib"));
    writeFileSync(path.join(root, "app.ts"), "export const app = 1;\n");
    writeFileSync(path.join(root, "vendor", "lib", "index.ts"), "export const lib = 1;\n");
    writeFileSync(path.join(root, "vendor", "lib", "untracked.tmp"), "the person's scratch\n");
    const gitBefore = tree(path.join(root, ".git"));
    const nestedGitBefore = tree(path.join(root, "vendor", "lib", ".git"));
    const store = new CheckpointStore({ dir: mkdtempSync(path.join(tmpdir(), "fathom-cpw-store-")) });
    const inner = new FilesystemBackend({ rootDir: root, ripgrepPath: null });
    const agent = new CheckpointingBackend(inner, store, "t", { conversationLength: 0 });
    await store.checkpoint("t", { kind: "message", label: "change both repos", conversationLength: 0 });
    await inner.read("/app.ts");
    await inner.read("/vendor/lib/index.ts");
    assert.equal((await agent.edit("/app.ts", "app = 1", "app = 2")).error, undefined);
    assert.equal((await agent.edit("/vendor/lib/index.ts", "lib = 1", "lib = 2")).error, undefined);
    assert.equal((await agent.write("/vendor/lib/added.ts", "export {};\n")).error, undefined);
    const filesDuring = readdirSync(root, { recursive: true })
      .map(String)
      .filter((f) => !f.includes(".git"))
      .sort();

    const result = await store.restore(await store.plan("t", 1, inner), inner);
    assert.deepEqual(result.restored.sort(), ["/app.ts", "/vendor/lib/added.ts", "/vendor/lib/index.ts"]);
    assert.equal(readFileSync(path.join(root, "app.ts"), "utf8"), "export const app = 1;\n");
    assert.equal(readFileSync(path.join(root, "vendor", "lib", "index.ts"), "utf8"), "export const lib = 1;\n");
    assert.ok(!existsSync(path.join(root, "vendor", "lib", "added.ts")));
    assert.equal(readFileSync(path.join(root, "vendor", "lib", "untracked.tmp"), "utf8"), "the person's scratch\n");
    assert.deepEqual(tree(path.join(root, ".git")), gitBefore, "the repository's .git is untouched");
    assert.deepEqual(
      tree(path.join(root, "vendor", "lib", ".git")),
      nestedGitBefore,
      "the nested repository's .git is untouched",
    );
    assert.deepEqual(
      readdirSync(root, { recursive: true })
        .map(String)
        .filter((f) => !f.includes(".git"))
        .sort(),
      filesDuring.filter((f) => f !== path.join("vendor", "lib", "added.ts")),
      "nothing of Fathom's was added to the workspace",
    );
  });

  it("a multi-root workspace: the same relative path in two folders are two files, each restored to its own text", async () => {
    const front = mkdtempSync(path.join(tmpdir(), "fathom-cpw-front-"));
    const back = mkdtempSync(path.join(tmpdir(), "fathom-cpw-back-"));
    for (const [dir, name] of [
      [front, "front"],
      [back, "back"],
    ] as const) {
      mkdirSync(path.join(dir, "src"));
      writeFileSync(path.join(dir, "src", "index.ts"), `export const side = "${name}";\n`);
    }
    // As the host routes several folders: /<folder name>/…
    const inner = new CompositeBackend(null, {
      "/front": new FilesystemBackend({ rootDir: front, ripgrepPath: null }),
      "/back": new FilesystemBackend({ rootDir: back, ripgrepPath: null }),
    });
    const store = new CheckpointStore({ dir: mkdtempSync(path.join(tmpdir(), "fathom-cpw-store-")) });
    const agent = new CheckpointingBackend(inner, store, "t", { conversationLength: 0 });
    await store.checkpoint("t", { kind: "message", label: "rename in both", conversationLength: 0 });
    for (const p of ["/front/src/index.ts", "/back/src/index.ts"]) {
      await inner.read(p);
      assert.equal((await agent.edit(p, "side", "where")).error, undefined);
    }
    assert.equal((await agent.write("/back/src/new.ts", "export {};\n")).error, undefined);
    // The person changes the front one afterwards.
    writeFileSync(path.join(front, "src", "index.ts"), `export const where = "front, the person's";\n`);

    const checkpoints = await store.checkpoints("t");
    assert.deepEqual(checkpoints[0]!.files, ["/front/src/index.ts", "/back/src/index.ts", "/back/src/new.ts"]);
    const plan = await store.plan("t", 1, inner);
    assert.deepEqual(
      plan.files.map((f) => [f.path, f.action, f.conflict ?? ""]),
      [
        ["/front/src/index.ts", "write", "changed after Fathom's last change"],
        ["/back/src/index.ts", "write", ""],
        ["/back/src/new.ts", "delete", ""],
      ],
    );
    const result = await store.restore(plan, inner);
    assert.deepEqual(result.restored, ["/back/src/index.ts", "/back/src/new.ts"]);
    assert.deepEqual(
      result.conflicts.map((c) => c.path),
      ["/front/src/index.ts"],
    );
    assert.equal(readFileSync(path.join(back, "src", "index.ts"), "utf8"), `export const side = "back";\n`);
    assert.ok(!existsSync(path.join(back, "src", "new.ts")));
    assert.equal(
      readFileSync(path.join(front, "src", "index.ts"), "utf8"),
      `export const where = "front, the person's";\n`,
    );
    // Overwriting the conflict after a look at it puts the front file back too.
    const again = await store.restore(await store.plan("t", 1, inner), inner, {
      overwrite: new Set(["/front/src/index.ts"]),
    });
    assert.deepEqual(again.restored, ["/front/src/index.ts"]);
    assert.equal(readFileSync(path.join(front, "src", "index.ts"), "utf8"), `export const side = "front";\n`);
  });

  it("parallel subagents: each write's checkpoint names its own call and the task call that ran it", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "fathom-cpw-sub-"));
    const store = new CheckpointStore({ dir: mkdtempSync(path.join(tmpdir(), "fathom-cpw-store-")) });
    const model = new FakeModel([
      {
        toolCalls: [
          { id: "taskA", name: "task", arguments: { description: "write a.txt", subagent_type: "general-purpose" } },
          { id: "taskB", name: "task", arguments: { description: "write b.txt", subagent_type: "general-purpose" } },
        ],
      },
      // Both subagents start before either writes, then write in turn.
      (req) => ({
        delayMs: 20,
        toolCalls: [
          {
            id: `w-${req.messages[0]!.content.slice(-5)}`,
            name: "write_file",
            arguments: { file_path: `/${req.messages[0]!.content.slice(-5)}`, content: "by a subagent\n" },
          },
        ],
      }),
      (req) => ({
        delayMs: 40,
        toolCalls: [
          {
            id: `w-${req.messages[0]!.content.slice(-5)}`,
            name: "write_file",
            arguments: { file_path: `/${req.messages[0]!.content.slice(-5)}`, content: "by a subagent\n" },
          },
        ],
      }),
      { text: "done" },
      { text: "done" },
      { text: "both done" },
    ]);
    const agent = createAgent({
      model,
      workspaceRoot: root,
      rules: false,
      backend: new FilesystemBackend({ rootDir: root, ripgrepPath: null }),
      checkpoints: { store, taskId: "t" },
    });
    const { done } = await collect(agent, "write two files in parallel");
    assert.equal(done.reason, "completed");
    const writes = (await store.checkpoints("t")).filter((c) => c.kind === "write");
    assert.deepEqual(
      writes.map((c) => c.meta).sort((a, b) => String(a!.callId).localeCompare(String(b!.callId))),
      [
        { toolCallId: "taskA", callId: "w-a.txt" },
        { toolCallId: "taskB", callId: "w-b.txt" },
      ],
    );
    // Both at the turn of the task calls: the conversation restored to either ends before it.
    assert.deepEqual(
      writes.map((c) => c.conversationLength),
      [1, 1],
    );
  });
});
