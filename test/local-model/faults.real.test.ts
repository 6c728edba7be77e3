// When the local model goes wrong: `npm run local-model` itself (prints the URL and id, stops
// with its starter, a taken port, a damaged model file, a half-installed cache), and Fathom's CLI
// against a server that is not there, one killed mid-answer, and one whose context is too small.
// Each: a clear error saying what to do, nothing written, the task resumable.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { AgentEvent } from "../../src/core/run/events";
import { cliEnv, repoRoot, runCli } from "./cliRun";
import { assertEndedCleanly } from "./invariants";
import { freePort, installLocalModel, installScript, startLocalModel, type LocalModelInstall } from "./localModel";
import { snapshot, writeWorkspace } from "./tasks";

let install: LocalModelInstall;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-real-faults-"));
before(async () => {
  install = await installLocalModel();
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Done = Extract<AgentEvent, { type: "done" }>;
const doneOf = (events: AgentEvent[]) => events.find((e): e is Done => e.type === "done");
const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
    socket.on("error", () => resolve(false));
  });

function workspace(): { dir: string; dataHome: string } {
  const dir = fs.mkdtempSync(path.join(tmp, "ws-"));
  writeWorkspace(dir, { "README.md": "# demo\n" });
  return { dir, dataHome: fs.mkdtempSync(path.join(tmp, "data-")) };
}

function cliArgs(url: string, dir: string, prompt: string, extra: string[] = []): string[] {
  return [
    "run",
    "--json",
    "--provider",
    "openai-compatible",
    "--base-url",
    url,
    "--model",
    "smollm2-135m-instruct",
    "--max-steps",
    "3",
    "--cwd",
    dir,
    ...extra,
    prompt,
  ];
}

/** `npm run local-model`'s script, with a pipe on stdin (as a program starts it). */
function startScript(env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "test/local-model/start.ts")], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test(
  "npm run local-model prints the URL and model id on lines of their own, serves them, and stops when its starter goes away",
  { timeout: 180_000 },
  async () => {
    const port = await freePort();
    const script = startScript({ FATHOM_LOCAL_MODEL_PORT: String(port) });
    const url = await waitFor("the URL line", () => /^FATHOM_LOCAL_MODEL_URL=(.+)$/m.exec(script.out())?.[1], 90_000);
    assert.equal(url, `http://127.0.0.1:${port}/v1`);
    assert.match(script.out(), /^FATHOM_LOCAL_MODEL_ID=smollm2-135m-instruct$/m);
    const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
    assert.ok(
      models.data.some((m) => m.id === "smollm2-135m-instruct"),
      "the server answers with the model id printed",
    );
    // The starter goes away: our end of its stdin closes.
    script.child.stdin.end();
    assert.equal(await script.exited, 0);
    await waitFor("the server to stop listening", async () => !(await portOpen(port)), 15_000).catch(() => undefined);
    assert.equal(await portOpen(port), false, "llama-server stopped with it");
  },
);

test("npm run local-model stops on Ctrl+C (SIGINT), and the server with it", { timeout: 120_000 }, async () => {
  const script = startScript();
  const url = await waitFor("the URL line", () => /^FATHOM_LOCAL_MODEL_URL=(.+)$/m.exec(script.out())?.[1], 90_000);
  const port = Number(new URL(url).port);
  script.child.kill("SIGINT");
  assert.equal(await script.exited, 0);
  assert.equal(await portOpen(port), false, "llama-server stopped with it");
});

test("npm run local-model with FATHOM_LOCAL_MODEL_PORT taken says so and what to do", { timeout: 60_000 }, async () => {
  const blocker = net.createServer().listen(0, "127.0.0.1");
  await new Promise((r) => blocker.once("listening", r));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const script = startScript({ FATHOM_LOCAL_MODEL_PORT: String(port) });
    assert.equal(await script.exited, 2);
    assert.match(
      script.err(),
      new RegExp(
        `127\\.0\\.0\\.1:${port} \\(FATHOM_LOCAL_MODEL_PORT\\) is already in use: .*pick another port.*unset FATHOM_LOCAL_MODEL_PORT`,
      ),
    );
    assert.doesNotMatch(script.out(), /FATHOM_LOCAL_MODEL_URL/);
  } finally {
    blocker.close();
  }
});

test(
  "a damaged (truncated) model file: the server does not start, the error says to delete it and install again",
  { timeout: 60_000 },
  async () => {
    const truncated = path.join(tmp, "model", "SmolLM2-135M-Instruct.Q4_1.gguf");
    fs.mkdirSync(path.dirname(truncated), { recursive: true });
    const fd = fs.openSync(install.model, "r");
    const head = Buffer.alloc(40 << 20);
    fs.readSync(fd, head, 0, head.length, 0);
    fs.closeSync(fd);
    fs.writeFileSync(truncated, head);
    await assert.rejects(startLocalModel({ install: { server: install.server, model: truncated } }), (error: Error) => {
      assert.match(
        error.message,
        /could not load the model .*damaged \(truncated\?\)\. Delete .* and run `npm run local-model` again/,
      );
      return true;
    });
  },
);

