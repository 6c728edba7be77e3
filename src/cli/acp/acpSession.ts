import type { AgentContext, ContentBlock, McpServer, StopReason } from "@agentclientprotocol/sdk";
import { FilesystemBackend } from "../../core/backends/filesystem";
import type { ApprovalPolicy } from "../../core/approval";
import type { ApprovalLevel } from "../../core/trust/approvalLevels";
import type { CommandSandbox } from "../../core/executor/sandbox";
import { runHeadless } from "../../core/headless/headlessRun";
import { noOneToAsk } from "../../core/question";
import type { RunState } from "../../core/run/runState";
import { checkpointStoreFor, newTaskId, saveTask, workspaceDataDir, type CliTask } from "../cliTasks";
import { cliAgentOptions, cliCodeIntel } from "../runAgent";
import type { cliModels } from "../runModel";
import type { CliOptions } from "../runOptions";
import type { McpServerConfig } from "../../core/mcp/config";
import { cliTeamRun } from "../teamFilesCli";
import { startMcp } from "../workspaceMcp";
import { AcpApprovalGate } from "./acpApprovalGate";
import { editorMcpServers } from "./acpMcp";
import { acpPromptInput } from "./acpPrompt";
import { acpStopReason, acpUpdates } from "./acpUpdates";

/** What every session of one `fathom acp` process shares: the CLI's settings, models and trust. */
export interface AcpSettings {
  opts: CliOptions;
  makeModel: ReturnType<typeof cliModels>["makeModel"];
  sandbox: CommandSandbox | null | undefined;
  /** What runs unasked (the CLI's --yes); the rest, and whatever must reach the person, asks the client. */
  policy: ApprovalPolicy;
  /** The permission level (--approvals) where it can run here. */
  level: ApprovalLevel;
  /** Why Autopilot cannot run here (no OS sandbox), or undefined. */
  autopilotRefused?: string | undefined;
}

/**
 * One ACP session: a Fathom task in the client's folder, saved as `fathom run`'s tasks are (so
 * `fathom tasks` lists it, and `session/load` opens it again: the session id is the task's id),
 * each prompt one headless run continuing the last one's state.
 */
export class AcpSession {
  readonly id: string;
  private readonly backend: FilesystemBackend;
  private readonly dataDir: string;
  private readonly checkpoints;
  private readonly gate: AcpApprovalGate;
  private state: RunState | undefined;
  private title: string | undefined;
  private readonly createdAt: number;
  private running: AbortController | undefined;
  private readonly editorMcp: McpServerConfig[];
  private current: Promise<unknown> = Promise.resolve();
  /** The session's permission level, read at each tool call. */
  level: ApprovalLevel;

  constructor(
    readonly root: string,
    private readonly client: AgentContext,
    private readonly settings: AcpSettings,
    o: {
      /** A task saved earlier (`session/load`): its conversation goes on. */
      saved?: CliTask;
      /** The MCP servers the editor passed for the session. */
      mcpServers?: readonly McpServer[];
    } = {},
  ) {
    const { saved } = o;
    const editorMcp = editorMcpServers(o.mcpServers ?? []);
    for (const problem of editorMcp.problems) process.stderr.write(`fathom: ${problem}\n`);
    this.editorMcp = editorMcp.servers;
    this.id = saved?.id ?? newTaskId();
    this.state = saved?.state;
    this.title = saved?.title;
    this.createdAt = saved?.createdAt ?? Date.now();
    this.backend = new FilesystemBackend({ rootDir: root });
    this.dataDir = workspaceDataDir(root);
    this.checkpoints = checkpointStoreFor(this.dataDir);
    this.gate = new AcpApprovalGate(client, this.id, root);
    this.level = settings.level;
  }

  /** The conversation so far (a loaded task's). */
  get messages(): RunState["messages"] {
    return this.state?.messages ?? [];
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Cancels the turn that is running (it ends with stopReason "cancelled"). */
  cancel(): void {
    this.running?.abort();
  }

  /** Settles when no turn is running (a cancelled one has cleaned up). */
  idle(): Promise<void> {
    return this.current.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Runs one prompt turn to its end; `signal` is the request's (aborted when the connection closes). */
  async prompt(blocks: readonly ContentBlock[], signal: AbortSignal): Promise<StopReason> {
    const controller = new AbortController();
    this.running = controller;
    const onAbort = () => controller.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const turn = this.run(blocks, controller.signal);
    this.current = turn;
    try {
      return await turn;
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.running = undefined;
    }
  }

  private async run(blocks: readonly ContentBlock[], signal: AbortSignal): Promise<StopReason> {
    const { opts, makeModel, sandbox, policy } = this.settings;
    const { input, attachments } = acpPromptInput(this.root, blocks);
    if (!input && !attachments.length) throw new Error("The prompt is empty: send some text to work on.");
    const team = await cliTeamRun({
      root: this.root,
      backend: this.backend,
      prompt: input,
      provider: opts.provider,
      attachments,
    });
    if ("error" in team) throw new Error(team.error);
    this.title ??= input.slice(0, 200);
    await this.checkpoints.checkpoint(this.id, {
      kind: "message",
      label: input.slice(0, 200),
      conversationLength: this.state?.messages.length ?? 0,
    });
    const model = makeModel(team.model ?? opts.model);
    const agent = cliAgentOptions({
      opts: { ...opts, cwd: this.root },
      taskId: this.id,
      task: { root: this.root, backend: this.backend, team, checkpoints: this.checkpoints },
      model,
      makeModel,
      sandbox,
      policy,
      level: () => this.level,
      gate: this.gate,
      questions: noOneToAsk,
    });
    const updates = acpUpdates(this.root);
    const done = await runHeadless({
      agent,
      input: team.prompt,
      run: {
        ...(this.state ? { state: this.state } : {}),
        ...(attachments.length ? { attachments } : {}),
      },
      signal,
      sandbox,
      keepSandbox: true,
      // The process runs from a folder of its own already (acpCommand.ts); sessions may run at once.
      neutralWorkingDirectory: false,
      codeIntel: cliCodeIntel(opts),
      startMcp: () =>
        startMcp(
          { cwd: this.root, mcpConfigs: opts.mcpConfigs, allowWorkspaceMcp: opts.allowWorkspaceMcp },
          sandbox ?? undefined,
          undefined,
          { servers: this.editorMcp, from: "the editor" },
        ),
      onEvent: async (event) => {
        for (const update of updates(event)) await this.client.notify("session/update", { sessionId: this.id, update });
        if (event.type === "usage")
          await this.client.notify("session/update", {
            sessionId: this.id,
            update: {
              sessionUpdate: "usage_update",
              used: event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.outputTokens,
              size: model.contextWindow,
              ...(event.costUsd ? { cost: { amount: event.costUsd, currency: "USD" } } : {}),
            },
          });
      },
    });
    if (!done) throw new Error("The run stopped without finishing; send the prompt again.");
    this.state = done.state;
    const now = Date.now();
    saveTask(this.dataDir, {
      version: 1,
      id: this.id,
      title: this.title,
      createdAt: this.createdAt,
      updatedAt: now,
      reason: done.reason,
      state: done.state,
    });
    const stop = acpStopReason(done.reason);
    if (!stop) throw new Error(done.message ?? "The run failed; see Fathom's message above and try again.");
    return stop;
  }
}
