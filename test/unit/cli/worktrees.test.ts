// Tasks in worktrees from the CLI (issue 20), real git and real processes: two tasks at once,
// each in its worktree, edit the same file differently; the person's working tree is unchanged
// until Apply; Apply of the first succeeds; Apply of the second names the conflicting file and
// changes nothing (exit 3); Discard removes worktree and branch; an untracked file and a staged
// change of the person's survive everything; a task killed with SIGKILL is listed and discardable;
// a sandboxed command of a worktree task works in its worktree and cannot write the person's folder.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sandboxUnavailable } from "../../../src/core/executor/sandbox";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type StaticTurn,
} from "../../support/scriptedModelServer";

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "src/cli/main.ts");
const home = mkdtempSync(path.join(tmpdir(), "fathom-wtcli-home-"));
let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer([]);
});
after(() => server.close());

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });

function fathom(
  args: string[],
  o: { onSpawn?: (pid: number) => void } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: path.join(home, "data"),
      XDG_CONFIG_HOME: path.join(home, "config"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  o.onSpawn?.(child.pid!);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** Answers each task from its own script, chosen by a word of its prompt, step by step. */
function scripted(scripts: Record<string, StaticTurn[]>): (request: RecordedRequest) => StaticTurn {
  return (request) => {
    const messages = request.body.messages as { role: string; content: unknown }[];
    const prompt = JSON.stringify(messages.find((m) => m.role === "user")?.content ?? "");
    const key = Object.keys(scripts).find((k) => prompt.includes(k))!;
    return scripts[key]![messages.filter((m) => m.role === "assistant").length] ?? { text: "Done." };
  };
}

const editTo = (value: string): StaticTurn[] => [
  { toolCalls: [{ id: `r-${value}`, name: "read_file", arguments: { file_path: "/app.ts" } }] },
  {
    toolCalls: [
      {
        id: `e-${value}`,
        name: "edit_file",
        arguments: { file_path: "/app.ts", old_string: "a = 1", new_string: `a = ${value}` },
      },
    ],
  },
  { text: `Set a to ${value}.` },
];

const status = (dir: string) => git(dir, "status", "--porcelain=v1", "--untracked-files=all");

test(
  "two tasks in their worktrees at once: apply one, the other is refused, discard, SIGKILL",
  { timeout: 180_000 },
  async () => {
    const repo = mkdtempSync(path.join(tmpdir(), "fathom-wtcli-repo-"));
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(path.join(repo, "app.ts"), "export const a = 1;\n");
    writeFileSync(path.join(repo, "other.ts"), "export const b = 2;\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "init");
    writeFileSync(path.join(repo, "notes.txt"), "the person's notes\n");
    writeFileSync(path.join(repo, "other.ts"), "export const b = 3;\n");
    git(repo, "add", "other.ts");
    const before = status(repo);

    // Three requests per task (read, edit, answer), whichever task asks first.
    for (let i = 0; i < 6; i++) server.push(scripted({ "set ten": editTo("10"), "set twenty": editTo("20") }));
    const run = (prompt: string, name?: string) =>
      fathom([
        "run",
        "--yes",
        "--json",
        "--no-sandbox",
        "--provider",
        "openai-compatible",
        "--base-url",
        server.baseUrlOpenAI,
        "--cwd",
        repo,
        "--worktree",
        ...(name ? [name] : []),
        prompt,
      ]);
    const [ten, twenty] = await Promise.all([run("set ten", "ten"), run("set twenty")]);
    assert.equal(ten.code, 0, ten.stderr);
    assert.equal(twenty.code, 0, twenty.stderr);
    const doneOf = (out: string) =>
      out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; taskId?: string; worktree?: string; branch?: string })
        .find((e) => e.type === "done")!;
    const a = doneOf(ten.stdout);
    const b = doneOf(twenty.stdout);
    assert.equal(a.branch, "fathom/ten");
    assert.equal(b.branch, "fathom/set-twenty");
    assert.ok(a.worktree && !a.worktree.startsWith(repo), a.worktree);
    assert.equal(readFileSync(path.join(a.worktree, "app.ts"), "utf8"), "export const a = 10;\n");
    assert.equal(readFileSync(path.join(b.worktree!, "app.ts"), "utf8"), "export const a = 20;\n");
    assert.equal(status(repo), before, "the person's working tree and index are untouched until Apply");
    assert.equal(server.pending(), 0);
    assert.equal(git(repo, "branch", "--show-current"), "main\n");

    const listed = await fathom(["worktrees", "--cwd", repo, "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    const { worktrees } = JSON.parse(listed.stdout) as {
      worktrees: { taskId: string; branch: string; state: string; filesChanged: number; path: string }[];
    };
    assert.deepEqual(
      worktrees.map((w) => [w.taskId, w.branch, w.state, w.filesChanged]).sort(),
      [
        [a.taskId, "fathom/ten", "done", 1],
        [b.taskId, "fathom/set-twenty", "done", 1],
      ].sort(),
    );
    const human = await fathom(["worktrees", "--cwd", repo]);
    assert.match(human.stdout, new RegExp(`${a.taskId}  fathom/ten  done  1 file changed  ${a.worktree}`));

    const applied = await fathom(["apply", a.taskId!, "--cwd", repo]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /Applied 1 file .*app\.ts/);
    assert.equal(readFileSync(path.join(repo, "app.ts"), "utf8"), "export const a = 10;\n");
    const afterApply = status(repo);
    const refused = await fathom(["apply", b.taskId!, "--cwd", repo]);
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /nothing was changed.*app\.ts/);
    assert.equal(status(repo), afterApply);
    assert.equal(readFileSync(path.join(repo, "app.ts"), "utf8"), "export const a = 10;\n");

    const discarded = await fathom(["discard", b.taskId!, "--cwd", repo]);
    assert.equal(discarded.code, 0, discarded.stderr);
    assert.equal(existsSync(b.worktree!), false);
    assert.equal(git(repo, "branch", "--list", "fathom/set-twenty"), "");
    const unknown = await fathom(["discard", b.taskId!, "--cwd", repo]);
    assert.equal(unknown.code, 2);

    // Killed mid-way (its model never answers): listed as interrupted, and discardable.
    server.push(() => new Promise<StaticTurn>(() => undefined));
    let pid = 0;
    const killed = fathom(
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
        repo,
        "--worktree",
        "hang forever",
      ],
      { onSpawn: (p) => (pid = p) },
    );
    const seen = server.requests.length;
    for (let i = 0; i < 300 && server.requests.length === seen; i++) await new Promise((r) => setTimeout(r, 100));
    const running = JSON.parse((await fathom(["worktrees", "--cwd", repo, "--json"])).stdout) as {
      worktrees: { taskId: string; branch: string; state: string }[];
    };
    assert.equal(running.worktrees.find((w) => w.branch === "fathom/hang-forever")?.state, "running");
    process.kill(pid, "SIGKILL");
    assert.equal((await killed).signal, "SIGKILL");
    const after = JSON.parse((await fathom(["worktrees", "--cwd", repo, "--json"])).stdout) as {
      worktrees: { taskId: string; branch: string; state: string; path: string }[];
    };
    const hung = after.worktrees.find((w) => w.branch === "fathom/hang-forever")!;
    assert.equal(hung.state, "interrupted");
    assert.equal((await fathom(["discard", hung.taskId, "--cwd", repo])).code, 0);
    assert.equal(existsSync(hung.path), false);

    // The person's untracked file and staged change came through all of it.
    assert.equal(readFileSync(path.join(repo, "notes.txt"), "utf8"), "the person's notes\n");
    assert.equal(git(repo, "diff", "--cached", "--name-only"), "other.ts\n");
    assert.equal(git(repo, "show", ":other.ts"), "export const b = 3;\n");
  },
);

