// The CLI as a child process against the scripted model server.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedModelServer,
  faults,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { assertWellFormed } from "../../support/fakeModel";
import type { AgentEvent } from "../../../src/core/run/events";

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "src/cli/main.ts");
const KEY = "sk-cli-SECRET-0123456789abcdef";
const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FATHOM_RETRY_BASE_DELAY_MS: "1", ...extra };
  if (!("OPENAI_API_KEY" in extra)) delete env.OPENAI_API_KEY;
  if (!("ANTHROPIC_API_KEY" in extra)) delete env.ANTHROPIC_API_KEY;
  return env;
}

function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, done, output: () => stdout + stderr };
}

const cli = (args: string[], env = cleanEnv({ OPENAI_API_KEY: KEY })) => startCli(args, env).done;

async function server(turns: ScriptedTurn[]) {
  const s = await startScriptedModelServer(turns);
  servers.push(s);
  return s;
}

const workspace = () => mkdtempSync(path.join(tmpdir(), "fathom-cli-"));

function events(stdout: string): AgentEvent[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AgentEvent);
}

test("exit 2 for usage errors, with a message saying what to do", async () => {
  const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [[], cleanEnv({ OPENAI_API_KEY: KEY }), /Missing command/],
    [["walk", "x"], cleanEnv({ OPENAI_API_KEY: KEY }), /Unknown command "walk"/],
    [["run"], cleanEnv({ OPENAI_API_KEY: KEY }), /Missing the prompt/],
    [["run", "--provider", "bard", "x"], cleanEnv({ OPENAI_API_KEY: KEY }), /--provider must be one of/],
    [["run", "--max-steps", "0", "x"], cleanEnv({ OPENAI_API_KEY: KEY }), /--max-steps must be/],
    [
      ["run", "--approvals", "yolo", "x"],
      cleanEnv({ OPENAI_API_KEY: KEY }),
      /--approvals must be one of ask, editsAuto, autopilot \(got "yolo"\)/,
    ],
    [["run", "--cwd", "/nonexistent/dir", "x"], cleanEnv({ OPENAI_API_KEY: KEY }), /is not a directory/],
    [["run", "--bogus", "x"], cleanEnv({ OPENAI_API_KEY: KEY }), /Unknown option '--bogus'/],
    [["run", "x"], cleanEnv(), /Set OPENAI_API_KEY/],
    [["run", "--provider", "anthropic", "x"], cleanEnv({ OPENAI_API_KEY: KEY }), /Set ANTHROPIC_API_KEY/],
    [
      ["run", "--file", "a.ts:9-3", "x"],
      cleanEnv({ OPENAI_API_KEY: KEY }),
      /--file a\.ts:9-3: lines are 1-based and the end may not come before the start/,
    ],
    [["run", "--file", ":3", "x"], cleanEnv({ OPENAI_API_KEY: KEY }), /--file needs a path/],
  ];
  await Promise.all(
    cases.map(async ([args, env, message]) => {
      const run = await cli(args, env);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }),
  );
  const help = await cli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: fathom run/);
});