test("a half-installed or damaged cache is never taken for a complete one", () => {
  const cache = fs.mkdtempSync(path.join(tmp, "cache-"));
  const check = () =>
    spawnSync("bash", [installScript, "--check"], { env: { ...process.env, FATHOM_CACHE: cache } }).status;
  const serverDir = path.join(cache, "llama-server-0.3.36");
  const modelDir = path.join(cache, "smollm2-135m-instruct-q4_1");
  fs.mkdirSync(path.join(serverDir, "bin"), { recursive: true });
  fs.copyFileSync(install.server, path.join(serverDir, "bin", "llama-server"));
  fs.mkdirSync(modelDir, { recursive: true });
  fs.copyFileSync(install.model, path.join(modelDir, "SmolLM2-135M-Instruct.Q4_1.gguf"));
  assert.equal(check(), 1, "no .complete markers: not installed");
  fs.writeFileSync(path.join(serverDir, ".complete"), "");
  fs.writeFileSync(path.join(modelDir, ".complete"), "");
  assert.equal(check(), 0, "both parts complete");
  fs.truncateSync(path.join(modelDir, "SmolLM2-135M-Instruct.Q4_1.gguf"), 1 << 20);
  assert.equal(check(), 1, "a truncated model is not complete, marker or not");
});

test(
  "Fathom's CLI against a local server that is not running: a clear error naming what to do, nothing written, the task resumable",
  { timeout: 60_000 },
  async () => {
    const { dir, dataHome } = workspace();
    const before = snapshot(dir);
    const port = await freePort();
    const run = await runCli(cliArgs(`http://127.0.0.1:${port}/v1`, dir, "hello"), {
      env: cliEnv(dataHome, { FATHOM_RETRY_BASE_DELAY_MS: "1" }),
      timeoutMs: 50_000,
    });
    assert.equal(run.code, 1);
    const done = doneOf(run.events);
    assertEndedCleanly(done, run.events, 3, run.stderr);
    assert.equal(done.reason, "error");
    assert.match(
      done.message ?? "",
      new RegExp(`Could not get an answer from http://127\\.0\\.0\\.1:${port}/v1.*that the server is running`),
    );
    assert.deepEqual(snapshot(dir), before, "nothing written");
  },
);

test(
  "llama-server killed mid-answer: the CLI stops with a clear error, nothing written; once it is back, the task continues",
  { timeout: 480_000 },
  async () => {
    const port = await freePort();
    let server = await startLocalModel({ install, port, maxTokens: 2000 });
    const { dir, dataHome } = workspace();
    const before = snapshot(dir);
    try {
      const env = cliEnv(dataHome, { FATHOM_RETRY_BASE_DELAY_MS: "1" });
      let streaming = false;
      const running = runCli(
        cliArgs(server.url, dir, "Write a long story about the sea, at least 400 words. Do not use any tool."),
        {
          env,
          timeoutMs: 240_000,
          onStdout: (out) => (streaming ||= out.includes('"type":"text_delta"')),
        },
      );
      // Kill it once the answer is streaming.
      await waitFor("the answer to stream", () => streaming, 200_000);
      process.kill(-server.process.pid!, "SIGKILL");
      const run = await running;
      assert.equal(run.code, 1, run.stderr);
      const done = doneOf(run.events);
      assertEndedCleanly(done, run.events, 3, run.stderr);
      assert.equal(done.reason, "error");
      assert.match(done.message ?? "", /server is running|broke off|ended before/i, done.message);
      assert.deepEqual(snapshot(dir), before, "nothing written");
      const taskId = (done as unknown as { taskId: string }).taskId;

      server = await startLocalModel({ install, port, maxTokens: 64 });
      const resumed = await runCli(
        [
          "run",
          "--json",
          "--task",
          taskId,
          "--provider",
          "openai-compatible",
          "--base-url",
          server.url,
          "--model",
          "smollm2-135m-instruct",
          "--max-steps",
          "3",
          "--cwd",
          dir,
          "Now just say hello.",
        ],
        { env, timeoutMs: 240_000 },
      );
      const again = doneOf(resumed.events);
      assertEndedCleanly(again, resumed.events, 6, resumed.stderr);
      assert.ok(
        again.state.messages.some((m) => m.role === "user" && m.content.includes("long story about the sea")),
        "the continued task holds the first message",
      );
    } finally {
      await server.stop();
    }
  },
);

test(
  "a request over the server's context: a clear error naming what to do, nothing written",
  { timeout: 120_000 },
  async () => {
    // Smaller than even the small profile's "hello" (about 460 tokens).
    const server = await startLocalModel({ install, contextSize: 256, maxTokens: 32 });
    const { dir, dataHome } = workspace();
    const before = snapshot(dir);
    try {
      const run = await runCli(cliArgs(server.url, dir, "hello"), {
        env: cliEnv(dataHome, { FATHOM_RETRY_BASE_DELAY_MS: "1" }),
        timeoutMs: 90_000,
      });
      assert.equal(run.code, 1);
      const done = doneOf(run.events);
      assertEndedCleanly(done, run.events, 3, run.stderr);
      assert.equal(done.reason, "error");
      assert.match(done.message ?? "", /context/i);
      assert.match(done.message ?? "", /larger context|new task/i, done.message);
      assert.deepEqual(snapshot(dir), before, "nothing written");
    } finally {
      await server.stop();
    }
  },
);
