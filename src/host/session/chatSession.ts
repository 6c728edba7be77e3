import { alwaysAllowRules, SwitchableModel, type AgentEvent, type BackendProtocol, type CheckpointStore, type ImagePart, type RunState } from "../../core";
import type { AttachedImage, ChatState, HostToWebviewChat } from "../../protocol";
import { EXECUTE_RULE, approvalKey } from "./sessionGate";
import { agentOptions, modelInfo, modelView } from "./agentOptions";
import type { SessionEnv } from "./sessionEnv";
import { logAgentEvent } from "./eventLog";
import { findToolItem, initialChatState } from "./chatState";
import { ChatStateReducer, errorBanner } from "./chatStateReducer";
import { loggedModel } from "./loggedModel";
import { RestoreActions } from "./restoreActions";
import { SaveSchedule } from "./saveSchedule";
import { awaitingApproval, closeInterrupted, taskTitle, toSavedTask, wasInterrupted, whereItStopped } from "./taskRecord";
import { latency } from "../latency";

export type { SessionEnv } from "./sessionEnv";

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The chat's one task at a time: Send starts (or continues) it, events stream to the view,
 * Cancel stops the model and any running command, a message sent meanwhile is queued. The task
 * is saved after every step and can be reopened or resumed after a reload.
 */
export class ChatSession {
  private reducer: ChatStateReducer;
  private readonly listeners = new Set<(message: HostToWebviewChat) => void>();
  private running: Running | undefined;
  /** The running task's model: a pick in the Model box switches it for the next request. */
  private switchable: SwitchableModel | undefined;
  /** Images of the queued messages, beside `state.queued` (the view shows only their text). */
  private queuedImages: (AttachedImage[] | undefined)[] = [];
  private runState: RunState | null = null;
  private live: RunState | undefined;
  private createdAt = 0;
  private disposed = false;
  private readonly now: () => number;
  private readonly ready: Promise<void>;

  /** Restore and Edit and resend (absent without a checkpoint store). */
  readonly restoring: RestoreActions | undefined;

  /** `reopen`: load the task that was open when the window last closed (the window's first session). */
  constructor(
    private readonly env: SessionEnv,
    private readonly options: { reopen?: boolean } = {},
  ) {
    this.now = env.now ?? Date.now;
    this.reducer = this.newReducer({ ...initialChatState(), demo: env.demo === true });
    this.restoring = env.checkpoints && env.restoreBackend ? this.restoreActions(env.checkpoints, () => env.restoreBackend!(this.root)) : undefined;
    this.ready = this.restore().catch((err: unknown) => env.log.error(`Could not load saved tasks: ${(err as Error).message}`));
  }

  /** Resolves once saved tasks are loaded. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  get state(): ChatState {
    return this.reducer.state;
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
  async send(text: string, images?: AttachedImage[], options: { worktree?: boolean } = {}): Promise<void> {
    await this.ready;
    if (!this.state.taskId && !this.running) this.wantWorktree = options.worktree;
    if (this.running || this.state.setupProblem) {
      if (this.state.setupProblem) await this.refreshSetup();
      if (this.running || this.state.setupProblem) {
        this.queuedImages.push(images);
        this.setQueued([...this.state.queued, text]);
        return;
      }
    }
    this.start(text, true, images);
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
    if (this.running && this.switchable && next) {
      this.switchable.switchTo(loggedModel(next, this.env.log));
      this.reducer.setModel(modelView(next), modelInfo(next));
      this.env.log.info(`Model changed to ${next.provider}/${next.model}: it answers from the next request`);
    }
    await this.refreshSetup();
  }

  /** The Model box's list, answered to `requestId`. */
  async listModels(requestId: number): Promise<void> {
    const setup = await this.env.readSetup();
    const list = this.env.listModels ? await this.env.listModels(setup.settings, setup.apiKey) : { models: [], error: "This provider cannot list its models. Type a model id." };
    this.post({ type: "models", requestId, models: list.models, ...(list.error ? { error: list.error } : {}) });
  }

  cancel(): void {
    if (!this.running) return;
    this.env.log.info("Cancel requested");
    this.running.controller.abort();
  }

