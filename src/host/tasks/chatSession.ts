import type { Attachment, InlineEditRequest, TaskMode, ReviewTarget } from "../../core";
import {
  findToolItem,
  initialChatState,
  type AttachedImage,
  type ChatState,
  type HostToWebviewChat,
} from "../../protocol";
import { approvalKey } from "../review/approvalKey";
import { alwaysAllowedBy } from "../wiring/sessionGate";
import { modelView } from "../wiring/agentOptions";
import type { SessionEnv } from "../wiring/sessionEnv";
import { ChatViewModel } from "../viewModel/chatViewModel";
import type { RestoreActions } from "./restoreActions";
import type { ChangesActions } from "./changesActions";
import { changesActionsFor, restoreActionsFor } from "./sessionRestore";
import { compactOpenTask, startPlanOf } from "./openTaskActions";
import { SaveSchedule } from "./saveSchedule";
import { reopened, toSavedTask } from "./taskRecord";
import type { MessageExtras, OpenTask, TaskParts } from "./openTask";
import type { FixCall } from "../codeReview/fixModel";
import { TaskRun } from "./taskRun";

export type { SessionEnv } from "../wiring/sessionEnv";

/**
 * The chat's one task at a time: Send starts (or continues) it, events stream to the view,
 * Cancel stops the model and any running command, a message sent meanwhile is queued. The task
 * is saved after every step and can be reopened or resumed after a reload.
 */
export class ChatSession {
  private readonly viewModel: ChatViewModel;
  /** What runs and the actions between them work on (./openTask.ts). */
  private readonly parts: TaskParts;
  private readonly listeners = new Set<(message: HostToWebviewChat) => void>();
  private running: TaskRun | undefined;
  /** Images and chips of the queued messages, beside `state.queued` (the view shows only their text). */
  private queuedExtras: MessageExtras[] = [];
  private readonly task: OpenTask = {
    runState: null,
    createdAt: 0,
    root: undefined,
    askAgain: [],
    wantWorktree: undefined,
  };
  private disposed = false;
  private readonly now: () => number;
  private readonly ready: Promise<void>;

  /** Restore and Edit and resend (absent without a checkpoint store). */
  readonly restoring: RestoreActions | undefined;
  /** The Changes list: Keep and Undo of the task's changes (absent without a checkpoint store). */
  readonly changes: ChangesActions | undefined;

  /** `reopen`: load the task that was open when the window last closed (the window's first session). */
  constructor(
    private readonly env: SessionEnv,
    private readonly options: { reopen?: boolean } = {},
  ) {
    this.now = env.now ?? Date.now;
    this.viewModel = new ChatViewModel(
      { ...initialChatState(), demo: env.demo === true },
      (message) => this.post(message),
      { now: this.now },
    );
    this.parts = {
      env,
      task: this.task,
      saves: this.saves,
      viewModel: this.viewModel,
      notify: {
        status: (status, title) => this.setStatus(status, title),
        stateChanged: () => this.postState(),
        historyChanged: () => this.postHistory(),
        requeue: (text, extras) => {
          this.queuedExtras.unshift(extras);
          this.setQueued([text, ...this.state.queued]);
        },
      },
    };
    this.restoring =
      env.checkpoints && env.restoreBackend
        ? restoreActionsFor(
            this.parts,
            () => this.isRunning,
            env.checkpoints,
            () => env.restoreBackend!(this.task.root),
            () => this.running?.done ?? Promise.resolve(),
          )
        : undefined;
    this.changes =
      env.checkpoints && env.restoreBackend
        ? changesActionsFor(this.parts, env.checkpoints, () => env.restoreBackend!(this.task.root))
        : undefined;
    this.ready = this.restore().catch((err: unknown) =>
      env.log.error(`Could not load saved tasks: ${(err as Error).message}`),
    );
  }

