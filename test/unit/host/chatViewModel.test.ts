import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core";
import {
  HostToWebviewChatSchema,
  initialChatState,
  reduceChat,
  type HostToWebviewChat,
  type ToolItem,
} from "../../../src/protocol";
import { ChatViewModel, STREAMED_ARGS_POST_MS } from "../../../src/host/viewModel/chatViewModel";
import { errorBanner } from "../../../src/host/viewModel/errorBanner";
import { proposalView } from "../../../src/host/viewModel/proposalView";
import { toolTitle } from "../../../src/host/viewModel/toolTitles";

function setup() {
  const sent: HostToWebviewChat[] = [];
  const reducer = new ChatViewModel(initialChatState(), (m) => sent.push(structuredClone(m)), {
    now: () => 1000,
    contextWindow: 128_000,
    priceKnown: true,
  });
  return { reducer, sent, feed: (...events: AgentEvent[]) => events.forEach((e) => reducer.onEvent(e)) };
}

const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe("AgentEvent → chat state", () => {
  it("titles tool calls in words", () => {
    assert.equal(toolTitle("read_file", { file_path: "/src/app.ts" }), "Reading /src/app.ts");
    assert.equal(toolTitle("execute", { command: "npm test" }), "Running `npm test`");
    assert.equal(
      toolTitle("execute", { command: "npm test\nrm -rf x" }),
      "Running `npm test ↵ rm -rf x`",
      "a second line stays visible",
    );
    assert.equal(toolTitle("grep", { pattern: "TODO", path: "/src" }), "Searching for `TODO` in /src");
    assert.equal(
      toolTitle("task", { subagent_type: "general-purpose", description: "Find the bug" }),
      "Asking the general-purpose subagent: Find the bug",
    );
    assert.equal(toolTitle("read_file", {}), "Reading a file");
    assert.equal(
      toolTitle("report_finding", { file: "src/a.ts", line: 12, severity: "bug", title: "Off by one" }),
      "Reporting a bug at src/a.ts:12: Off by one",
    );
    assert.equal(toolTitle("report_finding", {}), "Reporting a finding");
  });

  it("streams text into one assistant item and closes it at the next step", () => {
    const { reducer, sent, feed } = setup();
    feed(
      { type: "step_started", step: 1 },
      { type: "text_delta", text: "Hel" },
      { type: "text_delta", text: "lo" },
      { type: "step_started", step: 2 },
    );
    assert.deepEqual(
      sent.map((m) => m.type),
      ["itemAppended", "textAppended", "itemUpdated"],
    );
    const item = reducer.state.items[0]!;
    assert.ok(item.kind === "assistant" && item.text === "Hello" && !item.streaming);
  });

  it("an answer is complete once its call's usage comes, before the run ends", () => {
    const { reducer, feed } = setup();
    const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
    feed({ type: "step_started", step: 1 }, { type: "text_delta", text: "Done." });
    assert.equal((reducer.state.items[0] as { streaming: boolean }).streaming, true);
    feed({ type: "usage", usage, total: usage, costUsd: 0 });
    assert.equal((reducer.state.items[0] as { streaming: boolean }).streaming, false);
  });

  it("a tool card goes streaming → running → done, with its title from the streamed arguments", () => {
    const { reducer, feed } = setup();
    feed(
      { type: "step_started", step: 1 },
      { type: "tool_call_started", toolCallId: "c1", toolName: "read_file" },
      { type: "tool_call_arguments", toolCallId: "c1", delta: '{"file_path":' },
      { type: "tool_call_arguments", toolCallId: "c1", delta: '"/a.ts"}' },
    );
    let card = reducer.state.items[0] as ToolItem;
    assert.equal(card.status, "streaming");
    assert.equal(card.title, "Reading /a.ts");
    feed({ type: "usage", usage, total: usage, costUsd: 0.01 });
    assert.equal((reducer.state.items[0] as ToolItem).status, "running");
    assert.equal(reducer.state.usage.contextTokens, 120);
    assert.equal(reducer.state.usage.costUsd, 0.01);
    feed({
      type: "tool_call_finished",
      toolCallId: "c1",
      toolName: "read_file",
      args: { file_path: "/a.ts" },
      content: "     1\tx",
      isError: false,
    });
    card = reducer.state.items[0] as ToolItem;
    assert.equal(card.status, "done");
    assert.equal(card.result, "     1\tx");
  });

  it("sends a card's streamed arguments at most every STREAMED_ARGS_POST_MS, and before anything that follows", async () => {
    const { reducer, sent, feed } = setup();
    let view = initialChatState();
    const chunks = ['{"file_path":"/a.ts",', '"old_string":"a",', '"new_string":"b"}'];
    feed(
      { type: "tool_call_started", toolCallId: "e", toolName: "edit_file" },
      ...chunks.map((delta) => ({ type: "tool_call_arguments" as const, toolCallId: "e", delta })),
    );
    // The host's state has them at once; the view gets nothing yet.
    assert.equal((reducer.state.items[0] as ToolItem).title, toolTitle("edit_file", { file_path: "/a.ts" }));
    assert.deepEqual(
      sent.map((m) => m.type),
      ["itemAppended"],
    );
    await new Promise((r) => setTimeout(r, STREAMED_ARGS_POST_MS + 50));
    assert.deepEqual(
      sent.map((m) => m.type),
      ["itemAppended", "itemUpdated"],
      "one update for three chunks",
    );
    feed({ type: "tool_call_arguments", toolCallId: "e", delta: " " }, { type: "text_delta", text: "x" });
    // A held update goes out before the message after it; one the next message replaces is dropped.
    assert.deepEqual(
      sent.slice(2).map((m) => m.type),
      ["itemUpdated", "itemAppended"],
    );
    feed(
      { type: "tool_call_arguments", toolCallId: "e", delta: "" },
      {
        type: "approval_requested",
        toolCallId: "e",
        toolName: "edit_file",
        kind: "edit",
        args: { file_path: "/a.ts", old_string: "a", new_string: "b" },
      },
    );
    assert.deepEqual(
      sent.slice(4).map((m) => m.type),
      ["itemUpdated"],
    );
    for (const m of sent) view = reduceChat(view, m);
    assert.deepEqual(view.items, reducer.state.items, "the view ends up where the host is");
  });

  it("streams command output into the execute card and keeps exit code and how it ran", () => {
    const { reducer, sent, feed } = setup();
    feed(
      { type: "tool_call_started", toolCallId: "x", toolName: "execute" },
      { type: "tool_call_arguments", toolCallId: "x", delta: '{"command":"npm test"}' },
      {
        type: "approval_requested",
        toolCallId: "x",
        toolName: "execute",
        kind: "execute",
        args: { command: "npm test" },
      },
      { type: "approval_decided", toolCallId: "x", toolName: "execute", decision: "approve" },
      { type: "tool_output", toolCallId: "x", chunk: "ok 1\n" },
      { type: "tool_output", toolCallId: "x", chunk: "ok 2\n" },
      {
        type: "tool_call_finished",
        toolCallId: "x",
        toolName: "execute",
        args: { command: "npm test" },
        content: "ok 1\nok 2\n\n[Exit code: 1]",
        isError: true,
        details: { exitCode: 1, via: "terminal (shell integration)" },
      },
    );
    assert.equal(sent.filter((m) => m.type === "execOutput").length, 2);
    const card = reducer.state.items[0] as ToolItem;
    assert.equal(card.title, "Running `npm test`");
    assert.equal(card.status, "failed");
    assert.deepEqual(card.exec, {
      command: "npm test",
      output: "ok 1\nok 2\n",
      exitCode: 1,
      via: "terminal (shell integration)",
    });
  });

  it("says why a call is asked, and offers no Always allow for it", () => {
    const { reducer, feed } = setup();
    feed(
      { type: "tool_call_started", toolCallId: "u", toolName: "execute" },
      {
        type: "approval_requested",
        toolCallId: "u",
        toolName: "execute",
        kind: "execute",
        args: { command: "make deploy", sandbox: false },
        why: "It asks to run outside the OS sandbox.",
      },
      { type: "tool_call_started", toolCallId: "p", toolName: "execute" },
      {
        type: "approval_requested",
        toolCallId: "p",
        toolName: "execute",
        kind: "execute",
        args: { command: "npm test" },
      },
    );
    const [outside, plain] = reducer.state.items as ToolItem[];
    assert.equal(outside!.approvalReason, "It asks to run outside the OS sandbox.");
    assert.equal(outside!.alwaysAllow, null);
    assert.equal(plain!.approvalReason, undefined);
    assert.equal(plain!.alwaysAllow, "npm test");
  });

  it("shows a proposal as a diff card with counts, and its outcome", () => {
    const view = proposalView({ path: "/a.ts", before: "one\ntwo\n", after: "one\n2\nthree\n" }, "pending");
    assert.equal(view.added, 2);
    assert.equal(view.removed, 1);
    assert.equal(view.isNewFile, false);
    assert.match(view.diff, /^--- a\/a.ts\n\+\+\+ b\/a.ts\n@@ -1,2 \+1,3 @@\n one\n-two\n\+2\n\+three$/);
    assert.equal(view.memory, undefined);
    assert.match(
      proposalView({ path: "/new.ts", before: null, after: "x\n" }, "pending").diff,
      /\n@@ -0,0 \+1,1 @@\n\+x$/,
      "a new file's hunk starts at 0, as unified diffs write it",
    );
    const long = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const memory = proposalView(
      { path: "/memories/notes.md", before: `${long}\n`, after: `${long}\nline 20\n` },
      "pending",
    );
    assert.equal(memory.memory, true);
    assert.match(memory.diff, /\n line 0\n[\s\S]*\n line 19\n\+line 20$/, "a memory's card holds its whole text");
    const { reducer, feed } = setup();
    feed(
      { type: "tool_call_started", toolCallId: "e", toolName: "edit_file" },
      {
        type: "approval_requested",
        toolCallId: "e",
        toolName: "edit_file",
        kind: "edit",
        args: { file_path: "/a.ts" },
        proposal: { path: "/a.ts", before: "one\n", after: "two\n" },
      },
      { type: "approval_decided", toolCallId: "e", toolName: "edit_file", decision: "reject", reason: "no" },
      {
        type: "tool_call_finished",
        toolCallId: "e",
        toolName: "edit_file",
        args: { file_path: "/a.ts" },
        content: "rejected",
        isError: true,
        details: { rejected: true },
      },
    );
    const card = reducer.state.items[0] as ToolItem;
    assert.equal(card.status, "rejected");
    assert.deepEqual([card.proposal?.outcome, card.proposal?.reason], ["rejected", "no"]);
  });

  it("an auto-applied edit gets its diff card from what was written", () => {
    const { reducer, feed } = setup();
    feed({ type: "tool_call_started", toolCallId: "w", toolName: "write_file" });
    reducer.recordProposal("w", { path: "/n.txt", before: null, after: "a\n" });
    feed({
      type: "tool_call_finished",
      toolCallId: "w",
      toolName: "write_file",
      args: { file_path: "/n.txt", content: "a\n" },
      content: "Created",
      isError: false,
    });
    const card = reducer.state.items[0] as ToolItem;
    assert.equal(card.proposal?.outcome, "auto_applied");
    assert.equal(card.proposal?.isNewFile, true);
  });

  it("nests a subagent's activity in its task card, with distinct ids", () => {
    const { reducer, sent, feed } = setup();
    feed(
      { type: "tool_call_started", toolCallId: "t1", toolName: "task" },
      {
        type: "subagent",
        toolCallId: "t1",
        subagentType: "general-purpose",
        event: { type: "text_delta", text: "Looking" },
      },
      {
        type: "subagent",
        toolCallId: "t1",
        subagentType: "general-purpose",
        event: { type: "tool_call_started", toolCallId: "c1", toolName: "ls" },
      },
      {
        type: "subagent",
        toolCallId: "t1",
        subagentType: "general-purpose",
        event: {
          type: "tool_call_finished",
          toolCallId: "c1",
          toolName: "ls",
          args: { path: "/" },
          content: "a.ts",
          isError: false,
        },
      },
      {
        type: "subagent",
        toolCallId: "t1",
        subagentType: "general-purpose",
        event: { type: "usage", usage, total: usage, costUsd: 1 },
      },
    );
    const task = reducer.state.items[0] as ToolItem;
    assert.equal(reducer.state.items.length, 1);
    assert.deepEqual(
      task.children?.map((c) => [c.kind, c.id.startsWith("t1/") || c.kind === "assistant"]),
      [
        ["assistant", true],
        ["tool", true],
      ],
    );
    assert.equal((task.children![1] as ToolItem).status, "done");
    assert.equal(reducer.rawIdOf("t1/c1"), "c1");
    assert.equal(reducer.state.usage.inputTokens, 0, "a subagent's own usage is not the task's");
    for (const m of sent) assert.ok(HostToWebviewChatSchema.safeParse(m).success, `valid: ${m.type}`);
  });

  it("the host's state equals what the webview builds from the messages", () => {
    const { reducer, sent, feed } = setup();
    reducer.appendUser("go");
    feed(
      { type: "step_started", step: 1 },
      { type: "text_delta", text: "Plan" },
      { type: "tool_call_started", toolCallId: "t1", toolName: "task" },
      { type: "subagent", toolCallId: "t1", subagentType: "gp", event: { type: "text_delta", text: "sub" } },
      { type: "todos_changed", todos: [{ content: "a", status: "pending" }] },
    );
    let replay = initialChatState();
    for (const m of sent) replay = reduceChat(replay, m);
    assert.deepEqual(replay, reducer.state);
  });

  it("errors become a banner with the fix", () => {
    assert.deepEqual(errorBanner("auth", "Set your key"), {
      level: "error",
      message: "Set your key",
      retryable: false,
      action: "fathom.setApiKey",
      actionLabel: "Set API Key",
    });
    assert.equal(
      errorBanner("auth", "Refused", "vscode").retryable,
      true,
      "VS Code's models take no key of ours: trying again is the fix",
    );
    assert.equal(errorBanner("network", "x").retryable, true);
    assert.equal(errorBanner("not_found", "x").action, "fathom.openSettings");
    assert.equal(errorBanner("network", "x").action, undefined);
  });
});
