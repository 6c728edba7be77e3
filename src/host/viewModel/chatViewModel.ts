import { EDIT_SELECTION, alwaysAllowRules, type AgentEvent, type FileChangeProposal } from "../../core";
import {
  findItem,
  openToolItems,
  reduceChat,
  type Banner,
  type ChatState,
  type HostToWebviewChat,
  type Proposal,
  type SentAttachment,
  type ToolItem,
  type TranscriptItem,
} from "../../protocol";
import { proposalView } from "./proposalView";
import { errorBanner } from "./errorBanner";
import { capResult, commandOf, parseArgs, prettyArgs, toolTitle } from "./toolTitles";

/**
 * The host's chat view model: maps the agent's events to chat messages (no vscode, no IO), applies
 * each to the host's `state` with the protocol's `reduceChat` (the webview's reducer too) and
 * hands it to `post`, which sends it to the webview. Streamed arguments are held back and sent
 * at most every STREAMED_ARGS_POST_MS.
 *
 * Item ids: a top-level tool card's id is its tool-call id (so "approve"/"reject" name it
 * directly); a subagent's card is `<task call id>/<its call id>`, nested in the `task` card.
 */

export const TEXT_CALLS_NOTICE = "Fathom runs the tool calls this model writes as text";

/**
 * How often a card whose arguments stream in is sent again. Each update carries the card's whole
 * arguments, so sending one per chunk (a model writes ~80 a second) would send an edit's text
 * hundreds of times over, through the window, while the diff opens there.
 */
export const STREAMED_ARGS_POST_MS = 100;

export interface ChatViewModelOptions {
  now?: () => number;
  /** False when the model's price is unknown: the usage then shows tokens only. */
  priceKnown?: boolean;
  contextWindow?: number;
}

interface Scope {
  /** The `task` card this scope's items are nested in (undefined at the top level). */
  parentId?: string;
  assistantId?: string;
  /** A model call started and its usage has not come yet (so the next usage is the context size). */
  stepOpen: boolean;
}

