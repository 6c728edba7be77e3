import {
  SteeringInbox,
  SwitchableModel,
  attachmentLabel,
  uniqueAttachments,
  type Attachment,
  type AgentEvent,
  type ChatModel,
  type ImagePart,
  type RunState,
  type ReviewTarget,
} from "../../core";
import type { AssistantItem, SentAttachment } from "../../protocol";
import { latency } from "../latency";
import { agentOptions, modelInfo, modelView } from "../wiring/agentOptions";
import { errorBanner } from "../viewModel/errorBanner";
import type { MessageExtras, TaskParts } from "./openTask";
import { EarlyDiffs } from "./earlyDiffs";
import { approvalKey } from "../review/approvalKey";
import { logAgentEvent } from "./eventLog";
import { showInteraction } from "../viewModel/interactionView";
import { QuestionDesk } from "./questionDesk";
import { loggedModel } from "../wiring/loggedModel";
import type { SessionEnv } from "../wiring/sessionEnv";
import { taskTitle } from "./taskRecord";
import { planTeamRun } from "./teamRun";
import { fixApplyingModel } from "../codeReview/fixModel";
import { reviewInPanel, reviewRefused } from "../codeReview/reviewRun";

type Setup = Awaited<ReturnType<SessionEnv["readSetup"]>>;

/**
 * One run of the open task, from a message (or Resume) to the agent's `done`: reads the setup,
 * waits for a slot among the window's tasks, places the task (its worktree), and plays the
 * agent's events into the view, saving as it goes.
 */
export class TaskRun {
  readonly controller = new AbortController();
  /** Settles when the run is over (after `ended`). */
  readonly done: Promise<void>;
  /** How the run ended ("error" also when Fathom itself failed: the queue then waits). */
  reason: string | undefined;
  /** The agent's state while it runs (saved with the task). */
  live: RunState | undefined;
  /** The run's model: a pick in the Model box switches it for the next request. */
  private switchable: SwitchableModel | undefined;
  /** Its `ask_user` questions waiting for the person's answer on their cards. */
  readonly questions = new QuestionDesk();
  /** Messages the person sent meanwhile ("Send now"): the model reads them at its next step. */
  private readonly steering = new SteeringInbox();
  private disposed = false;

  constructor(
    private readonly parts: TaskParts,
    input: { text: string; appendUser: boolean } & MessageExtras,
    ended: (run: TaskRun) => void,
  ) {
    this.done = this.run(input.text, input.appendUser, input)
      .catch((err: unknown) => {
        parts.env.log.error(`Task failed inside Fathom: ${(err as Error)?.stack ?? String(err)}`);
        parts.viewModel.setBanner(
          errorBanner(
            "internal",
            `Fathom failed: ${(err as Error)?.message ?? String(err)}. Retry, or start a new task.`,
          ),
        );
        this.reason = "error";
        parts.notify.status("failed");
      })
      .finally(() => ended(this));
  }

  /** The session is gone: the run stops, and its last events are no longer shown or saved. */
  dispose(): void {
    this.disposed = true;
    this.controller.abort();
  }

  /** A message sent while the task runs: the model reads it at its next step (where the chat then shows it). */
  steer(text: string): void {
    this.steering.push(text);
  }

  /** The person picked another model: it answers from the next request. */
  switchModel(next: ChatModel): boolean {
    if (!this.switchable) return false;
    this.switchable.switchTo(loggedModel(next, this.parts.env.log));
    this.parts.viewModel.setModel(modelView(next), modelInfo(next));
    return true;
  }