test("--worktree where git cannot have one says why (exit 2)", { timeout: 60_000 }, async () => {
  const plain = mkdtempSync(path.join(tmpdir(), "fathom-wtcli-plain-"));
  const r = await fathom([
    "run",
    "--yes",
    "--no-sandbox",
    "--provider",
    "openai-compatible",
    "--base-url",
    server.baseUrlOpenAI,
    "--cwd",
    plain,
    "--worktree",
    "do it",
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not in a git repository.*Run without --worktree/);
  const list = await fathom(["worktrees", "--cwd", plain]);
  assert.equal(list.code, 2);
  assert.match(list.stderr, /not in a git repository/);
});

test("--worktree [NAME]: a name only when a prompt follows it", async () => {
  const { parseCli } = await import("../../../src/cli/main");
  const env = { OPENAI_API_KEY: "k" };
  const parse = (...args: string[]) => {
    const o = parseCli(["run", ...args], env, ROOT);
    assert.ok(o !== "help");
    return { worktree: o.worktree, prompt: o.prompt, model: o.model };
  };
  assert.deepEqual(parse("--worktree", "fix the bug", "--model", "m"), {
    worktree: {},
    prompt: "fix the bug",
    model: "m",
  });
  assert.deepEqual(parse("--worktree", "login", "fix the bug"), {
    worktree: { name: "login" },
    prompt: "fix the bug",
    model: "",
  });
  assert.deepEqual(parse("--worktree=login", "fix it"), { worktree: { name: "login" }, prompt: "fix it", model: "" });
  assert.deepEqual(parse("--model", "m", "--worktree", "fix it"), { worktree: {}, prompt: "fix it", model: "m" });
  assert.equal(parse("fix it").worktree, undefined);
  assert.throws(() => parseCli(["run", "--worktree", "--task", "x", "go"], env, ROOT), /leave out --worktree/);
});

const noSandbox = process.platform === "linux" ? sandboxUnavailable() : "not Linux";

test(
  "a sandboxed command of a worktree task reads and writes its worktree, and only that",
  { skip: noSandbox ? `the OS sandbox is not available here: ${noSandbox}` : false, timeout: 120_000 },
  async () => {
    const repo = mkdtempSync(path.join(tmpdir(), "fathom-wtcli-sbx-"));
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(path.join(repo, "app.ts"), "export const a = 1;\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "init");
    server.push(
      { toolCalls: [{ id: "x1", name: "execute", arguments: { command: "cat app.ts > copy.txt && cat copy.txt" } }] },
      {
        toolCalls: [
          { id: "x2", name: "execute", arguments: { command: `echo escaped > ${path.join(repo, "escaped.txt")}` } },
        ],
      },
      { text: "Copied." },
    );
    assert.equal(server.pending(), 3, "only this test's turns are queued");
    const r = await fathom([
      "run",
      "--yes",
      "--json",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.baseUrlOpenAI,
      "--cwd",
      repo,
      "--worktree",
      "copy app",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout
      .trim()
      .split("\n")
      .map(
        (l) => JSON.parse(l) as { type: string; worktree?: string; result?: { content?: string }; toolCallId?: string },
      );
    const worktree = events.find((e) => e.type === "done")!.worktree!;
    assert.equal(readFileSync(path.join(worktree, "copy.txt"), "utf8"), "export const a = 1;\n");
    assert.equal(
      existsSync(path.join(repo, "escaped.txt")),
      false,
      "the person's folder is not writable from a worktree task",
    );
    assert.equal(existsSync(path.join(repo, "copy.txt")), false);
  },
);
