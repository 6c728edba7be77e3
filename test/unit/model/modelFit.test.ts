// Which tool-call mode and profile a model gets when the person has not said (issue 33): by the
// size in its id or its local server's own count (asked once, never of a hosted server), and the
// small profile's tools (MCP ones only through find_tools) as the model sees them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { billionsFromId, decideFit } from "../../../src/core/model/fit/modelFit";
import { isLocalServer, probeFor } from "../../../src/core/model/fit/modelProbe";
import type { ModelFit } from "../../../src/core/model/types";
import { defineTool, type Tool } from "../../../src/core/tools/tool";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

test("parameters from a model's id", () => {
  const cases: [string, number | undefined][] = [
    ["smollm2-135m-instruct", 0.135],
    ["qwen2.5:0.5b", 0.5],
    ["llama3.2:3b", 3],
    ["Qwen/Qwen2.5-Coder-14B-Instruct-GGUF", 14],
    ["mixtral:8x7b", 56],
    ["gemma3n:e2b", 2],
    ["gpt-4.1", undefined],
    ["qwen2.5-coder", undefined],
  ];
  for (const [id, billions] of cases) assert.equal(billionsFromId(id), billions, id);
});

test("decided by size: small → constrained and small; the table's models and big ones as before, their servers not asked", async () => {
  let asked = 0;
  const probe = async () => (asked++, { billions: 1.1, contextWindow: 32_768 });
  const small = await decideFit({ model: "qwen2.5:0.5b" }, {}, probe);
  assert.deepEqual([small.toolCallMode, small.profile], ["constrained", "small"]);
  assert.match(small.reason, /500M parameters \(from its name\)/);
  const hosted = await decideFit({ model: "gpt-4.1" }, {}, probe);
  assert.deepEqual([hosted.toolCallMode, hosted.profile], ["native", "full"]);
  assert.equal(asked, 1, "the table's model asked nothing; the small one only for its context");
  const byServer = await decideFit({ model: "my-local-model" }, {}, probe);
  assert.deepEqual([byServer.toolCallMode, byServer.profile], ["constrained", "small"]);
  assert.match(byServer.reason, /1\.1B parameters \(from its server\)/);
  const bigSmallWindow = await decideFit({ model: "qwen2.5-coder:7b" }, {}, async () => ({ contextWindow: 8_192 }));
  assert.deepEqual(
    [bigSmallWindow.toolCallMode, bigSmallWindow.profile],
    ["native", "small"],
    "a small context window: the small profile, tools as usual",
  );
  const silent = await decideFit({ model: "mystery" }, {}, async () => undefined);
  assert.deepEqual([silent.toolCallMode, silent.profile], ["native", "full"]);
  asked = 0;
  const chosen = await decideFit({ model: "qwen2.5:0.5b" }, { toolCallMode: "native", profile: "full" }, probe);
  assert.deepEqual([chosen.toolCallMode, chosen.profile], ["native", "full"]);
  assert.equal(asked, 0, "chosen by the person: nothing asked");
  assert.match(chosen.reason, /tool calls set to native; profile set to full/);
});

test("the probe: only local servers; llama.cpp's meta and Ollama's /api/show; silence is unknown", async () => {
  assert.equal(isLocalServer("http://127.0.0.1:8080/v1"), true);
  assert.equal(isLocalServer("http://192.168.1.20:11434/v1"), true);
  assert.equal(isLocalServer("https://openrouter.ai/api/v1"), false);
  assert.equal(probeFor("https://api.example.com/v1", "m"), undefined);
  const urls: string[] = [];
  const llama = probeFor("http://127.0.0.1:9/v1", "smollm2", (async (url: string) => {
    urls.push(String(url));
    if (String(url).endsWith("/v1/models"))
      return new Response(JSON.stringify({ data: [{ id: "smollm2", meta: { n_params: 134_515_008, n_ctx: 8192 } }] }));
    return new Response("not found", { status: 404 });
  }) as typeof fetch)!;
  assert.deepEqual(await llama(), { billions: 0.134515008, contextWindow: 8192 });
  assert.deepEqual(urls.sort(), ["http://127.0.0.1:9/api/show", "http://127.0.0.1:9/v1/models"]);
  const ollama = probeFor("http://localhost:11434/v1", "qwen2.5:3b", (async (url: string) =>
    String(url).endsWith("/api/show")
      ? new Response(
          JSON.stringify({
            details: { parameter_size: "3.1B" },
            model_info: { "general.architecture": "qwen2", "qwen2.context_length": 32768 },
          }),
        )
      : new Response("", { status: 404 })) as typeof fetch)!;
  assert.deepEqual(await ollama(), { billions: 3.1, contextWindow: 32768 });
  const down = probeFor("http://127.0.0.1:9/v1", "x", (async () => {
    throw new TypeError("fetch failed");
  }) as typeof fetch)!;
  assert.equal(await down(), undefined);
});

/** A FakeModel that says how it is best driven. */
class FittedModel extends FakeModel {
  constructor(
    private readonly fitted: ModelFit,
    script: ConstructorParameters<typeof FakeModel>[0],
  ) {
    super(script);
  }
  fit(): Promise<ModelFit> {
    return Promise.resolve(this.fitted);
  }
}

const mcpTool = (name: string): Tool =>
  defineTool({
    name,
    description: `MCP tool ${name}.`,
    schema: z.object({ text: z.string() }),
    kind: "other",
    run: async ({ text }) => ({ content: text }),
  }) as unknown as Tool;

test("the small profile offers the core tools and find_tools; MCP tools, even a few, only through it", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-fit-"));
  const tools = [mcpTool("mcp__notes__search"), mcpTool("mcp__notes__add")];
  const run = async (profile: ModelFit["profile"]) => {
    const model = new FittedModel({ toolCallMode: "native", profile, reason: "test" }, [{ text: "hi" }]);
    await collect(
      createAgent({ model, workspaceRoot: dir, backend: new FilesystemBackend({ rootDir: dir }), tools, rules: false }),
      "hello",
    );
    return model.requests[0]!;
  };
  const small = await run("small");
  assert.deepEqual(small.toolNames, ["ls", "read_file", "write_file", "edit_file", "find_tools"]);
  assert.match(small.system, /MCP servers offer more tools, loaded on demand with find_tools: notes \(2\)/);
  assert.ok(small.system.length < 1_000, `a short system prompt (${small.system.length} characters)`);
  const full = await run("full");
  assert.ok(
    full.toolNames.includes("mcp__notes__search") &&
      full.toolNames.includes("grep") &&
      !full.toolNames.includes("find_tools"),
    "few MCP tools go up front in the full profile, as before",
  );
});