  private async run(input: string, appendUser: boolean, extras: MessageExtras): Promise<void> {
    const { env, task, viewModel, notify } = this.parts;
    const state = viewModel.state;
    const mark = (step: string) => latency(env.log, "message", step);
    const attached = extras.images;
    const attachments = extras.attachments?.length ? uniqueAttachments(extras.attachments) : undefined;
    const setup = await env.readSetup();
    mark("setup read");
    if (setup.problem) {
      Object.assign(state, { setupProblem: setup.problem });
      notify.stateChanged();
      if ((input || attached?.length || attachments) && appendUser) notify.requeue(input, extras);
      return;
    }
    const restricted = !env.isTrusted();
    const created = env.createModel(setup.settings, setup.apiKey);
    const model = new SwitchableModel(
      extras.fix ? fixApplyingModel(created, extras.fix) : loggedModel(created, env.log),
    );
    this.switchable = model;
    const isNew = !state.taskId;
    if (isNew) {
      const now = env.now?.() ?? Date.now();
      state.taskId = `t${now.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      task.createdAt = now;
      task.runState = null;
    }
    // Per-run card ids start afresh; the context meter and costs follow the run's model.
    viewModel.reset(state, modelInfo(model));
    Object.assign(state, { restricted, model: modelView(model), setupProblem: null });
    notify.stateChanged();
    // A model that reads no images is never sent one; the person is told (the message box also refuses them for it).
    const images = attached?.length && model.acceptsImages ? attached : undefined;
    if (attached?.length && !images)
      viewModel.notice(
        "warning",
        `${model.model} does not read images, so the ${attached.length > 1 ? `${attached.length} images were` : "image was"} not sent. Pick a model that reads images in Model, or set "images": true for it in fathom.modelOverrides if it does.`,
      );
    if ((input || images || attachments) && appendUser) {
      task.inlineEdit = extras.inlineEdit;
      const itemId = viewModel.appendUser(
        input,
        false,
        images?.map((i) => ({ mimeType: i.mimeType, thumbnail: i.thumbnail })),
        attachments?.map(sentAttachment),
      );
      await env.checkpoints
        ?.checkpoint(state.taskId!, {
          kind: "message",
          label: input,
          conversationLength: task.runState?.messages.length ?? 0,
          meta: { itemId },
        })
        .catch((e: unknown) => env.log.warn(`Checkpoint: could not take one: ${String(e)}`));
    }
    mark("message checkpointed");
    viewModel.setBanner(null);
    notify.status(
      "running",
      isNew || !state.title
        ? taskTitle(input || (attachments ? attachments.map(attachmentLabel).join(", ") : ""))
        : undefined,
    );
    void env.store.setOpenTask(state.taskId);
    this.parts.saves.flush();
    notify.historyChanged();
    // Past the window's limit of tasks at once, it waits for one to end.
    const release = env.slots
      ? await env.slots.acquire(this.controller.signal, (running) =>
          viewModel.notice(
            "info",
            `Waiting to start: ${running} tasks are running, the most at once (fathom.tasks.maxParallel). This one starts when one of them ends.`,
          ),
        )
      : () => undefined;
    mark("slot taken");
    try {
      if (extras.review) await this.review(input, extras.review, setup, model);
      else
        await this.runAgent(
          input,
          setup,
          model,
          restricted,
          {
            ...(images ? { images } : {}),
            ...(attachments ? { attachments } : {}),
            ...(extras.mode ? { mode: extras.mode } : {}),
            ...(extras.fix ? { fix: extras.fix } : {}),
          },
          isNew,
        );
    } finally {
      release();
    }
  }

  private async runAgent(
    input: string,
    setup: Setup,
    model: SwitchableModel,
    restricted: boolean,
    { images, attachments, mode, fix }: MessageExtras,
    isNew: boolean,
  ): Promise<void> {
    const { env, task, viewModel, notify } = this.parts;
    const state = viewModel.state;
    if (this.controller.signal.aborted) {
      // Cancelled while it waited for a slot: nothing ran, so the message stays to be resumed.
      viewModel.notice("info", "Cancelled before it started. Send a message or Resume to start it.");
      notify.status("cancelled");
      this.parts.saves.flush();
      return;
    }
    // An inline edit changes the file the person has open, never a copy in a worktree.
    const place = env.placeTask
      ? await env.placeTask({
          taskId: state.taskId!,
          title: state.title,
          worktree: isNew ? (task.inlineEdit ? false : task.wantWorktree) : undefined,
        })
      : {};
    if ("error" in place) {
      viewModel.setBanner({ level: "error", message: place.error, retryable: false });
      notify.status("failed");
      this.reason = "error";
      return;
    }
    task.root = place.root;
    latency(env.log, "message", "placed");
    // Rules, skills, custom agents and `/name args` (not for an inline edit: it has one tool and no
    // rules; nor for a fix, whose one call is known).
    const team =
      env.teamFiles && !task.inlineEdit && !fix
        ? await planTeamRun(env.teamFiles, { input, chosenAgent: state.agent, provider: model.provider })
        : undefined;
    for (const note of team?.notes ?? []) viewModel.notice("warning", note);
    const modelFor = (id: string) =>
      loggedModel(env.createModel({ ...setup.settings, model: id }, setup.apiKey), env.log);
    if (team?.model) model.switchTo(modelFor(team.model));
    const agent = await env.createAgent({
      ...agentOptions({
        env,
        setup,
        restricted,
        model,
        task: { id: state.taskId!, title: () => state.title, ...(task.root ? { root: task.root } : {}) },
        alwaysAllowed: () => state.alwaysAllowed,
        onLiveState: (live) => (this.live = live),
        onWrite: (id, proposal) => viewModel.recordProposal(id, proposal),
        reviewNotes: () => task.reviewNotes?.splice(0) ?? [],
      }),
      ...(task.inlineEdit ? { inlineEdit: task.inlineEdit } : {}),
      questions: this.questions,
      ...(team
        ? {
            teamFiles: team.catalog,
            modelFor,
            ...(team.agent ? { agent: team.agent } : {}),
            ...(team.narrowTools ? { narrowTools: team.narrowTools } : {}),
          }
        : {}),
    });
    latency(env.log, "message", "agent made");
    env.log.info(
      `Task ${state.taskId}: ${input || attachments ? `message of ${input.length} characters${attachments ? ` and ${attachments.length} attachments` : ""}` : "continuing"} with ${model.provider}/${model.model}${restricted ? " (Restricted Mode)" : ""}${task.inlineEdit ? " (inline edit)" : ""}`,
    );
    this.live = undefined;
    const parts: ImagePart[] | undefined = images?.map((i) => ({ mimeType: i.mimeType, data: i.data }));
    // Resuming after a reload: what waited for the person is asked again (with their draft edits).
    const askAgain = task.askAgain;
    task.askAgain = [];
    const events = agent.run(team?.input ?? input, {
      signal: this.controller.signal,
      ...(task.runState ? { state: task.runState } : {}),
      ...(parts ? { images: parts } : {}),
      ...(attachments ? { attachments } : {}),
      ...(askAgain.length ? { askAgain } : {}),
      steering: this.steering,
      ...(mode ? { mode } : {}),
    });
    if (mode) viewModel.emit({ type: "mode", mode });
    await this.play(events, this.earlyDiffs(setup, restricted), new Map(agent.tools.map((t) => [t.name, t.kind])));
  }

  /** Diffs opened while the model writes an edit the person will be asked about. */
  private earlyDiffs(setup: Setup, restricted: boolean): EarlyDiffs | undefined {
    const { env, task } = this.parts;
    const state = this.parts.viewModel.state;
    const currentText = env.currentText?.bind(env);
    if (!env.gate.prepare || !currentText || restricted || setup.settings.autoApprove.edit) return undefined;
    const taskId = state.taskId!;
    return new EarlyDiffs({
      gate: env.gate,
      key: (toolCallId) => approvalKey({ toolCallId, task: { id: taskId } }),
      read: (path) => currentText(path, task.root),
      asks: (toolName) => !state.alwaysAllowed.includes(toolName),
      secretFiles: setup.settings.secretFiles,
      taskTitle: () => state.title,
      diffFirst: Boolean(task.inlineEdit),
    });
  }

  /** The agent's events into the view, the task's status and its saves. */
  private async play(
    events: AsyncIterable<AgentEvent>,
    early: EarlyDiffs | undefined,
    kinds: ReadonlyMap<string, string>,
  ): Promise<void> {
    const handle = this.eventHandler(early, kinds);
    for await (const event of events) handle(event);
  }

  /** What each of the run's events does: into the view, the task's status and its saves. */
  private eventHandler(early: EarlyDiffs | undefined, kinds: ReadonlyMap<string, string>): (event: AgentEvent) => void {
    const { env, saves, viewModel, notify } = this.parts;
    const now = env.now ?? Date.now;
    let pendingApprovals = 0;
    const startedTools = new Map<string, number>();
    return (event) => {
      if (this.disposed) return;
      early?.onEvent(event);
      if (event.type === "approval_requested") latency(env.log, event.toolCallId, "approval event");
      viewModel.onEvent(event);
      showInteraction(viewModel, event);
      if (event.type === "approval_requested") latency(env.log, event.toolCallId, "card posted");
      logAgentEvent(env.log, event, startedTools, now);
      if (event.type === "approval_requested" || event.type === "question_asked") {
        if (++pendingApprovals === 1) notify.status("awaiting_approval");
      } else if (event.type === "approval_decided" || event.type === "question_answered") {
        if (--pendingApprovals === 0) notify.status("running");
      } else if (event.type === "step_started" || event.type === "text_delta") {
        if (viewModel.state.banner?.level === "warning") viewModel.setBanner(null);
      }
      if (event.type === "done") this.finish(event);
      // Saved at once, but after the card's message is on its way: the person waits for the card.
      else if (event.type === "approval_requested" || event.type === "question_asked") saves.nextTick();
      // A call with an effect (a write, a command) is saved at once, so a resume never runs it
      // again; the rest at most once a second (a long task re-wrote its whole file every step).
      else if (event.type === "tool_call_finished" && kinds.get(event.toolName) !== "read") saves.flush();
      else if (event.type === "step_started" || event.type === "tool_call_finished" || event.type === "todos_changed")
        saves.soon();
      // Streaming: keep what the person already saw, at most once a second.
      else saves.soon();
    };
  }

  /**
   * `/review`: the diff reviewed part by part (read-only), each part's events shown as the task's,
   * then the summary with its findings' links, and the findings as comments in the editor.
   */
  private async review(input: string, target: ReviewTarget, setup: Setup, model: ChatModel): Promise<void> {
    const { env, task, viewModel } = this.parts;
    const dir = env.review?.dir();
    const handle = this.eventHandler(undefined, new Map());
    if (!env.review || !dir)
      return handle(reviewRefused(task.runState, "Open a folder in a git repository to review its changes."));
    const review = env.review;
    const outcome = await reviewInPanel({
      target,
      dir,
      model,
      secretFiles: setup.settings.secretFiles,
      signal: this.controller.signal,
      state: task.runState,
      request: input,
      onEvent: handle,
      notice: (level, text) => viewModel.notice(level, text),
      virtualPath: (root, file) => review.virtualPath(root, file),
    });
    const answer = [...viewModel.state.items].reverse().find((i): i is AssistantItem => i.kind === "assistant");
    if (answer && outcome.findings)
      viewModel.emit({ type: "itemUpdated", item: { ...answer, review: { findings: outcome.view } } });
    if (outcome.findings && !this.disposed)
      review.show({
        taskId: viewModel.state.taskId!,
        repoRoot: outcome.findings.root,
        findings: outcome.findings.items,
      });
    handle(outcome.done);
  }

  private finish(done: Extract<AgentEvent, { type: "done" }>): void {
    const { env, task, viewModel, notify } = this.parts;
    const state = viewModel.state;
    task.runState = done.state;
    this.live = undefined;
    this.reason = done.reason;
    // Sent as the run stopped (cancelled, failed): nothing is lost, they wait in the queue.
    for (const text of this.steering.take().reverse()) notify.requeue(text, {});
    switch (done.reason) {
      case "completed":
        notify.status("completed");
        break;
      case "cancelled":
        viewModel.closeOpen("cancelled", "Cancelled.");
        viewModel.notice("info", "Cancelled. Send a message to continue, or start a new task.");
        notify.status("cancelled");
        break;
      case "error":
        viewModel.closeOpen("failed", done.message ?? "Failed.");
        if (state.banner?.level !== "error")
          viewModel.setBanner(errorBanner("internal", done.message ?? "The task failed."));
        notify.status("failed");
        break;
      default:
        viewModel.closeOpen("cancelled", done.message ?? "Stopped.");
        viewModel.notice("warning", done.message ?? `Stopped (${done.reason}).`);
        notify.status("failed");
    }
    env.log.info(`Task ${state.taskId} ended: ${done.reason}${done.message ? ` (${done.message})` : ""}`);
    env.taskEnded?.(state.taskId!, done.reason);
    this.parts.saves.flush();
    notify.historyChanged();
  }
}

/** How a sent message's chip is shown in the transcript. */
function sentAttachment(a: Attachment): SentAttachment {
  return a.kind === "file"
    ? {
        kind: "file",
        label: attachmentLabel(a),
        path: a.path,
        ...(a.startLine !== undefined ? { line: a.startLine } : {}),
      }
    : { kind: a.kind, label: a.label };
}
