// `fathom run --plan` / `--act`, ask_user and steering, as a child process against the scripted model server.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { NO_ONE_CAN_ANSWER } from "../../../src/core/question";
import { runCli } from "../../support/cliProcess";

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "src/cli/main.ts");
const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const dataHome = mkdtempSync(path.join(tmpdir(), "fathom-cli-data-"));
function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    OPENAI_API_KEY: "sk-test-0123456789",
    FATHOM_RETRY_BASE_DELAY_MS: "1",
    XDG_DATA_HOME: dataHome,
  };
  delete e.ANTHROPIC_API_KEY;
  return e;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  return runCli([...args], env());
}

/** The CLI on a pseudo-terminal (util-linux `script`): `type(text)` is what a person types. */
function cliOnTerminal(args: string[]) {
  const command = [process.execPath, "--import", "tsx", MAIN, ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: ROOT,
    env: env(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    for (const w of [...waiters]) {
      if (!w.pattern.test(output)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    output: () => output,
    type: (text: string) => child.stdin.write(text),
    seen: (pattern: RegExp) =>
      new Promise<void>((resolve) => (pattern.test(output) ? resolve() : waiters.push({ pattern, resolve }))),
    done,
  };
}

async function server(turns: ScriptedTurn[]) {
  const s = await startScriptedModelServer(turns);
  servers.push(s);
  return s;
}

const workspace = () => mkdtempSync(path.join(tmpdir(), "fathom-cli-"));
const toolNames = (request: { body: { tools?: { function: { name: string } }[] } }) =>
  (request.body.tools ?? []).map((t) => t.function.name);
const PLAN =
  "## Goal\nA greeting file.\n## Steps\n1. Write hello.txt\n2. Check it\n## Files\n- hello.txt\n## Risks\n- none";

test("--plan lists only read-only tools, refuses a made-up write, prints the plan and exits 0; --task ID --act starts it", async () => {
  const dir = workspace();
  const s = await server([
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/hello.txt", content: "hi" } }] },
    { text: PLAN },
    { toolCalls: [{ name: "write_file", arguments: { file_path: "/hello.txt", content: "hi\n" } }] },
    { text: "Done." },
  ]);
  const planned = await cli(["run", "--plan", "--json", "--base-url", s.baseUrlOpenAI, "--cwd", dir, "add a greeting"]);
  assert.equal(planned.code, 0, planned.stderr);
  const tools = toolNames(s.requests[0]!);
  assert.ok(tools.includes("read_file") && tools.includes("ask_user"));
  for (const name of ["write_file", "edit_file", "execute"])
    assert.ok(!tools.includes(name), `${name} offered in plan mode`);
  assert.equal(existsSync(path.join(dir, "hello.txt")), false);
  const refused = (s.requests[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "tool")!;
  assert.match(refused.content, /Not run: the task is in Plan mode/);
  const events = planned.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; taskId?: string; text?: string });
  const plan = events.find((e) => e.type === "plan")!;
  assert.equal(plan.text, PLAN);
  assert.ok(plan.taskId);
  assert.equal(events.at(-1)!.type, "done");

  const acted = await cli([
    "run",
    "--task",
    plan.taskId!,
    "--act",
    "--yes",
    "--no-sandbox",
    "--base-url",
    s.baseUrlOpenAI,
    "--cwd",
    dir,
  ]);
  assert.equal(acted.code, 0, acted.stderr);
  assert.ok(toolNames(s.requests[2]!).includes("write_file"));
  const messages = s.requests[2]!.body.messages as { role: string; content: string }[];
  assert.ok(messages.at(-1)!.content.includes(PLAN), "the plan is in the request's context");
  assert.match(acted.stderr, /\[ \] Write hello\.txt/);
  assert.equal(existsSync(path.join(dir, "hello.txt")), true);
});

test("--act without --task, and --plan with --act, are usage errors", async () => {
  assert.equal((await cli(["run", "--act", "x"])).code, 2);
  const both = await cli(["run", "--plan", "--act", "--task", "t", "x"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /not both/);
});

test("ask_user with no terminal: the model is told no one can answer", async () => {
  const s = await server([
    { toolCalls: [{ name: "ask_user", arguments: { question: "Which one?", choices: ["A", "B"] } }] },
    { text: "Chose A (assumed)." },
  ]);
  const run = await cli(["run", "--base-url", s.baseUrlOpenAI, "--cwd", workspace(), "pick"]);
  assert.equal(run.code, 0, run.stderr);
  const result = (s.requests[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "tool")!;
  assert.equal(result.content, NO_ONE_CAN_ANSWER);
});

test(
  "ask_user at a terminal: the question and its choices are shown, a number picks one",
  { skip: !existsSync("/usr/bin/script") && "needs util-linux script" },
  async () => {
    const s = await server([
      {
        toolCalls: [
          {
            name: "ask_user",
            arguments: { question: "Which database?", choices: ["Postgres", "SQLite"], allow_free_text: false },
          },
        ],
      },
      { text: "SQLite it is." },
    ]);
    const run = cliOnTerminal(["run", "--base-url", s.baseUrlOpenAI, "--cwd", workspace(), "add a database"]);
    await run.seen(/Pick 1-2: /);
    assert.match(run.output(), /The agent asks: Which database\?\s+1\. Postgres\s+2\. SQLite/);
    run.type("2\r");
    assert.equal(await run.done, 0, run.output());
    const result = (s.requests[1]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    )!;
    assert.equal(result.content, "The person answered: SQLite");
  },
);

test(
  "steering at a terminal: a line typed while a command runs reaches the next request",
  { skip: !existsSync("/usr/bin/script") && "needs util-linux script" },
  async () => {
    const s = await server([
      { toolCalls: [{ name: "execute", arguments: { command: "sleep 2" } }] },
      { text: "Using tabs." },
    ]);
    const run = cliOnTerminal([
      "run",
      "--yes",
      "--no-sandbox",
      "--base-url",
      s.baseUrlOpenAI,
      "--cwd",
      workspace(),
      "format it",
    ]);
    await run.seen(/Type a message/);
    while (s.requests.length < 1) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 700));
    run.type("use tabs, not spaces\r");
    assert.equal(await run.done, 0, run.output());
    const messages = s.requests[1]!.body.messages as { role: string; content: string }[];
    assert.deepEqual(
      messages.slice(-2).map((m) => m.role),
      ["tool", "user"],
    );
    assert.equal(messages.at(-1)!.content, "use tabs, not spaces");
    assert.match(run.output(), /your message reached the agent: use tabs/);
  },
);

test("web_fetch: --allow-domain 127.0.0.1 reads a page served on loopback; without it, no terminal means it is not fetched", async () => {
  const { createServer } = await import("node:http");
  const page = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      "<html><head><title>Local docs</title></head><body><h1>Hello page</h1><p>Served on loopback.</p></body></html>",
    );
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(page.address() as { port: number }).port}/`;
  try {
    const s = await server([
      { toolCalls: [{ name: "web_fetch", arguments: { url } }] },
      { text: "Read it." },
      { toolCalls: [{ name: "web_fetch", arguments: { url } }] },
      { text: "Could not." },
    ]);
    const allowed = await cli([
      "run",
      "--allow-domain",
      "127.0.0.1",
      "--base-url",
      s.baseUrlOpenAI,
      "--cwd",
      workspace(),
      "read the local docs",
    ]);
    assert.equal(allowed.code, 0, allowed.stderr);
    const read = (s.requests[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "tool")!;
    assert.match(read.content, new RegExp(`^URL: ${url}`));
    assert.match(read.content, /# Hello page/);
    const refused = await cli([
      "run",
      "--yes",
      "--base-url",
      s.baseUrlOpenAI,
      "--cwd",
      workspace(),
      "read the local docs",
    ]);
    assert.equal(refused.code, 0, refused.stderr);
    const result = (s.requests[3]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === "tool",
    )!;
    assert.match(result.content, /No one is at a terminal to allow this domain.*--allow-domain/);
  } finally {
    page.close();
  }
});