test("exit 0: --yes writes and runs; --json prints one event per line; every call has one result", async () => {
  const dir = workspace();
  const s = await server([
    {
      toolCalls: [
        { name: "write_file", arguments: { file_path: "/a.txt", content: "A\n" } },
        { name: "execute", arguments: { command: "cat a.txt" } },
      ],
    },
    { text: "All done." },
  ]);
  const run = await cli([
    "run",
    "--yes",
    "--json",
    "--provider",
    "openai",
    "--base-url",
    s.baseUrlOpenAI,
    "--cwd",
    dir,
    "make a",
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(path.join(dir, "a.txt"), "utf8"), "A\n");
  const evs = events(run.stdout);
  const done = evs.at(-1)!;
  assert.equal(done.type, "done");
  if (done.type !== "done") return;
  assert.equal(done.reason, "completed");
  assert.equal(done.finalText, "All done.");
  assertWellFormed(done.state.messages);
  assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
  assert.equal(s.requests[0]!.headers.authorization, `Bearer ${KEY}`);
});

test("--file attaches a range with its line numbers and a whole file to the first request; a secret file is not attached", async () => {
  const dir = workspace();
  writeFileSync(
    path.join(dir, "a.ts"),
    Array.from({ length: 9 }, (_, i) => `export const v${i + 1} = ${i + 1};`).join("\n") + "\n",
  );
  writeFileSync(path.join(dir, "b.md"), "# B notes\n");
  writeFileSync(path.join(dir, ".env"), "TOKEN=hunter2\n");
  const s = await server([{ text: "Seen." }]);
  const run = await cli([
    "run",
    "--provider",
    "openai",
    "--base-url",
    s.baseUrlOpenAI,
    "--cwd",
    dir,
    "--file",
    "a.ts:3-4",
    "--file",
    "./b.md",
    "--file",
    ".env",
    "explain",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const sent = JSON.stringify(s.requests[0]!.body);
  assert.match(sent, /explain/);
  assert.match(
    sent,
    /<file path=\\"\/a\.ts\\" lines=\\"3-4\\">\\n\s+3\\texport const v3 = 3;\\n\s+4\\texport const v4 = 4;/,
  );
  assert.doesNotMatch(sent, /v2 = 2|v5 = 5/, "only the range");
  assert.match(sent, /<file path=\\"\/b\.md\\">\\n\s+1\\t# B notes/);
  assert.match(sent, /not attached: \/\.env may hold secrets/);
  assert.doesNotMatch(sent, /hunter2/);
});

test("exit 0 with anthropic: the answer streams to stdout, activity to stderr", async () => {
  const dir = workspace();
  writeFileSync(path.join(dir, "notes.md"), "hello\n");
  const s = await server([
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/notes.md" } }] },
    { text: "The notes say hello." },
  ]);
  const run = await cli(
    ["run", "--provider", "anthropic", "--base-url", s.baseUrlAnthropic, "--cwd", dir, "read notes"],
    cleanEnv({ ANTHROPIC_API_KEY: KEY }),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "The notes say hello.\n");
  assert.match(run.stderr, /✓ read_file \/notes\.md/);
  assert.match(run.stderr, /\(completed: 2 steps/);
});

test("no TTY and no --yes: writes and commands are rejected with a reason; nothing is written", async () => {
  const dir = workspace();
  const s = await server([
    {
      toolCalls: [
        { name: "write_file", arguments: { file_path: "/b.txt", content: "B" } },
        { name: "execute", arguments: { command: "touch c.txt" } },
      ],
    },
    { text: "I could not write." },
  ]);
  const run = await cli(["run", "--base-url", s.baseUrlOpenAI, "--cwd", dir, "make b"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(existsSync(path.join(dir, "b.txt")), false);
  assert.equal(existsSync(path.join(dir, "c.txt")), false);
  assert.match(run.stderr, /rejected write_file: No one is at a terminal/);
  const toolMessages = (s.requests[1]!.body.messages as { role: string; content: string }[]).filter(
    (m) => m.role === "tool",
  );
  assert.match(toolMessages[0]!.content, /rerun fathom with --yes/);
});

test("--approvals editsAuto writes unasked and still asks for commands; autopilot without the sandbox says so and is editsAuto", async () => {
  for (const level of ["editsAuto", "autopilot"]) {
    const dir = workspace();
    const s = await server([
      {
        toolCalls: [
          { name: "write_file", arguments: { file_path: "/b.txt", content: "B" } },
          { name: "execute", arguments: { command: "touch c.txt" } },
        ],
      },
      { text: "Wrote b." },
    ]);
    const run = await cli([
      "run",
      "--approvals",
      level,
      "--no-sandbox",
      "--base-url",
      s.baseUrlOpenAI,
      "--cwd",
      dir,
      "b",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(path.join(dir, "b.txt"), "utf8"), "B", level);
    assert.equal(existsSync(path.join(dir, "c.txt")), false, level);
    assert.match(run.stderr, /rejected execute: No one is at a terminal/);
    const fallback = run.stderr.split("\n").filter((line) => line.includes("Autopilot runs commands unasked only"));
    assert.equal(fallback.length, level === "autopilot" ? 1 : 0, run.stderr);
    if (level === "autopilot") assert.match(fallback[0]!, /turned off \(--no-sandbox\)/);
  }
});

test("exit 1: a refused key ends with a readable error and never prints the key", async () => {
  const s = await server([faults.unauthorized()]);
  const run = await cli(["run", "--base-url", s.baseUrlOpenAI, "--cwd", workspace(), "hi"]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /error: .*(key|401)/i);
  assert.ok(!run.stdout.includes(KEY) && !run.stderr.includes(KEY));
});

test("exit 1: an unreachable server is reported once, with the flag to fix", async () => {
  // A port that was just free: nothing listens there.
  const s = await startScriptedModelServer([]);
  const url = s.baseUrlOpenAI;
  await s.close();
  const run = await cli(
    ["run", "--provider", "openai-compatible", "--base-url", url, "--cwd", workspace(), "hi"],
    cleanEnv({ FATHOM_RETRY_BASE_DELAY_MS: "1" }),
  );
  assert.equal(run.code, 1, run.stderr);
  const mentions = run.stderr.split("\n").filter((line) => line.includes("Could not get an answer"));
  assert.equal(mentions.length, 1, run.stderr);
  assert.match(mentions[0]!, /--base-url/);
  assert.doesNotMatch(run.stderr, /fathom\.baseUrl/);
});

test("--json: a usage error is a JSON event on stdout as well", async () => {
  const run = await cli(["run", "--json", "--max-steps", "zero", "x"]);
  assert.equal(run.code, 2);
  assert.deepEqual(events(run.stdout), [
    { type: "error", kind: "usage", message: '--max-steps must be a whole number from 1 to 10000 (got "zero").' },
  ]);
});

test("exit 1 at the step limit; a server error then success recovers", async () => {
  const s = await server([
    faults.serverError(503),
    { toolCalls: [{ name: "ls", arguments: { path: "/" } }] },
    { toolCalls: [{ name: "ls", arguments: { path: "/" } }] },
  ]);
  const run = await cli(["run", "--max-steps", "2", "--base-url", s.baseUrlOpenAI, "--cwd", workspace(), "loop"]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /step limit/);
});

// Outside the sandbox: inside it the command sees its own PID namespace, so its pid means nothing here.
test(
  "exit 130: Ctrl+C during a long execute kills the command's process tree",
  { skip: process.platform === "win32" },
  async () => {
    const dir = workspace();
    const pidFile = path.join(dir, "grandchild.pid");
    const s = await server([
      { toolCalls: [{ name: "execute", arguments: { command: `sh -c 'echo $$ > ${pidFile}; exec sleep 60'` } }] },
      { text: "never" },
    ]);
    const { child, done } = startCli(
      ["run", "--yes", "--no-sandbox", "--base-url", s.baseUrlOpenAI, "--cwd", dir, "wait"],
      cleanEnv({ OPENAI_API_KEY: KEY }),
    );
    const deadline = Date.now() + 15_000;
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") {
      if (Date.now() > deadline) throw new Error("the command never started");
      await new Promise((r) => setTimeout(r, 50));
    }
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    child.kill("SIGINT");
    const run = await done;
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stderr, /Cancelling/);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(isRunning(pid), false, "the grandchild survived");
    assert.equal(s.requests.length, 1);
  },
);

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return true;
  }
}
