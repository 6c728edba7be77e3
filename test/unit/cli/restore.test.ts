// Checkpoints in the CLI (issue 13): `fathom run` saves its task and gives its id (in --json's
// done event), `fathom tasks` lists its checkpoints, `fathom restore` takes back only Fathom's
// changes (a file the person changed since is a conflict, left alone; an untracked file is never
// deleted), refuses without a terminal or --yes, and --conversation lets `run --task` continue
// from the checkpoint. Nothing is written into the workspace.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "src/cli/main.ts");
const home = mkdtempSync(path.join(tmpdir(), "fathom-restore-home-"));
let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer([]);
});
after(() => server.close());

function fathom(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: path.join(home, "data"),
      XDG_CONFIG_HOME: path.join(home, "config"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const run = (ws: string, prompt: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  fathom(
    [
      "run",
      "--yes",
      "--json",
      "--no-sandbox",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.baseUrlOpenAI,
      "--cwd",
      ws,
      ...extra,
      prompt,
    ],
    env,
  );

function taskIdOf(stdout: string): string {
  const done = stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; taskId?: string })
    .find((e) => e.type === "done");
  assert.ok(done?.taskId, stdout);
  return done.taskId;
}

test(
  "run, tasks, restore: only Fathom's changes are taken back; a conflict is left alone",
  { timeout: 120_000 },
  async () => {
    const ws = mkdtempSync(path.join(tmpdir(), "fathom-restore-ws-"));
    writeFileSync(path.join(ws, "a.txt"), "the person's a\n");
    writeFileSync(path.join(ws, "b.txt"), "the person's b\n");
    writeFileSync(path.join(ws, "untracked.log"), "keep me\n");
    const before = readdirSync(ws).sort();
    server.push(
      {
        toolCalls: [
          { id: "r1", name: "read_file", arguments: { file_path: "/a.txt" } },
          { id: "r2", name: "read_file", arguments: { file_path: "/b.txt" } },
        ],
      },
      {
        toolCalls: [
          { id: "w1", name: "write_file", arguments: { file_path: "/new/c.txt", content: "created by Fathom\n" } },
        ],
      },
      {
        toolCalls: [
          {
            id: "e1",
            name: "edit_file",
            arguments: { file_path: "/a.txt", old_string: "person's a", new_string: "agent's a" },
          },
        ],
      },
      {
        toolCalls: [
          {
            id: "e2",
            name: "edit_file",
            arguments: { file_path: "/b.txt", old_string: "person's b", new_string: "agent's b" },
          },
        ],
      },
      { toolCalls: [{ id: "x1", name: "execute", arguments: { command: "echo made > by-command.txt" } }] },
      { text: "Done." },
    );
    const first = await run(ws, "change things");
    assert.equal(first.code, 0, first.stderr);
    const id = taskIdOf(first.stdout);
    assert.equal(readFileSync(path.join(ws, "a.txt"), "utf8"), "the agent's a\n");
    // Nothing of Fathom's in the workspace: only what the task itself made.
    assert.deepEqual(readdirSync(ws).sort(), [...before, "by-command.txt", "new"].sort());

    const listed = await fathom(["tasks", "--cwd", ws, "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    const { tasks, storageBytes } = JSON.parse(listed.stdout) as {
      tasks: { id: string; title: string; checkpoints: { n: number; kind: string; filesChangedAfter: string[] }[] }[];
      storageBytes: number;
    };
    assert.equal(tasks[0]!.id, id);
    assert.equal(tasks[0]!.title, "change things");
    assert.deepEqual(
      tasks[0]!.checkpoints.map((c) => c.kind),
      ["message", "write", "write", "write"],
    );
    assert.deepEqual(tasks[0]!.checkpoints[0]!.filesChangedAfter.sort(), ["/a.txt", "/b.txt", "/new/c.txt"]);
    assert.ok(storageBytes > 0);
    const human = await fathom(["tasks", "--cwd", ws]);
    assert.match(
      human.stdout,
      new RegExp(
        `${id}.*"change things"[\\s\\S]*0  before the task[\\s\\S]*before: Changed /a.txt[\\s\\S]*Storage used: `,
      ),
    );

    // The person changes b.txt after Fathom did.
    writeFileSync(path.join(ws, "b.txt"), "the person's later b\n");
    const refused = await fathom(["restore", id, "--cwd", ws]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /nothing was changed: no one is at a terminal.*--yes/);
    assert.equal(readFileSync(path.join(ws, "a.txt"), "utf8"), "the agent's a\n");

    const restored = await fathom(["restore", id, "--to", "0", "--files", "--cwd", ws, "--yes"]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stderr, /\/b\.txt: conflict, left as it is \(changed after Fathom's last change\)/);
    assert.match(restored.stderr, /not restored, a command's changes: echo made > by-command.txt/);
    assert.equal(readFileSync(path.join(ws, "a.txt"), "utf8"), "the person's a\n");
    assert.equal(readFileSync(path.join(ws, "b.txt"), "utf8"), "the person's later b\n");
    assert.ok(!existsSync(path.join(ws, "new", "c.txt")), "the file Fathom created is gone");
    assert.equal(readFileSync(path.join(ws, "untracked.log"), "utf8"), "keep me\n");
    assert.ok(existsSync(path.join(ws, "by-command.txt")), "a command's file is not Fathom's to delete");
    assert.match(restored.stdout, /restored \/a\.txt[\s\S]*left as it is \/b\.txt/);
  },
);

test("--conversation takes the conversation back; run --task continues from there", { timeout: 120_000 }, async () => {
  const ws = mkdtempSync(path.join(tmpdir(), "fathom-restore-ws-"));
  server.push({ text: "First answer." });
  const id = taskIdOf((await run(ws, "first question")).stdout);
  server.push({ text: "Second answer." });
  assert.equal(taskIdOf((await run(ws, "second question", ["--task", id])).stdout), id);
  const asked = server.requests.length;
  assert.match(
    JSON.stringify(server.requests[asked - 1]!.body.messages),
    /first question[\s\S]*First answer[\s\S]*second question/,
  );
  const back = await fathom(["restore", id, "--to", "2", "--conversation", "--cwd", ws, "--yes"]);
  assert.equal(back.code, 0, back.stderr);
  assert.match(back.stdout, /conversation back to 2 messages/);
  server.push({ text: "Third answer." });
  await run(ws, "another second question", ["--task", id]);
  const messages = JSON.stringify(server.requests.at(-1)!.body.messages);
  assert.match(messages, /first question[\s\S]*First answer[\s\S]*another second question/);
  assert.doesNotMatch(messages, /Second answer/);
  const bad = await fathom(["restore", id, "--to", "9", "--cwd", ws, "--yes"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /has no checkpoint 9/);
});

/** Every file under `dir` with its bytes and mtime. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .sort()
    .map((rel) => {
      const st = statSync(path.join(dir, rel));
      return `${rel} ${st.mtimeMs} ${st.isDirectory() ? "dir" : readFileSync(path.join(dir, rel), "base64")}`;
    });
}

test(
  "in a repository with a nested repository: no git command runs, neither .git changes, nothing is added",
  { timeout: 120_000 },
  async () => {
    const ws = mkdtempSync(path.join(tmpdir(), "fathom-restore-git-"));
    for (const repo of [ws, path.join(ws, "packages", "lib")]) {
      mkdirSync(path.join(repo, ".git", "refs", "heads"), { recursive: true });
      writeFileSync(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(path.join(repo, ".git", "index"), "DIRC");
    }
    writeFileSync(path.join(ws, "packages", "lib", "index.ts"), "export const v = 1;\n");
    // A git that records being run: the first on PATH.
    const bin = mkdtempSync(path.join(tmpdir(), "fathom-fake-git-"));
    const ran = path.join(bin, "ran.txt");
    writeFileSync(path.join(bin, "git"), `#!/bin/sh\necho "git $*" >> "${ran}"\nexit 1\n`);
    chmodSync(path.join(bin, "git"), 0o755);
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` };
    const gitBefore = [tree(path.join(ws, ".git")), tree(path.join(ws, "packages", "lib", ".git"))];
    server.push(
      { toolCalls: [{ id: "r1", name: "read_file", arguments: { file_path: "/packages/lib/index.ts" } }] },
      {
        toolCalls: [
          {
            id: "e1",
            name: "edit_file",
            arguments: { file_path: "/packages/lib/index.ts", old_string: "v = 1", new_string: "v = 2" },
          },
        ],
      },
      {
        toolCalls: [
          { id: "w1", name: "write_file", arguments: { file_path: "/packages/lib/added.ts", content: "export {};\n" } },
        ],
      },
      { text: "Done." },
    );
    const first = await run(ws, "bump lib", [], env);
    assert.equal(first.code, 0, first.stderr);
    const id = taskIdOf(first.stdout);
    assert.equal(readFileSync(path.join(ws, "packages", "lib", "index.ts"), "utf8"), "export const v = 2;\n");
    const listed = await fathom(["tasks", "--cwd", ws], env);
    assert.equal(listed.code, 0, listed.stderr);
    const back = await fathom(["restore", id, "--to", "0", "--cwd", ws, "--yes"], env);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(readFileSync(path.join(ws, "packages", "lib", "index.ts"), "utf8"), "export const v = 1;\n");
    assert.ok(!existsSync(path.join(ws, "packages", "lib", "added.ts")));
    assert.ok(!existsSync(ran), `git ran: ${existsSync(ran) ? readFileSync(ran, "utf8") : ""}`);
    assert.deepEqual([tree(path.join(ws, ".git")), tree(path.join(ws, "packages", "lib", ".git"))], gitBefore);
    assert.deepEqual(
      readdirSync(ws, { recursive: true })
        .map(String)
        .filter((f) => !f.includes(".git"))
        .sort(),
      ["packages", path.join("packages", "lib"), path.join("packages", "lib", "index.ts")],
    );
  },
);
