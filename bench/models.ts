// Issue 15: what tools cost a model that gets them in the prompt (text mode) beside the
// native tools field; how fast the adapters' shared stream handling and the text tool-call
// reader are; and how long listing an Ollama server's models takes (tags plus one /api/show
// per model), all against the scripted server.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../src/core/agent/createAgent";
import { toolSpecOf } from "../src/core/tools/jsonSchema";
import { FilesystemBackend } from "../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../src/core/executor/childProcessExecutor";
import { createModel } from "../src/core/model/createModel";
import { listModels } from "../src/core/model/listModels";
import { extractTextToolCalls, textToolPrompt } from "../src/core/model/toolCalls/textToolCalls";
import { startScriptedModelServer } from "../test/support/scriptedModelServer";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runModelsBench(): Promise<void> {
  console.log("\n## Models (issue 15)");
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-models-bench-"));
  const server = await startScriptedModelServer();
  try {
    // The built-in tools, as the native field and as the text-mode prompt section.
    const agent = createAgent({
      model: createModel({ provider: "openai-compatible", model: "m", baseUrl: server.baseUrlOpenAI }),
      workspaceRoot: dir,
      backend: new FilesystemBackend({ rootDir: dir }),
      executor: new ChildProcessExecutor(),
    });
    const specs = agent.tools.map(toolSpecOf);
    const native = JSON.stringify(
      specs.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    ).length;
    console.log(
      `  built-in tools (${specs.length}): native tools field ${native.toLocaleString()} characters, text-mode prompt section ${textToolPrompt(specs).length.toLocaleString()} characters`,
    );

    // Reading calls out of a long answer: about 40 KB of prose with two calls in it.
    const known = new Set(specs.map((t) => t.name));
    const prose = "The function lowercases the title and replaces runs of other characters. ".repeat(270);
    const answer = `${prose}\n<tool_call>{"name": "read_file", "arguments": {"file_path": "/src/a.ts"}}</tool_call>\n${prose}\n\`\`\`json\n{"name": "ls", "arguments": {"path": "/"}}\n\`\`\``;
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      extractTextToolCalls(answer, known);
      times.push(performance.now() - t);
    }
    console.log(
      `  extractTextToolCalls on a ${(answer.length / 1024).toFixed(0)} KB answer: ${(median(times) * 1000).toFixed(0)} µs (median of 200)`,
    );

    // One streamed turn of 4,000 text deltas through the real openai client and the TurnAccumulator.
    const model = createModel({ provider: "openai-compatible", model: "m", baseUrl: server.baseUrlOpenAI });
    const streamTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      server.push({ text: "abcdefgh".repeat(4_000) });
      const t = performance.now();
      let deltas = 0;
      for await (const ev of model.stream({ system: "s", messages: [{ role: "user", content: "go" }], tools: [] }))
        if (ev.type === "text_delta") deltas++;
      streamTimes.push((performance.now() - t) / deltas);
    }
    console.log(
      `  a streamed turn through the openai client and the accumulator: ${(median(streamTimes) * 1000).toFixed(0)} µs per delta (local server, median of 5 turns)`,
    );

    // Listing an Ollama server with 40 models.
    server.dialect = {
      lists: {
        ollama: Array.from({ length: 40 }, (_, i) => ({
          id: `model-${i}:7b`,
          contextLength: 8192 * (1 + (i % 4)),
          capabilities: ["completion", ...(i % 2 ? ["tools"] : [])],
        })),
      },
    };
    const listTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const list = await listModels({ provider: "openai-compatible", baseUrl: server.baseUrlOpenAI });
      if (list.models.length !== 40) throw new Error(`listed ${list.models.length}`);
      listTimes.push(performance.now() - t);
    }
    console.log(
      `  listModels on an Ollama server with 40 models (tags + 40 /api/show, 4 at a time): ${median(listTimes).toFixed(0)} ms (median of 5)`,
    );
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
