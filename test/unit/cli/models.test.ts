// `fathom models` and `fathom run --tools` as child processes against the scripted server.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { cliEnv, runCli, type CliRun } from "../../support/cliProcess";

const KEY = "sk-cli-SECRET-0123456789abcdef";
const servers: ScriptedModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

const cli = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> => runCli(args, cliEnv(extraEnv));

async function server() {
  const s = await startScriptedModelServer();
  servers.push(s);
  return s;
}

test("fathom models prints the provider's models with context window and price", async () => {
  const s = await server();
  s.dialect = { lists: { openai: [{ id: "gpt-4.1" }, { id: "gpt-4.1-mini" }, { id: "local-thing" }] } };
  const run = await cli(["models", "--provider", "openai", "--base-url", s.baseUrlOpenAI], { OPENAI_API_KEY: KEY });
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split("\n");
  assert.match(lines[0]!, /^MODEL\s+CONTEXT\s+\$\/MTOK IN \/ OUT/);
  assert.match(run.stdout, /gpt-4\.1\s+1\.05M\s+\$2\.00 \/ \$8\.00\s+images/);
  assert.match(run.stdout, /gpt-4\.1-mini\s+1\.05M\s+\$0\.4 \/ \$1\.60/);
  assert.match(run.stdout, /local-thing\s+\?\s+\?/);
  // The key went to the server, never to the output.
  assert.equal(s.requests.length, 0, "list requests are not model requests");
  assert.doesNotMatch(run.stdout + run.stderr, /SECRET/);
});

test("fathom models --json, from Ollama's tags", async () => {
  const s = await server();
  s.dialect = {
    lists: { ollama: [{ id: "qwen2.5-coder:14b", contextLength: 32_768, capabilities: ["completion", "tools"] }] },
  };
  const run = await cli(["models", "--provider", "openai-compatible", "--base-url", s.baseUrlOpenAI, "--json"]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    models: [{ id: "qwen2.5-coder:14b", contextWindow: 32_768, images: false, tools: true }],
  });
});

test("fathom models: a server that cannot list says why and what to do (exit 1); usage errors exit 2", async () => {
  const s = await server();
  s.dialect = { lists: { openai: { status: 404 } } };
  const failed = await cli(["models", "--provider", "openai-compatible", "--base-url", s.baseUrlOpenAI]);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /Could not list the models of .* \(404\).*Type a model id instead/);
  const usage = await cli(["models", "--provider", "ollama"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--provider must be one of openai, anthropic, openai-compatible/);
  const vscode = await cli(["models", "--provider", "vscode"]);
  assert.equal(vscode.code, 2);
  assert.match(vscode.stderr, /listed by the Model picker inside VS Code/);
  const noKey = await cli(["models", "--provider", "anthropic"]);
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /Set ANTHROPIC_API_KEY/);
});

test("fathom run --tools text: tools go in the prompt and the calls written as text run", async () => {
  const s = await server();
  s.push(
    { text: '<tool_call>{"name": "write_file", "arguments": {"file_path": "/a.txt", "content": "A"}}</tool_call>' },
    { text: "Wrote a.txt." },
  );
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-cli-models-"));
  const run = await cli([
    "run",
    "--cwd",
    dir,
    "--provider",
    "openai-compatible",
    "--base-url",
    s.baseUrlOpenAI,
    "--model",
    "tiny",
    "--tools",
    "text",
    "--context-window",
    "8192",
    "--yes",
    "--no-sandbox",
    "write a",
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(path.join(dir, "a.txt"), "utf8"), "A");
  assert.equal(s.requests[0]!.body.tools, undefined);
  assert.match(run.stderr, /warning: Ran write_file, written as text by tiny/);
  const bad = await cli(["run", "--tools", "maybe", "x"], { OPENAI_API_KEY: KEY });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--tools must be native, text, none or constrained/);
});

test("fathom run with a small model: constrained tool calls and the small profile by default, said on stderr; --tools and --profile choose otherwise", async () => {
  const s = await server();
  s.push(
    { text: '{"tool": "write_file", "arguments": {"file_path": "/a.txt", "content": "A"}}' },
    { text: '{"tool": "answer", "arguments": {"text": "Wrote a.txt."}}' },
  );
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-cli-constrained-"));
  const run = await cli([
    "run",
    "--cwd",
    dir,
    "--provider",
    "openai-compatible",
    "--base-url",
    s.baseUrlOpenAI,
    "--model",
    "qwen2.5:0.5b",
    "--yes",
    "--no-sandbox",
    "write a",
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(path.join(dir, "a.txt"), "utf8"), "A");
  assert.match(
    run.stderr,
    /fathom: small profile, constrained tool calls \(qwen2\.5:0\.5b: 500M parameters \(from its name\).*Choose otherwise with --tools and --profile/,
  );
  assert.match(run.stdout, /Wrote a\.txt\./);
  assert.equal(s.requests[0]!.body.response_format.json_schema.strict, true);
  // Chosen by the person: native tools and the full profile, nothing said.
  s.push({ text: "hi" });
  const chosen = await cli([
    "run",
    "--cwd",
    dir,
    "--provider",
    "openai-compatible",
    "--base-url",
    s.baseUrlOpenAI,
    "--model",
    "qwen2.5:0.5b",
    "--tools",
    "native",
    "--profile",
    "full",
    "hello",
  ]);
  assert.equal(chosen.code, 0, chosen.stderr);
  assert.doesNotMatch(chosen.stderr, /profile/);
  assert.ok(s.requests[2]!.body.tools.length >= 9);
  for (const [flag, value, message] of [
    ["--profile", "tiny", /--profile must be small or full/],
    ["--temperature", "hot", /--temperature must be a number from 0 to 2/],
    ["--seed", "1.5", /--seed must be a whole number/],
  ] as const) {
    const bad = await cli(["run", flag, value, "x"], { OPENAI_API_KEY: KEY });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, message);
  }
});
