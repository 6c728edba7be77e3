import { emptyUsage, reviewNotesMiddleware, type ChatModel, type FileChangeProposal, type RunState } from "../../core";
import type { ChatState } from "../../protocol";
import { approvalFor } from "../settings";
import type { SessionEnv } from "./sessionEnv";
import { guardedGate } from "./sessionGate";
import { sessionMiddleware } from "./sessionMiddleware";

const RESTRICTED_PROMPT =
  "The workspace is in VS Code's Restricted Mode: write_file, edit_file and execute will be refused. Read, search and answer; describe changes instead of making them.";

/** What a task's agent is made with: the person's settings, its gate (naming the task), its folder. */
export function agentOptions(o: {
  env: SessionEnv;
  setup: Awaited<ReturnType<SessionEnv["readSetup"]>>;
  restricted: boolean;
  model: ChatModel;
  task: { id: string; title: () => string; root?: string };
  alwaysAllowed: () => readonly string[];
  onLiveState: (state: RunState) => void;
  onWrite: (id: string, proposal: FileChangeProposal) => void;
  /** What the person undid in the Changes list since the model's last request. */
  reviewNotes?: () => string[];
}): Parameters<SessionEnv["createAgent"]>[0] {
  const { env, setup, restricted } = o;
  const { policy, commands } = approvalFor(setup.settings, restricted, env.sandboxState?.(setup.settings) ?? "off");
  return {
    taskId: o.task.id,
    title: o.task.title(),
    ...(o.task.root ? { root: o.task.root } : {}),
    model: o.model,
    approvalGate: guardedGate(env.gate, {
      task: () => ({ id: o.task.id, title: o.task.title() }),
      isTrusted: () => env.isTrusted(),
      alwaysAllowed: o.alwaysAllowed,
      log: env.log,
    }),
    approvalPolicy: policy,
    commands,
    maxSteps: setup.settings.maxSteps,
    maxParallelSubagents: setup.settings.maxParallelSubagents,
    secretFiles: setup.settings.secretFiles,
    sandbox: setup.settings.sandbox,
    executeTimeoutMs: setup.settings.commands.timeoutSeconds * 1000,
    ...(setup.settings.testCommand ? { testCommand: setup.settings.testCommand } : {}),
    middleware: [
      sessionMiddleware({ onLiveState: o.onLiveState, onWrite: o.onWrite }),
      ...(o.reviewNotes ? [reviewNotesMiddleware(o.reviewNotes)] : []),
    ],
    ...(restricted ? { systemPrompt: RESTRICTED_PROMPT } : {}),
  };
}

/** What the header shows of a model. */
export function modelView(model: ChatModel): ChatState["model"] {
  return { provider: model.provider, model: model.model, images: model.acceptsImages === true };
}

/** What the usage view needs to know of a model: its window, and whether it has a price. */
export function modelInfo(model: ChatModel): { contextWindow: number; priceKnown: boolean } {
  return { contextWindow: model.contextWindow, priceKnown: model.costOf?.(emptyUsage()) !== undefined };
}