export class ChatViewModel {
  private readonly scopes = new Map<string, Scope>();
  private readonly argText = new Map<string, string>();
  /** Item id → the call id the core and the gate know. */
  private readonly rawIds = new Map<string, string>();
  /** Final proposals the session middleware saw (auto-applied or changed by the person), by call id. */
  private readonly written = new Map<string, FileChangeProposal>();
  private readonly now: () => number;
  private counter = 0;
  private current: ChatState;
  /** Cards whose streamed arguments are in `state` but not sent yet (see STREAMED_ARGS_POST_MS). */
  private readonly unsentArgs = new Set<string>();
  private argsTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    state: ChatState,
    private readonly post: (message: HostToWebviewChat) => void,
    private options: ChatViewModelOptions = {},
  ) {
    this.current = state;
    this.now = options.now ?? Date.now;
  }

  /** The host's chat state (one object, changed in place: see `apply`). */
  get state(): ChatState {
    return this.current;
  }

  /**
   * Starts afresh on `state` (another task opened, or a run starting on this one): held card
   * updates go first, card ids and streams of the last run are forgotten, and the context meter
   * and costs follow `model` (the run's model; none: the state's own window, costs shown).
   */
  reset(state: ChatState, model: { contextWindow?: number; priceKnown?: boolean } = {}): void {
    this.flush();
    this.current = state;
    this.scopes.clear();
    this.argText.clear();
    this.rawIds.clear();
    this.written.clear();
    this.counter = 0;
    this.options = { now: this.now, ...model };
  }

  /** Applies a message to the state and sends it (after any held card updates, so order holds). */
  emit(message: HostToWebviewChat): void {
    if (message.type === "itemUpdated") this.unsentArgs.delete(message.item.id);
    this.flush();
    this.apply(message);
    this.post(message);
  }

  /** Sends the cards whose streamed arguments are held back. */
  flush(): void {
    clearTimeout(this.argsTimer);
    this.argsTimer = undefined;
    if (this.unsentArgs.size === 0) return;
    const ids = [...this.unsentArgs];
    this.unsentArgs.clear();
    for (const id of ids) {
      const item = findItem(this.state.items, id);
      if (item) this.post({ type: "itemUpdated", item });
    }
  }

  /** A card updated in `state` now, sent with the next message or within STREAMED_ARGS_POST_MS. */
  private updateSoon(item: TranscriptItem): void {
    this.apply({ type: "itemUpdated", item });
    this.unsentArgs.add(item.id);
    this.argsTimer ??= setTimeout(() => this.flush(), STREAMED_ARGS_POST_MS);
  }

  /**
   * The next state is copied into the one `state` object: the session, its run and the task
   * manager hold that object and read it live.
   */
  private apply(message: HostToWebviewChat): void {
    Object.assign(this.current, reduceChat(this.current, message));
  }

  newId(prefix: string): string {
    return `${prefix}-${this.now().toString(36)}-${++this.counter}`;
  }

  /** The id the core used for the card `itemId` (what the gate's `decide` expects). */
  rawIdOf(itemId: string): string {
    return this.rawIds.get(itemId) ?? itemId;
  }

  /** Called by the session middleware with what is about to be written, by the core's call id. */
  recordProposal(rawId: string, proposal: FileChangeProposal): void {
    this.written.set(rawId, proposal);
  }

  /** Returns the new item's id. */
  appendUser(
    text: string,
    queued = false,
    images?: { mimeType: string; thumbnail: string }[],
    attachments?: SentAttachment[],
  ): string {
    const id = this.newId("u");
    this.emit({
      type: "itemAppended",
      item: {
        id,
        kind: "user",
        text,
        ...(queued ? { queued } : {}),
        ...(images?.length ? { images } : {}),
        ...(attachments?.length ? { attachments } : {}),
      },
    });
    return id;
  }

  /** The model answering changed: the header, the context meter's window and whether cost is shown follow it. */
  setModel(model: ChatState["model"], info: { contextWindow: number; priceKnown: boolean }): void {
    this.options.contextWindow = info.contextWindow;
    this.options.priceKnown = info.priceKnown;
    this.emit({ type: "model", model });
  }

  notice(level: "info" | "warning" | "error", text: string, parentId?: string): void {
    this.emit({
      type: "itemAppended",
      item: { id: this.newId("n"), kind: "notice", level, text },
      ...(parentId ? { parentId } : {}),
    });
  }

  setBanner(banner: Banner | null): void {
    if (banner === null && this.state.banner === null) return;
    this.emit({ type: "banner", banner });
  }

  /** Ends the streaming answer and closes every open card (after a cancel or an error). */
  closeOpen(status: "cancelled" | "failed", result: string): void {
    for (const scope of this.scopes.values()) this.closeAssistant(scope);
    for (const item of openToolItems(this.state.items)) {
      const proposal =
        item.proposal?.outcome === "pending" ? { ...item.proposal, outcome: "rejected" as const } : item.proposal;
      this.update({
        ...item,
        status,
        result: item.result ?? result,
        endedAt: this.now(),
        ...(proposal ? { proposal } : {}),
      });
    }
    this.scopes.clear();
  }

  /** Maps one agent event. `done` is left to the session (it decides the task's status). */
  onEvent(event: AgentEvent, scopeKey = ""): void {
    const scope = this.scope(scopeKey);
    const idOf = (callId: string) => (scope.parentId ? `${scope.parentId}/${callId}` : callId);
    switch (event.type) {
      case "step_started":
        this.closeAssistant(scope);
        scope.stepOpen = true;
        return;
      case "text_delta":
      case "reasoning_delta":
        if (event.text !== "") this.streamAnswer(scope, event.type === "reasoning_delta", event.text);
        return;
      case "text_replaced": {
        // Tool calls the model wrote as text were taken out of its answer: show what is left.
        const item = scope.assistantId ? findItem(this.state.items, scope.assistantId) : undefined;
        if (item?.kind === "assistant") this.update({ ...item, text: event.text });
        return;
      }
      case "tool_call_started": {
        this.closeAssistant(scope);
        const id = idOf(event.toolCallId);
        this.rawIds.set(id, event.toolCallId);
        if (findItem(this.state.items, id)) return;
        this.append(
          {
            id,
            kind: "tool",
            toolName: event.toolName,
            title: toolTitle(event.toolName, {}),
            args: "",
            status: "streaming",
            startedAt: this.now(),
          },
          scope,
        );
        return;
      }
      case "tool_call_arguments": {
        const id = idOf(event.toolCallId);
        const text = (this.argText.get(id) ?? "") + event.delta;
        this.argText.set(id, text);
        const args = parseArgs(text);
        const item = this.tool(id);
        if (args && item) this.updateSoon({ ...item, title: toolTitle(item.toolName, args), args: prettyArgs(args) });
        return;
      }
      case "approval_requested": {
        const found = this.tool(idOf(event.toolCallId));
        if (!found) return;
        // Asked again on resume: what the card said about the interruption no longer holds.
        const { result: _result, endedAt: _endedAt, ...item } = found;
        const command = event.toolName === "execute" ? commandOf(event.args) : undefined;
        this.update({
          ...item,
          status: "awaiting_approval",
          title: toolTitle(item.toolName, event.args),
          args: prettyArgs(event.args),
          ...(event.proposal ? { proposal: proposalView(event.proposal, "pending") } : {}),
          ...(command !== undefined
            ? { exec: { command, output: "" }, alwaysAllow: alwaysAllowRules(command)?.join(", ") ?? null }
            : {}),
          ...(event.why ? { approvalReason: event.why } : {}),
          // Leaving the sandbox or reading a secret is asked each time; an inline edit is a task of one edit.
          ...(event.why || event.toolName === EDIT_SELECTION ? { alwaysAllow: null } : {}),
        });
        return;
      }
      case "approval_decided": {
        const item = this.tool(idOf(event.toolCallId));
        if (!item) return;
        if (event.decision === "reject") {
          const proposal = item.proposal
            ? { ...item.proposal, outcome: "rejected" as const, ...(event.reason ? { reason: event.reason } : {}) }
            : undefined;
          this.update({ ...item, status: "rejected", ...(proposal ? { proposal } : {}) });
        } else {
          const outcome: Proposal["outcome"] = event.decision === "edit" ? "approved_with_changes" : "approved";
          this.update({
            ...item,
            status: "running",
            ...(item.proposal ? { proposal: { ...item.proposal, outcome } } : {}),
          });
        }
        return;
      }
      case "tool_output": {
        const item = this.tool(idOf(event.toolCallId));
        if (!item) return;
        if (item.status === "streaming" || !item.exec) {
          this.update({
            ...item,
            status: "running",
            exec: item.exec ?? { command: commandOf(parseArgs(this.argText.get(item.id) ?? "")) ?? "", output: "" },
          });
        }
        this.emit({ type: "execOutput", id: item.id, chunk: event.chunk });
        return;
      }
      case "tool_call_finished":
        this.finishTool(idOf(event.toolCallId), event);
        return;
      case "todos_changed":
        if (!scope.parentId)
          this.emit({ type: "todos", todos: event.todos.map((t) => ({ content: t.content, status: t.status })) });
        return;
      case "usage":
        // Usage comes once the call's stream is over: its answer is complete (the run may still be finishing).
        this.closeAssistant(scope);
        this.onUsage(event, scope);
        return;
      case "hook_ran":
        // A small line per run: which hook, how long, what it decided (and why, or what went wrong).
        this.notice(
          event.decision === "failed" ? "warning" : "info",
          `Hook ${event.event}${event.toolName ? ` (${event.toolName})` : ""}: ${event.command.split("\n")[0]!.slice(0, 120)} · ${event.durationMs} ms · ${event.decision}${event.message ? ` — ${event.message.slice(0, 500)}` : ""}`,
          scope.parentId,
        );
        return;
      case "rules_loaded": {
        // Once per task, not on every message: the person needs to know, not to be reminded.
        const text = `Project rules loaded from ${event.files.join(", ")}.`;
        if (!scope.parentId && !this.state.items.some((i) => i.kind === "notice" && i.text === text))
          this.notice("info", text);
        const fresh = event.files.filter((f) => !this.state.rules.includes(f));
        if (fresh.length) this.emit({ type: "rules", rules: [...this.state.rules, ...fresh] });
        return;
      }
      case "warning":
        if (event.code === "model_retry") {
          this.setBanner({ level: "warning", message: event.message, retryable: false });
        } else if (event.code === "text_tool_calls") {
          // Said once per task in the chat (the log has every one): it explains the cards that follow.
          if (
            !scope.parentId &&
            !this.state.items.some((i) => i.kind === "notice" && i.text.startsWith(TEXT_CALLS_NOTICE))
          ) {
            this.notice("info", `${TEXT_CALLS_NOTICE}. ${event.message}`);
          }
        } else {
          this.notice(
            event.code === "dangling_tool_calls" || event.code === "summarized" || event.code === "continued"
              ? "info"
              : "warning",
            event.message,
            scope.parentId,
          );
        }
        return;
      case "error":
        if (scope.parentId) this.notice("error", event.message, scope.parentId);
        else this.setBanner(errorBanner(event.kind, event.message, this.state.model.provider));
        return;
      case "subagent":
        this.onEvent(event.event, idOf(event.toolCallId));
        return;
      case "done":
        this.closeAssistant(scope);
        return;
    }
  }

  private scope(key: string): Scope {
    let scope = this.scopes.get(key);
    if (!scope) {
      scope = { stepOpen: false, ...(key ? { parentId: key } : {}) };
      this.scopes.set(key, scope);
    }
    return scope;
  }

  private append(item: TranscriptItem, scope: Scope): void {
    this.emit({ type: "itemAppended", item, ...(scope.parentId ? { parentId: scope.parentId } : {}) });
  }

  private tool(id: string): ToolItem | undefined {
    const item = findItem(this.state.items, id);
    return item?.kind === "tool" ? item : undefined;
  }

  private update(item: TranscriptItem): void {
    this.emit({ type: "itemUpdated", item });
  }

  /** Text or reasoning into the scope's streaming answer (a new one when there is none). */
  private streamAnswer(scope: Scope, reasoning: boolean, text: string): void {
    if (scope.assistantId && findItem(this.state.items, scope.assistantId)) {
      this.emit({ type: reasoning ? "reasoningAppended" : "textAppended", id: scope.assistantId, text });
    } else {
      scope.assistantId = this.newId("a");
      this.append(
        {
          id: scope.assistantId,
          kind: "assistant",
          ...(reasoning ? { text: "", reasoning: text } : { text }),
          streaming: true,
        },
        scope,
      );
    }
  }

  private closeAssistant(scope: Scope): void {
    if (!scope.assistantId) return;
    const item = findItem(this.state.items, scope.assistantId);
    scope.assistantId = undefined;
    if (item?.kind === "assistant" && item.streaming) this.update({ ...item, streaming: false });
  }

  private onUsage(event: Extract<AgentEvent, { type: "usage" }>, scope: Scope): void {
    // Subagents' usage reaches the top level as the parent's own usage event when they finish.
    if (scope.parentId) return;
    const contextTokens = scope.stepOpen
      ? event.usage.inputTokens + event.usage.cacheReadTokens + event.usage.cacheWriteTokens + event.usage.outputTokens
      : this.state.usage.contextTokens;
    scope.stepOpen = false;
    this.emit({
      type: "usage",
      usage: {
        inputTokens: event.total.inputTokens,
        outputTokens: event.total.outputTokens,
        cacheReadTokens: event.total.cacheReadTokens,
        cacheWriteTokens: event.total.cacheWriteTokens,
        ...(this.options.priceKnown === false ? {} : { costUsd: event.costUsd }),
        contextTokens,
        contextWindow: this.options.contextWindow ?? this.state.usage.contextWindow,
      },
    });
    // The model's turn is over: the calls it made now run.
    for (const item of openToolItems(this.state.items)) {
      if (item.status === "streaming") this.update({ ...item, status: "running" });
    }
  }

  private finishTool(id: string, event: Extract<AgentEvent, { type: "tool_call_finished" }>): void {
    const item = this.tool(id);
    if (!item) return;
    const details = event.details ?? {};
    const status: ToolItem["status"] = !event.isError
      ? "done"
      : details.rejected === true || item.status === "rejected"
        ? "rejected"
        : details.cancelled === true
          ? "cancelled"
          : "failed";
    const next: ToolItem = {
      ...item,
      status,
      result: capResult(event.content),
      endedAt: this.now(),
      ...(event.args !== undefined
        ? { args: prettyArgs(event.args), title: toolTitle(item.toolName, event.args) }
        : {}),
    };
    const written = this.written.get(this.rawIdOf(id));
    if (written) {
      this.written.delete(this.rawIdOf(id));
      const before = item.proposal?.outcome;
      const outcome: Proposal["outcome"] =
        status === "failed"
          ? "failed"
          : before === "approved" || before === "approved_with_changes"
            ? before
            : "auto_applied";
      if (status !== "rejected") next.proposal = proposalView(written, outcome);
    } else if (item.proposal?.outcome === "approved" || item.proposal?.outcome === "approved_with_changes") {
      if (status === "failed") next.proposal = { ...item.proposal, outcome: "failed" };
    }
    if (item.toolName === "execute") {
      const streamed = item.exec?.output ?? "";
      next.exec = {
        command: item.exec?.command || commandOf(event.args) || "",
        output: streamed !== "" ? streamed : capResult(event.content),
        ...(typeof details.exitCode === "number" || details.exitCode === null
          ? { exitCode: details.exitCode as number | null }
          : {}),
        ...(typeof details.via === "string" ? { via: details.via } : {}),
        ...(details.timedOut === true ? { timedOut: true } : {}),
        ...(details.truncated === true || item.exec?.truncated ? { truncated: true } : {}),
      };
    }
    this.update(next);
  }
}
