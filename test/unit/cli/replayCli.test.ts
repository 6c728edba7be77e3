// `fathom run --record FILE` / `--replay FILE` as a child process: record against the scripted
// model server, replay with no server and no key, and a replay that diverges.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { cliEnv, runCli, type CliRun } from "../../support/cliProcess";

const KEY = "sk-record-SECRET-0123456789abcdef";
const servers: ScriptedModelServer[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cli = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> => runCli(args, cliEnv(extraEnv));

function workspace(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-rec-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "notes.txt"), text);
  return dir;
}

async function recordOne(): Promise<{ file: string; ws: string }> {
  const server = await startScriptedModelServer([
    { toolCalls: [{ name: "read_file", arguments: { file_path: "/notes.txt" } }] },
    {
      toolCalls: [
        { name: "edit_file", arguments: { file_path: "/notes.txt", old_string: "draft", new_string: "final" } },
      ],
    },
    { text: "Marked it final." },
  ]);
  servers.push(server);
  const ws = workspace("status: draft\n");
  const file = path.join(ws, "..", `${path.basename(ws)}.jsonl`);
  dirs.push(file);
  const run = await cli(
    [
      "run",
      "--cwd",
      ws,
      "--provider",
      "openai",
      "--base-url",
      server.baseUrlOpenAI,
      "--model",
      "gpt-4.1",
      "--yes",
      "--no-sandbox",
      "--record",
      file,
      "mark the notes final",
    ],
    { OPENAI_API_KEY: KEY },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /Recorded 3 model requests to .*\.jsonl \(no keys or auth headers\)/);
  await server.close();
  return { file, ws };
}

test("run --record writes the session without the key; --replay plays it with no key and no server", async () => {
  const { file } = await recordOne();
  const text = readFileSync(file, "utf8");
  assert.ok(!text.includes(KEY));
  assert.ok(!/authorization/i.test(text));
  const header = JSON.parse(text.split("\n")[0]!) as Record<string, unknown>;
  assert.deepEqual(
    [header.provider, header.model, header.prompt, header.options],
    ["openai", "gpt-4.1", "mark the notes final", { yes: true, sandbox: false }],
  );

  const ws = workspace("status: draft\n");
  const run = await cli(["run", "--cwd", ws, "--yes", "--no-sandbox", "--json", "--replay", file]);
  assert.equal(run.code, 0, run.stderr);
  const done = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; reason?: string; finalText?: string; state?: { costUsd: number } })
    .at(-1)!;
  assert.equal(done.type, "done");
  assert.equal(done.finalText, "Marked it final.");
  // Cost from the recorded usage and the model table.
  assert.ok(done.state!.costUsd > 0);
  assert.equal(readFileSync(path.join(ws, "notes.txt"), "utf8"), "status: final\n");
});

test("a replay that leaves the recording exits 1 with the first difference", async () => {
  const { file } = await recordOne();
  const ws = workspace("status: done\n");
  const run = await cli(["run", "--cwd", ws, "--yes", "--no-sandbox", "--replay", file]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /The replay left the recording at model request 2 \(closest recorded request: #2 of 3\):\n {2}at message 3: read_file's result differs\n {4}- {6}1\tstatus: draft\n {4}\+ {6}1\tstatus: done/,
  );
  assert.match(run.stderr, /The recording was made with \{"yes":true,"sandbox":false\}/);
  assert.equal(
    readFileSync(path.join(ws, "notes.txt"), "utf8"),
    "status: done\n",
    "nothing was written after the divergence",
  );

  const json = await cli(["run", "--cwd", ws, "--yes", "--no-sandbox", "--json", "--replay", file]);
  const diverged = json.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; request?: number; what?: string })
    .find((e) => e.type === "replay_diverged");
  assert.deepEqual([diverged?.request, diverged?.what], [2, "read_file's result differs"]);
});

test("--record and --replay usage errors say what to do", async () => {
  const both = await cli(["run", "--record", "a.jsonl", "--replay", "b.jsonl", "x"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /Use --record or --replay, not both/);
  const missing = await cli(["run", "--replay", "/nonexistent/session.jsonl"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--replay: cannot read the recording \/nonexistent\/session\.jsonl/);
  const { file } = await recordOne();
  const wrong = await cli(["run", "--replay", file, "--provider", "anthropic"]);
  assert.equal(wrong.code, 2);
  assert.match(
    wrong.stderr,
    /--provider anthropic: the recording was made with openai, and a replay answers as that model\. Leave --provider out\./,
  );
});
