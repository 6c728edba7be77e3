// A small local model's answer that loops ("of the launch of the launch …" until the token limit), replayed
// from the real-model suite's recording (SmolLM2-135M-Instruct on llama-server, the "read" task)
// through the real OpenAI client: the stream is stopped as soon as the loop is plain, the task
// ends as a repetition with a message saying so, and the history keeps the answer without the loop.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { findRunaway } from "../../../src/core/model/runawayOutput";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { createModel } from "../../../src/core/model/createModel";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect } from "../../support/agentTestKit";

const recorded = JSON.parse(
  readFileSync(path.join(__dirname, "../../fixtures/local-model/runaway-answer.json"), "utf8"),
) as { content: string; prompt: string }[];

/** The recorded answer (cut where Fathom stopped it), continued as the greedy server would have: the same loop. */
function asTheServerWouldHaveContinued(text: string): string {
  const loop = findRunaway(text);
  assert.ok(loop, "the recording ends in a loop");
  return text + loop.unit.repeat(Math.ceil(1200 / loop.unit.length));
}
const servers: ScriptedModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

test("the recorded looping answer is stopped early; the task ends as a repetition, the loop left out of the history", async () => {
  const answer = { ...recorded[0]!, content: asTheServerWouldHaveContinued(recorded[0]!.content) };
  const server = await startScriptedModelServer([{ text: answer.content, chunkDelayMs: 2 }]);
  servers.push(server);
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-runaway-"));
  const agent = createAgent({
    model: createModel({
      provider: "openai-compatible",
      model: "smollm2-135m-instruct",
      override: { tools: "native" },
      baseUrl: server.baseUrlOpenAI,
      retryBaseDelayMs: 1,
    }),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
  });
  const { events, done } = await collect(agent, answer.prompt);
  assert.equal(done.reason, "repetition");
  assert.match(done.message ?? "", /went into a loop.*stopped/);
  const streamed = events
    .filter((e) => e.type === "text_delta")
    .map((e) => (e as { text: string }).text)
    .join("");
  assert.ok(
    streamed.length < answer.content.length,
    `stopped before the end (${streamed.length} of ${answer.content.length} characters)`,
  );
  assert.equal(server.requests[0]!.lastChunkAt, undefined, "Fathom closed the stream");
  const last = done.state.messages.at(-1)!;
  assert.equal(last.role, "assistant");
  assert.ok(last.content.startsWith("The launch code is:"), "the answer before the loop is kept");
  assert.ok((last.content.match(/the launch/g) ?? []).length < 5, "the loop is not");
  // The next message continues normally.
  server.push({ text: "Sorry, here it is." });
  const next = await collect(agent, "try again", { state: done.state });
  assert.equal(next.done.reason, "completed");
});

test("what is not a loop: rulers, tables, code with repeated lines", () => {
  assert.equal(findRunaway(`Title\n${"-".repeat(80)}\nText`), undefined);
  assert.equal(findRunaway(`${"| a | b |\n".repeat(10)}`), undefined);
  assert.equal(findRunaway(`x = 1\n${"    pass\n".repeat(6)}`), undefined);
  assert.ok(findRunaway(`Hello ${"```\n".repeat(70)}`));
  assert.ok(findRunaway(`Hello ${"the the ".repeat(40)}`));
});
