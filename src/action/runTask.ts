/**
 * One task, headless, as the action runs it: the agent on the checked-out repository with
 * the OS sandbox on; writes and sandboxed commands approved without asking (no one is there to
 * ask), anything that would leave the sandbox refused, the spend cap and step limit from the
 * inputs. What happened is kept as a transcript (JSON lines) and a cassette (every model request
 * and answer) for the workflow's artifact, both without the key.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { AgentEvent, DoneReason } from "../core/run/events";
import type { RunState } from "../core/run/runState";
import { approveAll, rejectAll, type ApprovalGate } from "../core/approval";
import { FilesystemBackend } from "../core/backends/filesystem";
import { headlessCodeIntelligence } from "../core/codeIntel/lsp/headlessCodeIntel";
import { openSandbox, runHeadless } from "../core/headless/headlessRun";
import { createModel, DEFAULT_MODELS, type Provider } from "../core/model/createModel";
import type { ChatModel } from "../core/model/types";
import { CassetteRecorder } from "../core/replay/cassetteRecorder";
import { redactSecrets } from "./runnerIo";
import { runnerSandboxUnavailableLine } from "./runnerSandbox";

export interface ModelSettings {
  provider: Provider;
  model: string;
  baseUrl?: string;
  apiKey: string;
}

export interface TaskOptions {
  root: string;
  prompt: string;
  model: ModelSettings;
  maxSteps?: number;
  spendCapUsd?: number;
  allowDomains: string[];
  /** Where the transcript and cassette are written. */
  artifactDir: string;
  secrets: readonly string[];
  log: (line: string) => void;
  retryBaseDelayMs?: number;
}

export interface TaskOutcome {
  reason: DoneReason | "crashed";
  finalText: string;
  /** Why it stopped, when it did not complete. */
  message?: string;
  state?: RunState;
  /** The last lines of the transcript, as text, for a comment. */
  tail: string[];
  /** The model, with the same recorder, for the commit message. */
  model: ChatModel;
  sandboxed: boolean;
}

const LEAVE_SANDBOX_REFUSED =
  "Commands may not leave the OS sandbox in a GitHub Actions run (no one is there to approve it), so it was not run. Do it inside the sandbox, or say in your answer what is needed.";
const TAIL_LINES = 20;

/** The model the inputs name, as the task and the review ask it. */
export function createActionModel(m: ModelSettings, o: { retryBaseDelayMs?: number; fetch?: typeof fetch }): ChatModel {
  return createModel({
    provider: m.provider,
    model: m.model,
    ...(m.baseUrl ? { baseUrl: m.baseUrl } : {}),
    ...(m.apiKey ? { apiKey: m.apiKey } : {}),
    ...(o.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: o.retryBaseDelayMs } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    surface: "cli",
  });
}

export async function runTask(o: TaskOptions): Promise<TaskOutcome> {
  mkdirSync(o.artifactDir, { recursive: true });
  const transcript = path.join(o.artifactDir, "transcript.jsonl");
  writeFileSync(transcript, "");
  const recorder = new CassetteRecorder({
    file: path.join(o.artifactDir, "cassette.jsonl"),
    header: {
      provider: o.model.provider,
      model: o.model.model || DEFAULT_MODELS[o.model.provider],
      prompt: o.prompt,
      options: { yes: true, sandbox: true, surface: "github-action" },
    },
    workspaceRoot: o.root,
    secrets: o.secrets,
  });
  const model = createActionModel(o.model, {
    ...(o.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: o.retryBaseDelayMs } : {}),
    fetch: recorder.fetch,
  });
  const sandbox = openSandbox(o.allowDomains, (problem) => o.log(runnerSandboxUnavailableLine(problem)));
  const gate: ApprovalGate = {
    request: (r, signal) => (r.mustAsk ? rejectAll(LEAVE_SANDBOX_REFUSED) : approveAll).request(r, signal),
  };
  const tail: string[] = [];
  const note = (line: string) => {
    tail.push(redactSecrets(line, o.secrets));
    if (tail.length > TAIL_LINES) tail.shift();
  };
  try {
    const done = await runHeadless({
      agent: {
        model,
        workspaceRoot: o.root,
        backend: new FilesystemBackend({ rootDir: o.root }),
        approvalPolicy: { read: "auto", edit: "auto", execute: sandbox ? "auto" : "ask", other: "auto" },
        approvalGate: gate,
        ...(sandbox
          ? {}
          : {
              commands: {
                alwaysAsk: "The OS sandbox cannot run on this runner, and commands never run outside it here.",
              },
            }),
        ...(o.maxSteps ? { maxSteps: o.maxSteps } : {}),
        ...(o.spendCapUsd ? { spendCapUsd: o.spendCapUsd } : {}),
      },
      input: o.prompt,
      sandbox,
      // A language server the repository's tools installed (node_modules/.bin after npm ci) or the
      // workflow did (on PATH): started at the first code intelligence call, in the sandbox.
      codeIntel: (run) => headlessCodeIntelligence({ ...run, log: (line) => o.log(line) }),
      onEvent: (event) => record(event, transcript, o.secrets, note),
    });
    if (!done)
      return {
        reason: "crashed",
        finalText: "",
        message: "The task ended without a result.",
        tail,
        model,
        sandboxed: sandbox !== null,
      };
    return {
      reason: done.reason,
      finalText: done.finalText,
      ...(done.message ? { message: done.message } : {}),
      state: done.state,
      tail,
      model,
      sandboxed: sandbox !== null,
    };
  } catch (error) {
    const message = redactSecrets((error as Error).message ?? String(error), o.secrets);
    note(`error: ${message}`);
    return { reason: "crashed", finalText: "", message, tail, model, sandboxed: sandbox !== null };
  } finally {
    await recorder.flush();
  }
}

/** Events worth keeping (not each streamed chunk), scrubbed, one JSON line each; a line of text for the tail. */
function record(event: AgentEvent, file: string, secrets: readonly string[], note: (line: string) => void): void {
  if (
    event.type === "text_delta" ||
    event.type === "reasoning_delta" ||
    event.type === "tool_call_arguments" ||
    event.type === "tool_output"
  )
    return;
  const kept =
    event.type === "done"
      ? {
          type: "done",
          reason: event.reason,
          finalText: event.finalText,
          message: event.message,
          steps: event.state.steps,
          usage: event.state.usage,
          costUsd: event.state.costUsd,
        }
      : event;
  appendFileSync(file, `${redactSecrets(JSON.stringify(kept), secrets)}\n`);
  if (event.type === "tool_call_finished")
    note(`${event.toolName}${event.isError ? " (failed)" : ""}: ${oneLine(event.content, 200)}`);
  else if (event.type === "approval_decided" && event.decision !== "approve")
    note(`refused ${event.toolName}: ${oneLine(event.reason ?? "", 200)}`);
  else if (event.type === "error") note(`error (${event.kind}): ${oneLine(event.message, 300)}`);
  else if (event.type === "warning") note(`warning: ${oneLine(event.message, 200)}`);
  else if (event.type === "done" && event.finalText) note(`answer: ${oneLine(event.finalText, 300)}`);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