  async newTask(): Promise<void> {
    await this.ready;
    this.askAgain = [];
    const running = this.running;
    if (running) {
      this.queuedImages = [];
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
      // A command allows its program and subcommand ("execute:npm test"), never every command.
      const rules = tool.toolName === "execute" ? (alwaysAllowRules(tool.exec?.command ?? "") ?? []).map((r) => `${EXECUTE_RULE}${r}`) : [tool.toolName];
      const added = rules.filter((r) => !this.state.alwaysAllowed.includes(r));
      if (added.length > 0) {
        this.state.alwaysAllowed = [...this.state.alwaysAllowed, ...added];
        this.postState();
      }
      if (tool.toolName.startsWith("mcp__")) void this.env.allowMcpToolAlways?.(tool.toolName).catch((e: unknown) => this.env.log.warn(`MCP: could not remember ${tool.toolName}: ${String(e)}`));
    }
    this.env.gate.decide(this.gateId(itemId), { type: "approve" });
  }

  reject(itemId: string, reason?: string): void {
    this.env.gate.decide(this.gateId(itemId), { type: "reject", ...(reason?.trim() ? { reason: reason.trim() } : {}) });
  }

  openDiff(itemId: string): void {
    void this.env.gate.openDiff?.(this.gateId(itemId));
  }

  /** What a card's call waits under in the gate (requests carry their task). */
  private gateId(itemId: string): string {
    const raw = this.reducer.rawIdOf(itemId);
    return this.state.taskId ? approvalKey({ toolCallId: raw, task: { id: this.state.taskId } }) : raw;
  }

  /** The window's tasks at once and the repository's worktrees (from the task manager). */
  setParallel(parallel: ChatState["parallel"]): void {
    if (JSON.stringify(parallel) !== JSON.stringify(this.state.parallel)) this.reducer.emit({ type: "parallel", parallel });
  }

  /** A line in the task's transcript (what an action outside the run did, such as Apply). */
  notice(level: "info" | "warning", text: string): void {
    this.reducer.notice(level, text);
  }

  /** The "MCP servers" list (the host's MCP servers changed state). */
  setMcpServers(servers: ChatState["mcpServers"]): void {
    this.reducer.emit({ type: "mcpServers", servers });
  }

  private restoreActions(store: CheckpointStore, backend: () => BackendProtocol): RestoreActions {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- getters below read the live state
    const session = this;
    return new RestoreActions(
      { store, backend, compare: (path, now, restored) => this.env.compareCheckpoint?.(path, now, restored) ?? Promise.resolve(), log: this.env.log },
      {
        get state() {
          return session.state;
        },
        get isRunning() {
          return session.isRunning;
        },
        runState: () => this.runState,
        rawIdOf: (itemId) => this.reducer.rawIdOf(itemId),
        setConversation: (items, runState) => {
          this.state.items = items;
          this.runState = runState;
          this.postState();
          this.save();
        },
        setPreview: (preview) => this.reducer.emit({ type: "restorePreview", preview }),
        notice: (level, text) => this.reducer.notice(level, text),
        fillComposer: (text) => this.post({ type: "composerText", text }),
      },
    );
  }

  /** Deletes a saved task and frees its checkpoints (the open one is closed first). */
  async deleteTask(taskId: string): Promise<void> {
    await this.ready;
    if (taskId === this.state.taskId) {
      if (this.running) return this.reducer.notice("info", "The task is running. Cancel it before deleting it.");
      await this.newTask();
    }
    await this.env.store.remove(taskId);
    await this.env.checkpoints?.deleteTask(taskId).catch((e: unknown) => this.env.log.warn(`Checkpoints of ${taskId}: ${String(e)}`));
    this.env.log.info(`Task ${taskId} deleted with its checkpoints`);
    this.postHistory();
  }

  removeQueued(index: number): void {
    if (index >= this.state.queued.length) return;
    this.queuedImages.splice(index, 1);
    this.setQueued(this.state.queued.filter((_, i) => i !== index));
  }

