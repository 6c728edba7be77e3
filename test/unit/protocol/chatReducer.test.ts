import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core";
import {
  MAX_CARD_OUTPUT_CHARS,
  initialChatState,
  reduceChat,
  type HostToWebviewChat,
  type ToolItem,
} from "../../../src/protocol";
import { ChatViewModel } from "../../../src/host/viewModel/chatViewModel";
import { emptyView, reduce } from "../../../webview-ui/src/state/chatReducer";

const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A task's worth of events: text, reasoning, a subagent, an approval, streamed output past the cap, todos, usage. */
const events: AgentEvent[] = [
  { type: "step_started", step: 1 },
  { type: "reasoning_delta", text: "Think" },
  { type: "text_delta", text: "Let me " },
  { type: "text_delta", text: "look." },
  { type: "tool_call_started", toolCallId: "t1", toolName: "task" },
  { type: "subagent", toolCallId: "t1", subagentType: "gp", event: { type: "text_delta", text: "sub" } },
  {
    type: "subagent",
    toolCallId: "t1",
    subagentType: "gp",
    event: { type: "tool_call_started", toolCallId: "r1", toolName: "read_file" },
  },
  { type: "tool_call_started", toolCallId: "x", toolName: "execute" },
  { type: "approval_requested", toolCallId: "x", toolName: "execute", kind: "execute", args: { command: "npm test" } },
  { type: "approval_decided", toolCallId: "x", toolName: "execute", decision: "approve" },
  { type: "tool_output", toolCallId: "x", chunk: "a".repeat(MAX_CARD_OUTPUT_CHARS - 10) },
  { type: "tool_output", toolCallId: "x", chunk: "b".repeat(20) },
  { type: "tool_output", toolCallId: "x", chunk: "c" },
  {
    type: "tool_call_finished",
    toolCallId: "x",
    toolName: "execute",
    args: { command: "npm test" },
    content: "done",
    isError: false,
    details: { exitCode: 0 },
  },
  { type: "todos_changed", todos: [{ content: "a", status: "pending" }] },
  { type: "usage", usage, total: usage, costUsd: 0.01 },
  { type: "warning", code: "model_retry", message: "Retrying" },
  { type: "done", reason: "completed", finalText: "ok", state: undefined as never },
];

describe("one chat reducer for the host and the webview", () => {
  it("the host's view model and the webview reach the same chat state from the same messages", () => {
    let view = reduce(emptyView, { type: "state", state: initialChatState() });
    const host = new ChatViewModel(initialChatState(), (m) => (view = reduce(view, structuredClone(m))), {
      now: () => 1000,
      contextWindow: 128_000,
      priceKnown: true,
    });
    host.appendUser("go");
    for (const event of events) host.onEvent(event);
    host.emit({ type: "status", status: "completed", title: "Go" });
    host.emit({ type: "queued", queued: ["next"] });
    host.flush();
    assert.deepEqual(view.chat, host.state);
    const card = host.state.items.find((i): i is ToolItem => i.id === "x");
    assert.equal(card?.exec?.output.length, MAX_CARD_OUTPUT_CHARS);
    assert.equal(card?.exec?.truncated, true, "the oldest output was dropped, and the card says so");
  });

  it("sets `truncated` only once output was dropped, and keeps it", () => {
    const tool: ToolItem = {
      id: "x",
      kind: "tool",
      toolName: "execute",
      title: "Running",
      args: "",
      status: "running",
      startedAt: 0,
      exec: { command: "ls", output: "" },
    };
    const start = { ...initialChatState(), items: [tool] };
    const chunk = (text: string): HostToWebviewChat => ({ type: "execOutput", id: "x", chunk: text });
    const exec = (s: ReturnType<typeof reduceChat>) => (s.items[0] as ToolItem).exec!;
    const small = reduceChat(start, chunk("hi"));
    assert.deepEqual(exec(small), { command: "ls", output: "hi" }, "nothing dropped: no flag at all");
    const cut = reduceChat(small, chunk("x".repeat(MAX_CARD_OUTPUT_CHARS)));
    assert.equal(exec(cut).truncated, true);
    assert.equal(exec(reduceChat(cut, chunk("y"))).truncated, true);
    assert.equal(start.items[0], tool, "the input state is never changed");
  });

  it("returns the same state for a message about something else, or an unknown item", () => {
    const state = initialChatState();
    assert.equal(reduceChat(state, { type: "composerText", text: "x" }), state);
    assert.equal(reduceChat(state, { type: "textAppended", id: "nope", text: "x" }), state);
  });

  it("keeps an item whose parent is unknown at the top level", () => {
    const next = reduceChat(initialChatState(), {
      type: "itemAppended",
      item: { id: "n", kind: "notice", level: "info", text: "hi" },
      parentId: "gone",
    });
    assert.deepEqual(
      next.items.map((i) => i.id),
      ["n"],
    );
  });
});
