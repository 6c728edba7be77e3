// Diffs opened while the model writes an edit (EarlyDiffs), without VS Code: which calls get one,
// when (as soon as file_path has streamed in), under which gate id, and when they are dropped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core";
import { EarlyDiffs, PREVIEW_MS, streamedFilePath, type EarlyDiffOptions } from "../../../src/host/tasks/earlyDiffs";
import type { SessionGate } from "../../../src/host/wiring/sessionGate";

function harness(files: Record<string, string | null>, overrides: Partial<EarlyDiffOptions> = {}) {
  const calls: string[] = [];
  const reads: string[] = [];
  const gate: SessionGate = {
    request: () => Promise.resolve({ type: "approve" }),
    decide: () => undefined,
    prepare: (id, path, before, title) => calls.push(`prepare ${id} ${path} ${JSON.stringify(before)} ${title}`),
    previewPrepared: (id, after) => calls.push(`preview ${id} ${JSON.stringify(after)}`),
    drop: (id) => calls.push(`drop ${id}`),
  };
  const early = new EarlyDiffs({
    gate,
    key: (id) => `task1::${id}`,
    read: async (path) => {
      reads.push(path);
      return path in files ? files[path] : undefined;
    },
    asks: () => true,
    secretFiles: [],
    taskTitle: () => "Fix it",
    ...overrides,
  });
  /** Streams a call's arguments in pieces of `size` characters. */
  const stream = (id: string, toolName: string, args: object, size = 5) => {
    early.onEvent({ type: "tool_call_started", toolCallId: id, toolName });
    const text = JSON.stringify(args);
    for (let i = 0; i < text.length; i += size)
      early.onEvent({ type: "tool_call_arguments", toolCallId: id, delta: text.slice(i, i + size) });
  };
  const finished = (id: string, toolName = "edit_file") =>
    early.onEvent({ type: "tool_call_finished", toolCallId: id, toolName, args: {}, content: "", isError: false });
  return { early, calls, reads, stream, finished };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("streamedFilePath", () => {
  it("reads file_path once its string has ended, escapes decoded; not before, not from inside another string", () => {
    assert.equal(streamedFilePath('{"file_path": "/src/a.ts"'), "/src/a.ts");
    assert.equal(streamedFilePath('{"file_path":"/src/a.t'), undefined);
    assert.equal(streamedFilePath('{"file_path": "/src/\\u00e9t\\"e.ts", "old_str'), '/src/ét"e.ts');
    assert.equal(streamedFilePath('{"content": "see \\"file_path\\": \\"/etc/passwd\\" here'), undefined);
    assert.equal(streamedFilePath('{"file_path": ""}'), undefined);
  });
});

describe("EarlyDiffs", () => {
  it("opens the diff as soon as the path has streamed in, before the rest of the arguments, under the request's gate id", async () => {
    const h = harness({ "/src/a.ts": "const a = 1;\n" });
    h.early.onEvent({ type: "tool_call_started", toolCallId: "c1", toolName: "edit_file" });
    h.early.onEvent({ type: "tool_call_arguments", toolCallId: "c1", delta: '{"file_path": "src/a' });
    await tick();
    assert.deepEqual(h.calls, []);
    h.early.onEvent({ type: "tool_call_arguments", toolCallId: "c1", delta: '.ts", "old_string": "const a' });
    await tick();
    assert.deepEqual(
      h.calls,
      ['prepare task1::c1 /src/a.ts "const a = 1;\\n" Fix it'],
      "the path normalized as the tools do",
    );
    h.early.onEvent({ type: "tool_call_arguments", toolCallId: "c1", delta: ' = 1", "new_string": "const a = 2"}' });
    await tick();
    assert.equal(h.reads.length, 1, "read once");
    h.finished("c1");
    assert.deepEqual(
      h.calls.at(-1),
      "drop task1::c1",
      "a finished call's prepared diff is let go (the gate ignores it once a request took it)",
    );
  });

  it("a new file for write_file; no early diff for an edit of a missing file, a refused or secret path, or a tool the person is not asked about", async () => {
    const h = harness({ "/new.txt": null, "/missing.txt": null, "/.env": "KEY=1\n" });
    h.stream("w1", "write_file", { file_path: "/new.txt", content: "hello" });
    h.stream("e1", "edit_file", { file_path: "/missing.txt", old_string: "a", new_string: "b" });
    h.stream("e2", "edit_file", { file_path: "/.env", old_string: "1", new_string: "2" });
    h.stream("e3", "edit_file", { file_path: "/outside/../../etc/passwd", old_string: "1", new_string: "2" });
    h.stream("r1", "read_file", { file_path: "/new.txt" });
    h.stream("m1", "write_file", { file_path: "/memories/style.md", content: "Use tabs" });
    await tick();
    assert.deepEqual(h.calls, ["prepare task1::w1 /new.txt null Fix it"]);
    assert.deepEqual(
      h.reads,
      ["/new.txt", "/missing.txt"],
      "a secret or refused path, or a memory (not a workspace file), is not even read",
    );

    const auto = harness({ "/a.txt": "a" }, { asks: (tool) => tool !== "edit_file" });
    auto.stream("e4", "edit_file", { file_path: "/a.txt", old_string: "a", new_string: "b" });
    await tick();
    assert.deepEqual(auto.calls, [], "auto-approved edits open no diff");

    const unwritable = harness({});
    unwritable.stream("e5", "edit_file", { file_path: "/ignored.txt", old_string: "a", new_string: "b" });
    await tick();
    assert.deepEqual(unwritable.calls, [], "a file the task may not write (read says undefined) opens none");
  });

  it("a call that ends while its file is read gets none; the run's end drops what is still open; subagents' calls are theirs", async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const h = harness({}, { read: async () => (await slow, "text") });
    h.stream("c1", "edit_file", { file_path: "/a.txt", old_string: "t", new_string: "T" });
    h.finished("c1");
    release();
    await tick();
    await tick();
    assert.deepEqual(h.calls, ["drop task1::c1"]);

    const g = harness({ "/b.txt": "b" });
    g.stream("c2", "edit_file", { file_path: "/b.txt", old_string: "b", new_string: "B" });
    g.early.onEvent({
      type: "subagent",
      toolCallId: "task9",
      subagentType: "general-purpose",
      event: { type: "tool_call_started", toolCallId: "s1", toolName: "edit_file" },
    } as AgentEvent);
    await tick();
    g.early.onEvent({ type: "done", reason: "cancelled" } as AgentEvent);
    assert.deepEqual(g.calls, ['prepare task1::c2 /b.txt "b" Fix it', "drop task1::c2"]);
  });

  it("the right side follows an inline edit's answer as it streams, at most every 100 ms, until the call ends", async () => {
    const h = harness({ "/a.js": "one\ntwo\nthree\n", "/new.txt": null });
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    h.early.onEvent({ type: "tool_call_started", toolCallId: "i1", toolName: "edit_selection" });
    const piece = (delta: string) => h.early.onEvent({ type: "tool_call_arguments", toolCallId: "i1", delta });
    piece('{"file_path":"/a.js","start_line":2,"end_line":2,"file_version":"f","answer":"');
    await tick();
    assert.deepEqual(
      h.calls,
      ['prepare task1::i1 /a.js "one\\ntwo\\nthree\\n" Fix it'],
      "the diff opens before the answer",
    );
    piece("```js\\nTW");
    piece("O\\n");
    await wait(PREVIEW_MS + 50);
    piece("2\\n```");
    await wait(PREVIEW_MS + 50);
    assert.deepEqual(
      h.calls.slice(1),
      ['preview task1::i1 "one\\nTWO\\nthree\\n"', 'preview task1::i1 "one\\nTWO\\n2\\nthree\\n"'],
      "one preview per interval, fence held back",
    );
    piece('"}');
    h.finished("i1", "edit_selection");
    await wait(PREVIEW_MS + 50);
    assert.equal(h.calls.at(-1), "drop task1::i1", "nothing after the call ended");

    h.stream("w1", "write_file", { file_path: "/new.txt", content: "hello world" }, 4);
    await wait(PREVIEW_MS + 50);
    assert.equal(h.calls.at(-1), "prepare task1::w1 /new.txt null Fix it", "write_file's content is not previewed");
  });
});