  /** Retry after an error banner, or resume an interrupted task: continue from the saved state. */
  async retry(): Promise<void> {
    await this.ready;
    if (this.running || !this.state.taskId) return;
    await this.refreshSetup();
    if (this.state.setupProblem) return;
    if (this.runState) this.start("", false);
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

  resume(): Promise<void> {
    return this.retry();
  }

  async openTask(taskId: string): Promise<void> {
    await this.ready;
    return this.loadTask(taskId);
  }

  private async loadTask(taskId: string): Promise<void> {
    if (this.running) {
      this.reducer.setBanner({ level: "info", message: "A task is running. Cancel it (or wait for it) before opening another.", retryable: false });
      return;
    }
    await this.env.store.flush();
    const saved = await this.env.store.load(taskId);
    if ("error" in saved) {
      this.reducer.setBanner({ level: "error", message: saved.error, retryable: false });
      return;
    }
    const state = initialChatState();
    const where = whereItStopped(saved.items, saved.runState);
    this.askAgain = wasInterrupted(saved.status) ? awaitingApproval(saved.items) : [];
    closeInterrupted(saved.items, this.now());
    Object.assign(state, {
      taskId: saved.id,
      title: saved.title,
      status: wasInterrupted(saved.status) ? "interrupted" : saved.status,
      items: saved.items,
      todos: saved.todos,
      usage: saved.usage,
      alwaysAllowed: saved.alwaysAllowed,
    });
    this.runState = saved.runState;
    this.createdAt = saved.createdAt;
    this.root = await this.env.taskRoot?.(saved.id);
    this.resetTo(state);
    if (wasInterrupted(saved.status)) {
      this.reducer.notice("warning", `This task stopped ${where} when the window was reloaded or closed. Resume to continue from there.`);
    }
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
    this.running?.controller.abort();
    this.listeners.clear();
  }

  private start(input: string, appendUser: boolean, images?: AttachedImage[]): void {
    const controller = new AbortController();
    const done = this.run(input, appendUser, controller, images).catch((err: unknown) => {
      this.env.log.error(`Task failed inside Fathom: ${(err as Error)?.stack ?? String(err)}`);
      this.reducer.setBanner(errorBanner("internal", `Fathom failed: ${(err as Error)?.message ?? String(err)}. Retry, or start a new task.`));
      this.lastReason = "error";
      this.setStatus("failed");
    });
    const running: Running = { controller, done: done.finally(() => {
      if (this.running === running) this.running = undefined;
      if (!this.disposed && this.lastReason !== "error") this.startNextQueued();
    }) };
    this.running = running;
  }

  private lastReason: string | undefined;

  private async run(input: string, appendUser: boolean, controller: AbortController, attached?: AttachedImage[]): Promise<void> {
    this.lastReason = undefined;
    const setup = await this.env.readSetup();
    if (setup.problem) {
      Object.assign(this.state, { setupProblem: setup.problem });
      this.postState();
      if ((input || attached?.length) && appendUser) {
        this.queuedImages.unshift(attached);
        this.setQueued([input, ...this.state.queued]);
      }
      return;
    }
    const restricted = !this.env.isTrusted();
    const model = new SwitchableModel(loggedModel(this.env.createModel(setup.settings, setup.apiKey), this.env.log));
    this.switchable = model;
    const isNew = !this.state.taskId;
    if (isNew) {
      this.state.taskId = `t${this.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      this.createdAt = this.now();
      this.runState = null;
    }
    this.reducer = this.newReducer(this.state, modelInfo(model));
    Object.assign(this.state, { restricted, model: modelView(model), setupProblem: null });
    this.postState();
    // A model that reads no images is never sent one; the person is told (the message box also refuses them for it).
    const images = attached?.length && model.acceptsImages ? attached : undefined;
    if (attached?.length && !images) this.reducer.notice("warning", `${model.model} does not read images, so the ${attached.length > 1 ? `${attached.length} images were` : "image was"} not sent. Pick a model that reads images in Model, or set "images": true for it in fathom.modelOverrides if it does.`);
    if ((input || images) && appendUser) {
      const itemId = this.reducer.appendUser(input, false, images?.map((i) => ({ mimeType: i.mimeType, thumbnail: i.thumbnail })));
      await this.env.checkpoints
        ?.checkpoint(this.state.taskId!, { kind: "message", label: input, conversationLength: this.runState?.messages.length ?? 0, meta: { itemId } })
        .catch((e: unknown) => this.env.log.warn(`Checkpoint: could not take one: ${String(e)}`));
    }
    this.reducer.setBanner(null);
    this.setStatus("running", isNew || !this.state.title ? taskTitle(input) : undefined);
    void this.env.store.setOpenTask(this.state.taskId);
    this.save();
    this.postHistory();
    // Past the window's limit of tasks at once, it waits for one to end.
    const release = this.env.slots ? await this.env.slots.acquire(controller.signal, (running) => this.reducer.notice("info", `Waiting to start: ${running} tasks are running, the most at once (fathom.tasks.maxParallel). This one starts when one of them ends.`)) : () => undefined;
    try {
      await this.runAgent(input, controller, setup, model, restricted, images, isNew);
    } finally {
      release();
    }
  }

  private async runAgent(input: string, controller: AbortController, setup: Awaited<ReturnType<SessionEnv["readSetup"]>>, model: SwitchableModel, restricted: boolean, images: AttachedImage[] | undefined, isNew: boolean): Promise<void> {
    if (controller.signal.aborted) {
      // Cancelled while it waited for a slot: nothing ran, so the message stays to be resumed.
      this.reducer.notice("info", "Cancelled before it started. Send a message or Resume to start it.");
      this.setStatus("cancelled");
      this.save();
      return;
    }
    const place = this.env.placeTask ? await this.env.placeTask({ taskId: this.state.taskId!, title: this.state.title, worktree: isNew ? this.wantWorktree : undefined }) : {};
    if ("error" in place) {
      this.reducer.setBanner({ level: "error", message: place.error, retryable: false });
      this.setStatus("failed");
      this.lastReason = "error";
      return;
    }
    this.root = place.root;

    const agent = await this.env.createAgent(
      agentOptions({
        env: this.env,
        setup,
        restricted,
        model,
        task: { id: this.state.taskId!, title: () => this.state.title, ...(this.root ? { root: this.root } : {}) },
        alwaysAllowed: () => this.state.alwaysAllowed,
        onLiveState: (state) => (this.live = state),
        onWrite: (id, proposal) => this.reducer.recordProposal(id, proposal),
      }),
    );
    this.env.log.info(`Task ${this.state.taskId}: ${input ? `message of ${input.length} characters` : "continuing"} with ${model.provider}/${model.model}${restricted ? " (Restricted Mode)" : ""}`);
    this.live = undefined;
    let pendingApprovals = 0;
    const startedTools = new Map<string, number>();
    const parts: ImagePart[] | undefined = images?.map((i) => ({ mimeType: i.mimeType, data: i.data }));
    // Resuming after a reload: what waited for the person is asked again (with their draft edits).
    const askAgain = this.askAgain;
    this.askAgain = [];
    for await (const event of agent.run(input, { signal: controller.signal, ...(this.runState ? { state: this.runState } : {}), ...(parts ? { images: parts } : {}), ...(askAgain.length ? { askAgain } : {}) })) {
      if (this.disposed) continue;
      if (event.type === "approval_requested") latency(this.env.log, event.toolCallId, "approval event");
      this.reducer.onEvent(event);
      if (event.type === "approval_requested") latency(this.env.log, event.toolCallId, "card posted");
      logAgentEvent(this.env.log, event, startedTools, this.now);
      if (event.type === "approval_requested") {
        if (++pendingApprovals === 1) this.setStatus("awaiting_approval");
      } else if (event.type === "approval_decided") {
        if (--pendingApprovals === 0) this.setStatus("running");
      } else if (event.type === "step_started" || event.type === "text_delta") {
        if (this.state.banner?.level === "warning") this.reducer.setBanner(null);
      }
      if (event.type === "done") this.finish(event);
      // Saved at once, but after the card's message is on its way: the person waits for the card.
      else if (event.type === "approval_requested") this.saves.nextTick();
      else if (event.type === "step_started" || event.type === "tool_call_finished" || event.type === "todos_changed") this.save();
      // Streaming: keep what the person already saw, at most once a second.
      else this.saves.soon();
    }
  }

  private finish(done: Extract<AgentEvent, { type: "done" }>): void {
    this.runState = done.state;
    this.live = undefined;
    this.lastReason = done.reason;
    switch (done.reason) {
      case "completed":
        this.setStatus("completed");
        break;
      case "cancelled":
        this.reducer.closeOpen("cancelled", "Cancelled.");
        this.reducer.notice("info", "Cancelled. Send a message to continue, or start a new task.");
        this.setStatus("cancelled");
        break;
      case "error":
        this.reducer.closeOpen("failed", done.message ?? "Failed.");
        if (this.state.banner?.level !== "error") this.reducer.setBanner(errorBanner("internal", done.message ?? "The task failed."));
        this.setStatus("failed");
        break;
      default:
        this.reducer.closeOpen("cancelled", done.message ?? "Stopped.");
        this.reducer.notice("warning", done.message ?? `Stopped (${done.reason}).`);
        this.setStatus("failed");
    }
    this.env.log.info(`Task ${this.state.taskId} ended: ${done.reason}${done.message ? ` (${done.message})` : ""}`);
    this.env.taskEnded?.(this.state.taskId!, done.reason);
    this.save();
    this.postHistory();
  }



  private async restore(): Promise<void> {
    const id = this.options.reopen === false ? null : await this.env.store.openTaskId();
    this.state.history = await this.env.store.list();
    const checkpoints = this.env.checkpoints;
    if (checkpoints) this.state.checkpointStorage = await checkpoints.usage().then((usedBytes) => ({ usedBytes, limitBytes: checkpoints.maxStorageBytes }), () => null);
    if (id) await this.loadTask(id);
    else await this.refreshSetup();
    this.postState();
  }

  private newReducer(state: ChatState, options: { contextWindow?: number; priceKnown?: boolean } = {}): ChatStateReducer {
    return new ChatStateReducer(state, (message) => this.post(message), { now: this.now, ...options });
  }

  private resetTo(state: ChatState): void {
    const keep = this.state;
    Object.assign(state, { history: keep.history, checkpointStorage: keep.checkpointStorage, parallel: keep.parallel, setupProblem: keep.setupProblem, restricted: keep.restricted, model: keep.model, demo: keep.demo, mcpServers: keep.mcpServers });
    if (state.taskId === null) {
      this.runState = null;
      this.root = undefined;
    }
    this.reducer = this.newReducer(state);
    this.postState();
  }

  /** Calls a reloaded task was waiting on the person for: asked again when it resumes. */
  private askAgain: string[] = [];
  /** The person's choice for a new task: its own worktree, or the shared folder. */
  private wantWorktree: boolean | undefined;
  /** The folder the task works in when not the workspace (its worktree). */
  private root: string | undefined;
  private readonly saves = new SaveSchedule(() => this.saveTask(), () => this.now());

  private save(): void {
    this.saves.flush();
  }

  private saveTask(): void {
    if (this.disposed || !this.state.taskId) return;
    const runState = this.live ? structuredClone(this.live) : this.runState;
    const task = toSavedTask(this.state, { id: this.state.taskId, createdAt: this.createdAt, now: this.now() }, runState);
    void this.env.store.save(structuredClone(task));
  }

  private postHistory(): void {
    void this.env.store.list().then((history) => this.reducer.emit({ type: "history", history }));
    // Counting the storage reads every blob's size: it follows, and never holds up the list.
    const checkpoints = this.env.checkpoints;
    void checkpoints?.usage().then(
      (usedBytes) => this.reducer.emit({ type: "checkpointStorage", storage: { usedBytes, limitBytes: checkpoints.maxStorageBytes } }),
      (e: unknown) => this.env.log.warn(`Checkpoints: could not count the storage used: ${String(e)}`),
    );
  }

  private setStatus(status: ChatState["status"], title?: string): void {
    this.reducer.emit({ type: "status", status, ...(title !== undefined ? { title } : {}) });
  }

  private setQueued(queued: string[]): void {
    this.reducer.emit({ type: "queued", queued });
  }

  private startNextQueued(): void {
    if (this.running || this.disposed || this.state.setupProblem || this.state.queued.length === 0) return;
    const [next, ...rest] = this.state.queued;
    const images = this.queuedImages.shift();
    this.setQueued(rest);
    this.start(next!, true, images);
  }

  private postState(): void {
    this.post({ type: "state", state: this.state });
  }

  private post(message: HostToWebviewChat): void {
    if (this.disposed) return;
    for (const listener of this.listeners) listener(message);
  }
}
