// SmolLM2-135M's real replies, recorded by the real-model suite in each tool-call mode
// (test/local-model/saveFixtures.ts), replayed through the real `openai` client by the scripted
// server: Fathom must do with them exactly what it did with the live model (the same calls run,
// the same end, the same success), so a change in how replies are read, repaired or cut shows
// here without a model.
import { after, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel } from "../../../src/core/model/createModel";
import { forgetToolCallLessons } from "../../../src/core/model/toolCalls/toolCallMemory";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { collect } from "../../support/agentTestKit";
import { finishedCalls, TASKS, writeWorkspace } from "../../local-model/tasks";

interface RecordedRun {
  mode: "constrained" | "native";
  task: string;
  replies: { content: string; toolCalls: { name: string; arguments: string }[]; finishReason: string }[];
  outcome: { reason: string; succeeded: boolean; toolCalls: string[] };
}

const recorded = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../fixtures/local-model/smollm2-modes-recordings.json"), "utf8"),
) as { runs: RecordedRun[] };
const servers: ScriptedModelServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
beforeEach(() => forgetToolCallLessons());

for (const run of recorded.runs) {
  test(`recorded ${run.mode} run of "${run.task}": the same calls, the same end (${run.outcome.reason}), ${run.outcome.succeeded ? "succeeded" : "failed"} as live`, async () => {
    const task = TASKS.find((t) => t.id === run.task)!;
    const server = await startScriptedModelServer(
      run.replies.map((r) => ({
        text: r.content,
        toolCalls: r.toolCalls,
        ...(r.finishReason === "length" ? { stopReason: "length" } : {}),
      })),
    );
    servers.push(server);
    const workspace = mkdtempSync(path.join(tmpdir(), `fathom-recorded-${run.task}-`));
    writeWorkspace(workspace, task.files);
    const agent = createAgent({
      model: createModel({
        provider: "openai-compatible",
        model: "smollm2-135m-instruct",
        baseUrl: server.baseUrlOpenAI,
        retryBaseDelayMs: 1,
        ...(run.mode === "native" ? { override: { tools: "native", profile: "full" } } : {}),
      }),
      workspaceRoot: workspace,
      backend: new FilesystemBackend({ rootDir: workspace }),
      executor: new ChildProcessExecutor(),
      approvalPolicy: { read: "auto", edit: "auto", execute: "auto", other: "auto" },
      maxSteps: task.maxSteps,
    });
    const { events, done } = await collect(agent, task.prompt);
    assert.deepEqual(
      finishedCalls(events).map((c) => c.toolName),
      run.outcome.toolCalls,
      "the same calls ran",
    );
    assert.equal(done.reason, run.outcome.reason, done.message);
    assert.equal(task.succeeded({ workspace, done, events }), run.outcome.succeeded, "succeeded as the live run did");
    assert.equal(server.requests.length, run.replies.length, "as many model requests as live");
    if (run.mode === "constrained")
      assert.ok(
        server.requests.every((r) => r.body.response_format),
        "every request held to the schema",
      );
  });
}
