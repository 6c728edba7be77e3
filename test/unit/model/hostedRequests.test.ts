// Capable hosted models are not touched by the small-model work (issue 33): for OpenAI,
// Anthropic and a large OpenAI-compatible model, every request body of a short task (a tool call,
// its result, an answer) is byte for byte what Fathom sent before constrained mode existed. The
// fixture was written by this test on the code before that change; FATHOM_UPDATE_FIXTURES=1
// writes it again (only do that on purpose: the point is that it does not move). Written again
// once, for issue 32: ask_user and web_fetch joined every request with the "Asking" section of
// the system prompt, and nothing else moved (checked when it was rewritten). Written again for
// issue 40: tool descriptions in fewer words and the "Asking" section folded into ask_user's
// description (468 characters less per request); apart from descriptions and the system prompt,
// nothing moved (checked).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel, type Provider } from "../../../src/core/model/createModel";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect } from "../../support/agentTestKit";

const FIXTURE = path.join(import.meta.dirname, "..", "..", "fixtures", "requests", "hosted-requests.json");
const servers: ScriptedModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

const CASES: { provider: Provider; model: string }[] = [
  { provider: "openai", model: "gpt-4.1" },
  { provider: "anthropic", model: "claude-sonnet-4-6" },
  { provider: "openai-compatible", model: "qwen2.5-coder:14b" },
];

/** The parts of a body that depend on the machine, the day or the temp folder. */
function normalized(rawBody: string, workspace: string): string {
  return rawBody
    .split(JSON.stringify(workspace).slice(1, -1))
    .join("{{workspace}}")
    .replace(
      /- OS: [^"\\]*?; shell: [^"\\]*?; date: \d{4}-\d{2}-\d{2}/g,
      "- OS: {{os}}; shell: {{shell}}; date: {{date}}",
    );
}

async function bodiesFor(provider: Provider, model: string): Promise<string[]> {
  const server = await startScriptedModelServer([
    { toolCalls: [{ id: "call_1", name: "read_file", arguments: { file_path: "/notes.txt" } }] },
    { text: "The notes say hi." },
  ]);
  servers.push(server);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-hosted-"));
  fs.writeFileSync(path.join(workspace, "notes.txt"), "hi\n");
  const agent = createAgent({
    model: createModel({
      provider,
      model,
      baseUrl: provider === "anthropic" ? server.baseUrlAnthropic : server.baseUrlOpenAI,
      apiKey: "sk-test-key-123456",
      retryBaseDelayMs: 1,
    }),
    workspaceRoot: workspace,
    backend: new FilesystemBackend({ rootDir: workspace }),
    executor: new ChildProcessExecutor(),
    rules: false,
  });
  const { done } = await collect(agent, "What do my notes say?");
  assert.equal(done.reason, "completed", done.message);
  return server.requests.map((r) => normalized(r.rawBody, workspace));
}

test("hosted models' request bodies are byte-identical to the ones sent before the small-model profile and constrained mode", async () => {
  const now: Record<string, string[]> = {};
  for (const { provider, model } of CASES) now[`${provider} ${model}`] = await bodiesFor(provider, model);
  if (process.env.FATHOM_UPDATE_FIXTURES === "1") {
    fs.mkdirSync(path.dirname(FIXTURE), { recursive: true });
    fs.writeFileSync(FIXTURE, `${JSON.stringify(now, null, 1)}\n`);
  }
  const before = JSON.parse(fs.readFileSync(FIXTURE, "utf8")) as Record<string, string[]>;
  assert.deepEqual(Object.keys(now), Object.keys(before));
  for (const key of Object.keys(before)) {
    assert.equal(now[key]!.length, before[key]!.length, `${key}: as many requests`);
    now[key]!.forEach((body, i) => assert.equal(body, before[key]![i], `${key}: request ${i + 1} is byte-identical`));
  }
});