  /** Resolves once saved tasks are loaded. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  get state(): ChatState {
    return this.viewModel.state;
  }

  /** Where this workspace's tasks are saved. */
  get storageDir(): string {
    return this.env.store.dir;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Every update sent to the view (the webview provider, and tests). */
  onMessage(listener: (message: HostToWebviewChat) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when no run is under way (queued messages included). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running.done;
  }

  /**
   * `worktree`: a new task runs in a git worktree of its own (undefined: the person's default).
   * Ignored for a task that has started: it stays where it began.
   */
  async send(
    text: string,
    images?: AttachedImage[],
    options: {
      worktree?: boolean;
      attachments?: Attachment[];
      inlineEdit?: InlineEditRequest;
      mode?: TaskMode;
      queue?: boolean;
      review?: ReviewTarget;
    } = {},
  ): Promise<void> {
    const extras: MessageExtras = {
      ...(options.review ? { review: options.review } : {}),
      ...(images?.length ? { images } : {}),
      ...(options.attachments?.length ? { attachments: options.attachments } : {}),
      ...(options.inlineEdit ? { inlineEdit: options.inlineEdit } : {}),
      ...(options.mode ? { mode: options.mode } : {}),
    };
    await this.ready;
    // Send now (the default while a task runs): the model reads it at its next step. Images and chips wait for the next run, as does a review.
    if (this.running && !options.queue && !extras.images && !extras.attachments && !extras.review && text.trim())
      return this.running.steer(text);
    if (!this.state.taskId && !this.running) this.task.wantWorktree = options.worktree;
    if (this.running || this.state.setupProblem) {
      if (this.state.setupProblem) await this.refreshSetup();
      if (this.running || this.state.setupProblem) {
        this.queuedExtras.push(extras);
        this.setQueued([...this.state.queued, text]);
        return;
      }
    }
    this.start(text, true, extras);
  }

  /**
   * The person picked (or typed) a model in the Model box: kept for this workspace, shown at
   * once, and, when a task runs, answering from its next request.
   */
  async chooseModel(model: string): Promise<void> {
    await this.ready;
    await this.env.chooseModel?.(model);
    const setup = await this.env.readSetup();
    const next = setup.problem ? undefined : this.env.createModel(setup.settings, setup.apiKey);
    if (next && this.running?.switchModel(next)) {
      this.env.log.info(`Model changed to ${next.provider}/${next.model}: it answers from the next request`);
    }
    await this.refreshSetup();
  }

  /** The Model box's list, answered to `requestId`. */
  async listModels(requestId: number): Promise<void> {
    const setup = await this.env.readSetup();
    const list = this.env.listModels
      ? await this.env.listModels(setup.settings, setup.apiKey)
      : { models: [], error: "This provider cannot list its models. Type a model id." };
    this.post({ type: "models", requestId, models: list.models, ...(list.error ? { error: list.error } : {}) });
  }

  cancel(): void {
    if (!this.running) return;
    this.env.log.info("Cancel requested");
    this.running.controller.abort();
  }

  async newTask(): Promise<void> {
    await this.ready;
    this.task.askAgain = [];
    const running = this.running;
    if (running) {
      this.queuedExtras = [];
      this.setQueued([]);
      running.controller.abort();
      await running.done;
    }
    await this.env.store.flush();
    this.resetTo(initialChatState());
    await this.env.store.setOpenTask(null);
    await this.refreshSetup();
  }

  approve(itemId: string, alwaysAllow = false): void {
    const tool = findToolItem(this.state.items, itemId);
    if (alwaysAllow && tool) {
      const added = alwaysAllowedBy(tool).filter((r) => !this.state.alwaysAllowed.includes(r));
      if (added.length > 0) {
        this.state.alwaysAllowed = [...this.state.alwaysAllowed, ...added];
        this.postState();
      }
      if (tool.toolName.startsWith("mcp__"))
        void this.env
          .allowMcpToolAlways?.(tool.toolName)
          .catch((e: unknown) => this.env.log.warn(`MCP: could not remember ${tool.toolName}: ${String(e)}`));
    }
    this.env.gate.decide(this.gateId(itemId), { type: "approve" });
  }

  /** The person answered the `ask_user` card `itemId`. */
  answer(itemId: string, answer: string): void {
    this.running?.questions.answer(this.viewModel.rawIdOf(itemId), answer);
  }

  /** Start on the Plan card `itemId` (with the person's edits): the task goes on in Act with the plan's steps as todos. */
  async startPlan(itemId: string, text: string): Promise<void> {
    await this.ready;
    const input = startPlanOf(this.parts, this.isRunning, itemId, text);
    if (input !== undefined) this.start(input, false, { mode: "act" });
  }

  /**
   * "Apply fix" on one of this task's review findings: a turn whose one call is the fix's edit,
   * asked, shown and written as any agent edit (../codeReview/fixModel.ts). Refused while the task
   * runs (the answer says so), since the call would wait behind whatever runs.
   */
  async applyFix(fix: FixCall): Promise<string | undefined> {
    await this.ready;
    if (this.running) return "The review's task is running. Apply the fix once it has stopped.";
    this.start(`Apply the fix: ${fix.title}`, true, { fix, mode: "act" });
    return undefined;
  }

  /** `/compact`: the conversation summarized now (./compactTask.ts). */
  async compact(): Promise<void> {
    await this.ready;
    return compactOpenTask(this.parts, this.isRunning);
  }

  reject(itemId: string, reason?: string): void {
    this.env.gate.decide(this.gateId(itemId), { type: "reject", ...(reason?.trim() ? { reason: reason.trim() } : {}) });
  }

  openDiff(itemId: string): void {
    void this.env.gate.openDiff?.(this.gateId(itemId));
  }

  cardShown(itemId: string): void {
    this.env.gate.cardShown?.(this.gateId(itemId));
  }

  /** What a card's call waits under in the gate (requests carry their task). */
  private gateId(itemId: string): string {
    const raw = this.viewModel.rawIdOf(itemId);
    return this.state.taskId ? approvalKey({ toolCallId: raw, task: { id: this.state.taskId } }) : raw;
  }

  /** The window's tasks at once and the repository's worktrees (from the task manager). */
  setParallel(parallel: ChatState["parallel"]): void {
    if (JSON.stringify(parallel) !== JSON.stringify(this.state.parallel))
      this.viewModel.emit({ type: "parallel", parallel });
  }

  /** A line in the task's transcript (what an action outside the run did, such as Apply). */
  notice(level: "info" | "warning", text: string): void {
    this.viewModel.notice(level, text);
  }

  /** The Agent box (a name the host checked against the custom agents found): the task runs as it from its next message. */
  setAgent = (agent: string | null): void => this.viewModel.emit({ type: "agent", agent });

  /** The "MCP servers" list (the host's MCP servers changed state). */
  setMcpServers(servers: ChatState["mcpServers"]): void {
    this.viewModel.emit({ type: "mcpServers", servers });
  }

  /** Deletes a saved task and frees its checkpoints (the open one is closed first). */
  async deleteTask(taskId: string): Promise<void> {
    await this.ready;
    if (taskId === this.state.taskId) {
      if (this.running) return this.viewModel.notice("info", "The task is running. Cancel it before deleting it.");
      await this.newTask();
    }
    await this.env.store.remove(taskId);
    await this.env.checkpoints
      ?.deleteTask(taskId)
      .catch((e: unknown) => this.env.log.warn(`Checkpoints of ${taskId}: ${String(e)}`));
    this.env.log.info(`Task ${taskId} deleted with its checkpoints`);
    this.postHistory();
  }

  removeQueued(index: number): void {
    if (index >= this.state.queued.length) return;
    this.queuedExtras.splice(index, 1);
    this.setQueued(this.state.queued.filter((_, i) => i !== index));
  }

  /** Retry after an error banner, or resume an interrupted task: continue from the saved state. */
  async retry(): Promise<void> {
    await this.ready;
    if (this.running || !this.state.taskId) return;
    await this.refreshSetup();
    if (this.state.setupProblem) return;
    if (this.task.runState) this.start("", false);
    else {
      const lastUser = [...this.state.items].reverse().find((i) => i.kind === "user");
      if (lastUser?.kind === "user") this.start(lastUser.text, false);
    }
  }

  /** A stored key changed: a task stopped by a refused key continues with the new one. */
  async keyChanged(): Promise<void> {
    if (this.state.banner?.action === "fathom.setApiKey" && !this.running && this.state.taskId) return this.retry();
    return this.refreshSetup();
  }

  async openTask(taskId: string): Promise<void> {
    await this.ready;
    return this.loadTask(taskId);
  }

  private async loadTask(taskId: string): Promise<void> {
    if (this.running) {
      this.viewModel.setBanner({
        level: "info",
        message: "A task is running. Cancel it (or wait for it) before opening another.",
        retryable: false,
      });
      return;
    }
    await this.env.store.flush();
    const saved = await this.env.store.load(taskId);
    if ("error" in saved) {
      this.viewModel.setBanner({ level: "error", message: saved.error, retryable: false });
      return;
    }
    const { state, askAgain, interruptedNotice } = reopened(saved, this.now());
    Object.assign(this.task, {
      askAgain,
      runState: saved.runState,
      createdAt: saved.createdAt,
      inlineEdit: saved.inlineEdit,
      root: await this.env.taskRoot?.(saved.id),
    });
    this.resetTo(state);
    if (interruptedNotice) this.viewModel.notice("warning", interruptedNotice);
    await this.env.store.setOpenTask(saved.id);
    await this.refreshSetup();
  }

  /** Re-reads settings, key and trust; call when any of them change. */
  async refreshSetup(): Promise<void> {
    const { settings, problem } = await this.env.readSetup();
    const restricted = !this.env.isTrusted();
    const model = this.running ? this.state.model : modelView(this.env.createModel(settings, undefined));
    const same =
      JSON.stringify(problem) === JSON.stringify(this.state.setupProblem) &&
      restricted === this.state.restricted &&
      JSON.stringify(model) === JSON.stringify(this.state.model);
    Object.assign(this.state, { setupProblem: problem, restricted, model });
    if (!same) this.postState();
    if (!problem && !this.running && this.state.queued.length > 0) this.startNextQueued();
  }

  dispose(): void {
    // Stop saving first: a reload must leave the task as it was last saved ("running"), so it
    // is offered for resume; cancelling would record it as cancelled.
    this.disposed = true;
    this.saves.cancel();
    this.running?.dispose();
    this.changes?.dispose();
    this.listeners.clear();
  }

  private start(text: string, appendUser: boolean, extras: MessageExtras = {}): void {
    this.running = new TaskRun(this.parts, { text, appendUser, ...extras }, (run) => {
      if (this.running === run) this.running = undefined;
      if (!this.disposed && run.reason !== "error") this.startNextQueued();
    });
  }

  private async restore(): Promise<void> {
    const id = this.options.reopen === false ? null : await this.env.store.openTaskId();
    this.state.history = await this.env.store.list();
    const checkpoints = this.env.checkpoints;
    if (checkpoints)
      this.state.checkpointStorage = await checkpoints.usage().then(
        (usedBytes) => ({ usedBytes, limitBytes: checkpoints.maxStorageBytes }),
        () => null,
      );
    if (id) await this.loadTask(id);
    else await this.refreshSetup();
    this.postState();
  }

  private resetTo(state: ChatState): void {
    const keep = this.state;
    Object.assign(state, {
      history: keep.history,
      checkpointStorage: keep.checkpointStorage,
      parallel: keep.parallel,
      setupProblem: keep.setupProblem,
      restricted: keep.restricted,
      model: keep.model,
      demo: keep.demo,
      mcpServers: keep.mcpServers,
    });
    if (state.taskId === null) Object.assign(this.task, { runState: null, root: undefined, inlineEdit: undefined });
    // What was undone in the Changes list is told to that task's model only.
    if (state.taskId !== keep.taskId) this.task.reviewNotes = undefined;
    this.viewModel.reset(state);
    this.postState();
  }

  private readonly saves = new SaveSchedule(
    () => this.saveTask(),
    () => this.now(),
  );

  private saveTask(): void {
    if (this.disposed || !this.state.taskId) return;
    // The store serializes it at once: no copy of the (growing) state is made per save.
    const runState = this.running?.live ?? this.task.runState;
    void this.env.store.save(
      toSavedTask(
        this.state,
        { id: this.state.taskId, createdAt: this.task.createdAt, now: this.now(), inlineEdit: this.task.inlineEdit },
        runState,
      ),
    );
  }

  private postHistory(): void {
    void this.env.store.list().then((history) => this.viewModel.emit({ type: "history", history }));
    // Counting the storage reads every blob's size: it follows, and never holds up the list.
    const checkpoints = this.env.checkpoints;
    void checkpoints?.usage().then(
      (usedBytes) =>
        this.viewModel.emit({
          type: "checkpointStorage",
          storage: { usedBytes, limitBytes: checkpoints.maxStorageBytes },
        }),
      (e: unknown) => this.env.log.warn(`Checkpoints: could not count the storage used: ${String(e)}`),
    );
  }

  private setStatus(status: ChatState["status"], title?: string): void {
    this.viewModel.emit({ type: "status", status, ...(title !== undefined ? { title } : {}) });
  }

  private setQueued(queued: string[]): void {
    this.viewModel.emit({ type: "queued", queued });
  }

  private startNextQueued(): void {
    if (this.running || this.disposed || this.state.setupProblem || this.state.queued.length === 0) return;
    const [next, ...rest] = this.state.queued;
    const extras = this.queuedExtras.shift();
    this.setQueued(rest);
    this.start(next!, true, extras);
  }

  private postState(): void {
    this.post({ type: "state", state: this.state });
  }

  private post(message: HostToWebviewChat): void {
    if (this.disposed) return;
    this.changes?.follow(message);
    for (const listener of this.listeners) listener(message);
  }
}
