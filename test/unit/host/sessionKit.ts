/** A ChatSession over a temp workspace and the in-process FakeModel, for unit tests. */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CheckpointStore,
  ChildProcessExecutor,
  CompositeBackend,
  createAgent,
  createInlineEditAgent,
  FilesystemBackend,
  type ApprovalDecision,
  type ApprovalRequest,
  type BackendProtocol,
  type ChatModel,
  type Middleware,
} from "../../../src/core";
import type { HostToWebviewChat } from "../../../src/protocol";
import { Log } from "../../../src/host/log";
import { readSettings, setupProblemFor, type FathomSettings } from "../../../src/host/settings";
import { ChatSession, type SessionEnv } from "../../../src/host/tasks/chatSession";
import { approvalKey } from "../../../src/host/review/approvalKey";
import type { ChatDecision, SessionGate } from "../../../src/host/wiring/sessionGate";
import { TaskStore } from "../../../src/host/tasks/taskStore";
import { FakeModel, type FakeScript } from "../../support/fakeModel";

/** Waits for the chat's Approve/Reject, like the review gate does. */
export class TestGate implements SessionGate {
  readonly waiting = new Map<string, (d: ApprovalDecision) => void>();
  readonly requests: ApprovalRequest[] = [];
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    this.requests.push(request);
    return new Promise((resolve) => {
      signal.addEventListener("abort", () => resolve({ type: "reject", reason: "cancelled" }), { once: true });
      this.waiting.set(request.toolCallId, resolve);
    });
  }
  /** Decisions come under the gate's key (task and call); `waiting` is by call id, for the tests. */
  decide(key: string, decision: ChatDecision): void {
    const request = this.requests.find((r) => approvalKey(r) === key);
    const toolCallId = request?.toolCallId ?? key;
    this.waiting.get(toolCallId)?.(decision);
    this.waiting.delete(toolCallId);
  }
}

export interface Kit {
  session: ChatSession;
  model: FakeModel;
  messages: HostToWebviewChat[];
  gate: TestGate;
  store: TaskStore;
  root: string;
  storage: string;
  lines: string[];
  settings: Record<string, unknown>;
  trusted: { value: boolean };
  /** With `checkpoints`: the workspace's checkpoints, and the diffs the Restore panel opened. */
  checkpoints?: CheckpointStore;
  diffs: { path: string; now: string | null; restored: string | null }[];
  /** A new session over the same storage (as after a window reload). */
  reopen(model?: FakeModel): Kit;
}

export interface KitOptions {
  model?: FakeModel;
  root?: string;
  storage?: string;
  settings?: Record<string, unknown>;
  apiKey?: string;
  trusted?: { value: boolean };
  /** Keep checkpoints (in the storage folder, as the host does) and offer Restore. */
  checkpoints?: boolean;
  /** A multi-root workspace: folder name → its root (routed as the host does, `/<name>/…`). */
  folders?: Record<string, string>;
  env?: Partial<SessionEnv>;
  /** Middleware added to every run's agent after the session's own (as the host adds the editor's). */
  middleware?: Middleware[];
  /** `{ reopen: false }`: a session for another task, starting empty. */
  sessionOptions?: ConstructorParameters<typeof ChatSession>[1];
}

export function makeKit(script: FakeScript[], o: KitOptions = {}): Kit {
  const root = o.root ?? mkdtempSync(path.join(os.tmpdir(), "fathom-ws-"));
  if (!o.root) writeFileSync(path.join(root, "app.ts"), "export const answer = 42;\n");
  const storage = o.storage ?? mkdtempSync(path.join(os.tmpdir(), "fathom-store-"));
  const lines: string[] = [];
  const log = new Log({
    trace: (m) => lines.push(m),
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(String(m)),
  });
  const settings: Record<string, unknown> = { provider: "openai-compatible", ...o.settings };
  const trusted = o.trusted ?? { value: true };
  const model = o.model ?? new FakeModel(script);
  const gate = new TestGate();
  const store = new TaskStore(storage, (t) => log.redact(t));
  const backend = (): BackendProtocol =>
    o.folders
      ? new CompositeBackend(
          null,
          Object.fromEntries(
            Object.entries(o.folders).map(([name, dir]) => [`/${name}`, new FilesystemBackend({ rootDir: dir })]),
          ),
        )
      : new FilesystemBackend({ rootDir: root });
  const checkpoints = o.checkpoints ? new CheckpointStore({ dir: path.join(storage, "checkpoints") }) : undefined;
  const diffs: Kit["diffs"] = [];
  const env: SessionEnv = {
    store,
    gate,
    log,
    isTrusted: () => trusted.value,
    async readSetup() {
      const s: FathomSettings = readSettings({ get: <T>(k: string, d: T) => (k in settings ? (settings[k] as T) : d) });
      log.addSecret(o.apiKey);
      return { settings: s, ...(o.apiKey ? { apiKey: o.apiKey } : {}), problem: setupProblemFor(s, Boolean(o.apiKey)) };
    },
    createModel: (): ChatModel => model,
    createAgent: (opts) => {
      const base = {
        ...opts,
        workspaceRoot: root,
        backend: backend(),
        ...(checkpoints ? { checkpoints: { store: checkpoints, taskId: opts.taskId } } : {}),
      };
      return opts.inlineEdit
        ? createInlineEditAgent(base, opts.inlineEdit)
        : createAgent({
            ...base,
            executor: new ChildProcessExecutor(),
            middleware: [...(opts.middleware ?? []), ...(o.middleware ?? [])],
          });
    },
    ...(checkpoints
      ? {
          checkpoints,
          restoreBackend: backend,
          compareCheckpoint: async (p: string, now: string | null, restored: string | null) =>
            void diffs.push({ path: p, now, restored }),
        }
      : {}),
    ...o.env,
  };
  const session = new ChatSession(env, o.sessionOptions);
  const messages: HostToWebviewChat[] = [];
  session.onMessage((m) => messages.push(structuredClone(m)));
  return {
    session,
    model,
    messages,
    gate,
    store,
    root,
    storage,
    lines,
    settings,
    trusted,
    diffs,
    ...(checkpoints ? { checkpoints } : {}),
    reopen: (next) => makeKit([], { ...o, root, storage, settings, trusted, model: next ?? new FakeModel([]) }),
  };
}

export async function until(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 5));
  }
}
