// The real-host journey with a real model: Fathom in code-server pointed (through the user
// settings, as a person would set it) at llama.cpp's llama-server running SmolLM2-135M-Instruct, the five
// tasks of the real-model suite one after another, each a New Task. The person approves each
// write and command on its card: nothing is written or run before that click.
// Asserted, whatever the model emits: each task ends (an answer, or a stop or error the view
// explains) within its time; each write and command waited for the click; a malformed call writes
// nothing; every saved task file parses and every call in it has its result. Whether each task
// succeeded is printed, not asserted (pass^k is the CLI suite's).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Frame } from "playwright-core";
import { type AgentEvent } from "../../../src/core/run/events.js";
import { parseRunState, type RunState } from "../../../src/core/run/runState.js";
import { assertWellFormed } from "../../support/fakeModel.js";
import { callsSent } from "../../local-model/invariants.js";
import { installLocalModel, startLocalModel } from "../../local-model/localModel.js";
import { startRecordingProxy } from "../../local-model/recordingProxy.js";
import { snapshot, TASKS, writeWorkspace, type RealTask } from "../../local-model/tasks.js";
import { openChat, runCommand, send, until } from "../harness/chat.js";
import { writeUserSettings } from "../harness/codeServer.js";
import type { E2EContext, E2ETest } from "../harness/e2e.js";
import { journeySettings } from "./journey.e2e.js";

const TASK_TIMEOUT_MS = 150_000;

/** The saved tasks (JSON) under the workspace's extension storage. */
function savedTasks(userDataDir: string): { file: string; json: unknown }[] {
  const out: { file: string; json: unknown }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/[/\\]tasks[/\\][^/\\]+\.json$/.test(p))
        out.push({ file: p, json: JSON.parse(fs.readFileSync(p, "utf8")) });
    }
  };
  walk(path.join(userDataDir, "User", "workspaceStorage"));
  return out;
}

/**
 * Sends the task and approves each write or command when its card asks, until the task ends (the
 * Send button is back). Returns how many approvals were given and whether a file changed before one.
 */
async function runInChat(
  ctx: E2EContext,
  chat: Frame,
  task: RealTask,
): Promise<{ approvals: number; earlyWrite: boolean }> {
  const before = snapshot(ctx.session.workspaceDir);
  await send(chat, task.prompt);
  const sendButton = chat.getByRole("button", { name: "Send" });
  await sendButton.waitFor({ state: "hidden", timeout: 30_000 }).catch(() => undefined);
  let approvals = 0;
  let earlyWrite = false;
  await until(
    `"${task.id}" to end`,
    async () => {
      const approve = chat.getByRole("group", { name: /^Approval for / }).getByRole("button", { name: "Approve" });
      if ((await approve.count()) > 0) {
        // Asked and waiting: nothing may have changed on disk yet.
        const now = snapshot(ctx.session.workspaceDir);
        if ([...now].some(([f, t]) => before.get(f) !== t) && approvals === 0) earlyWrite = true;
        await approve
          .first()
          .click({ timeout: 5_000 })
          .catch(() => undefined);
        approvals++;
        return false;
      }
      return sendButton.isVisible();
    },
    TASK_TIMEOUT_MS,
    500,
  );
  return { approvals, earlyWrite };
}

export const tests: E2ETest[] = [
  {
    name: "Real model (SmolLM2-135M-Instruct on llama.cpp): hello, answer from a file, create a file, change a line, run a command — each ends, approvals wait for the click",
    timeoutMs: 15 * 60_000,
    settings: journeySettings,
    async run(ctx) {
      const install = await installLocalModel({ quiet: true });
      const server = await startLocalModel({ install, maxTokens: 200 });
      const proxy = await startRecordingProxy(server.url);
      try {
        writeUserSettings(ctx.session.userDataDir, {
          "fathom.provider": "openai-compatible",
          "fathom.baseUrl": proxy.url,
          "fathom.model": server.modelId,
          "fathom.maxSteps": 6,
        });
        for (const task of TASKS) writeWorkspace(ctx.session.workspaceDir, task.files);
        const chat = await openChat(ctx.page);
        const lines: string[] = [];
        for (const task of TASKS) {
          if (task !== TASKS[0]) await runCommand(ctx.page, "Fathom: New Task");
          proxy.label(task.id);
          const started = Date.now();
          const before = snapshot(ctx.session.workspaceDir);
          const { approvals, earlyWrite } = await runInChat(ctx, chat, task);
          assert.equal(earlyWrite, false, `${task.id}: nothing was written before the person approved`);
          const after = snapshot(ctx.session.workspaceDir);
          const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
            (f) => before.get(f) !== after.get(f),
          );
          if (approvals === 0) assert.deepEqual(changed, [], `${task.id}: without an approval nothing changed`);
          const exchanges = proxy.exchanges.filter((x) => x.label === task.id);
          assert.ok(exchanges.length >= 1, `${task.id}: the model was called`);
          await ctx.screenshot(`e2e-local-model-${task.id}`);
          lines.push(
            `  ${task.id}: ${changed.length ? `changed ${changed.join(", ")}` : "no file changed"}, ${approvals} approval(s), ${exchanges.length} model call(s), ${((Date.now() - started) / 1000).toFixed(0)} s`,
          );
        }
        // Every saved task parses, and every call in it has its result.
        const saved = await until(
          "the tasks to be saved",
          () =>
            savedTasks(ctx.session.userDataDir).length >= TASKS.length
              ? savedTasks(ctx.session.userDataDir)
              : undefined,
          30_000,
        );
        for (const { file, json } of saved) {
          const state = (json as { runState: unknown }).runState;
          if (!state) continue;
          const parsed = parseRunState(state);
          assert.ok(!("error" in parsed), `${file} parses: ${"error" in parsed ? parsed.error : ""}`);
          assertWellFormed(parsed.state.messages);
        }
        // Every call the server sent over the whole journey reached a saved history.
        const inHistory = saved.flatMap(({ json }) =>
          (
            (json as { runState?: { messages?: { role: string; toolCalls?: unknown[] }[] } }).runState?.messages ?? []
          ).flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : [])),
        );
        assert.equal(
          inHistory.length,
          callsSent(proxy.exchanges).length,
          "every tool call the model made (native, or a constrained reply naming a tool) is in a saved history, with its result",
        );
        // Whether each task succeeded, judged as in the CLI suite from the saved history and the files.
        for (const [i, task] of TASKS.entries()) {
          const json = saved.find(({ json }) => (json as { title?: string }).title === task.prompt)?.json as
            { runState?: RunState; status?: string } | undefined;
          const state = json?.runState;
          const messages = state?.messages ?? [];
          const events: AgentEvent[] = messages.flatMap((m) =>
            m.role === "tool"
              ? [
                  {
                    type: "tool_call_finished" as const,
                    toolCallId: m.toolCallId,
                    toolName: m.toolName,
                    args: undefined,
                    content: m.content,
                    isError: m.isError === true,
                  },
                ]
              : [],
          );
          const last = messages.at(-1);
          const done =
            state && json?.status === "completed"
              ? {
                  type: "done" as const,
                  reason: "completed" as const,
                  finalText: last?.role === "assistant" ? last.content : "",
                  state,
                }
              : undefined;
          lines[i] += task.succeeded({ workspace: ctx.session.workspaceDir, done, events })
            ? " (succeeded)"
            : " (did not succeed)";
        }
        console.log(`    real model in code-server:\n${lines.join("\n")}`);
      } finally {
        await proxy.close();
        await server.stop();
      }
    },
  },
];
