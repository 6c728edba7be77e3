/**
 * The `vscode` provider at its seam: Fathom's adapter over VS Code's Language Model API, driven
 * by a fake of that API (test/support/fakeLmApi.ts). The same adapter runs against a real
 * provider extension in code-server (test/vscode/suite/vscodeLm.test.ts).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ChildProcessExecutor, createAgent, FilesystemBackend, type ChatMessage } from "../../../src/core";
import { VscodeLmModel } from "../../../src/host/models/vscodeLmModel";
import { NO_VSCODE_MODELS, VscodeModels } from "../../../src/host/models/vscodeModels";
import { collect, ofType, request } from "../model/helpers";
import { collect as collectAgent, ofType as agentOfType } from "../../support/agentTestKit";
import { Data, FakeChat, fakeLmApi, LmError, Message, Text, ToolCall, ToolResult } from "../../support/fakeLmApi";

describe("VscodeLmModel", () => {
  it("streams text, asks with the tools and the consent justification, and counts tokens with the model", async () => {
    const chat = new FakeChat("fake-model", [{ text: ["Hel", "lo", "!"] }]);
    const model = new VscodeLmModel({ api: fakeLmApi([chat]), chat });
    const run = await collect(model.stream(request()));
    assert.equal(run.error, undefined, run.error?.message);
    assert.equal(run.text, "Hello!");
    assert.equal(ofType(run, "text_delta").length, 3);
    assert.equal(run.done?.stopReason, "end_turn");
    const sent = chat.requests[0]!;
    assert.deepEqual(
      sent.options?.tools?.map((t) => t.name),
      ["read_file", "ls"],
    );
    assert.equal(sent.options?.toolMode, 1);
    assert.match(sent.options!.justification!, /Fathom/);
    // Tokens from the model's own countTokens: every message, and the answer.
    assert.equal(chat.countCalls, sent.messages.length + 1);
    assert.ok(run.done!.usage.inputTokens > 0 && run.done!.usage.outputTokens > 0);
    assert.equal(run.done?.usageEstimated, undefined);
    assert.equal(model.contextWindow, 64_000);
    assert.equal(
      model.costOf({ inputTokens: 1e6, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }),
      undefined,
      "paid through a plan: no price",
    );
  });

  it("turns tool-call parts into calls, and sends the conversation in the API's shape", async () => {
    const chat = new FakeChat("fake-model", [
      { text: ["Looking."], toolCalls: [{ callId: "c1", name: "read_file", input: { file_path: "/a.ts" } }] },
    ]);
    const model = new VscodeLmModel({ api: fakeLmApi([chat]), chat });
    const history: ChatMessage[] = [
      { role: "user", content: "Hello" },
      {
        role: "assistant",
        content: "Reading both.",
        toolCalls: [
          { id: "t1", name: "ls", arguments: '{"path":"/"}' },
          { id: "t2", name: "read_file", arguments: "{bad" },
        ],
      },
      { role: "tool", toolCallId: "t1", toolName: "ls", content: "a.ts" },
      { role: "tool", toolCallId: "t2", toolName: "read_file", content: "Error: invalid JSON", isError: true },
    ];
    const run = await collect(model.stream(request({ messages: history })));
    assert.deepEqual(run.done?.message.toolCalls, [
      { id: "c1", name: "read_file", arguments: '{"file_path":"/a.ts"}' },
    ]);
    assert.equal(run.done?.stopReason, "tool_use");
    const messages = chat.requests[0]!.messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "user"],
    );
    // The system prompt opens the first user message (the stable API has no system role).
    assert.deepEqual(messages[0]!.content, [new Text("You are Fathom."), new Text("Hello")]);
    assert.deepEqual(messages[1]!.content, [
      new Text("Reading both."),
      new ToolCall("t1", "ls", { path: "/" }),
      new ToolCall("t2", "read_file", {}),
    ]);
    assert.deepEqual(messages[2]!.content, [
      new ToolResult("t1", [new Text("a.ts")]),
      new ToolResult("t2", [new Text("Error: invalid JSON")]),
    ]);
  });

  it("sends the person's images as data parts only to a model that reads them", async () => {
    const image = { mimeType: "image/png", data: Buffer.from("PNGDATA").toString("base64") };
    const messages: ChatMessage[] = [{ role: "user", content: "What is this?", images: [image] }];
    const seeing = new FakeChat("vision", [{ text: ["a"] }], "fake", 64_000, {
      supportsImageToText: true,
      supportsToolCalling: true,
    });
    await collect(new VscodeLmModel({ api: fakeLmApi([seeing]), chat: seeing }).stream(request({ messages })));
    const parts = seeing.requests[0]!.messages[0]!.content;
    const data = parts.find((p): p is Data => p instanceof Data);
    assert.equal(data?.mimeType, "image/png");
    assert.equal(Buffer.from(data!.data).toString(), "PNGDATA");

    const blind = new FakeChat("text-only", [{ text: ["b"] }]);
    await collect(new VscodeLmModel({ api: fakeLmApi([blind]), chat: blind }).stream(request({ messages })));
    const blindParts = blind.requests[0]!.messages[0]!.content;
    assert.ok(!blindParts.some((p) => p instanceof Data));
    assert.match((blindParts.at(-1) as Text).value, /The person attached 1 image that is not shown/);
  });

  it("says what to do when consent is refused, the model is gone or blocked, and when a stream breaks", async () => {
    const cases: [LmError, RegExp, string][] = [
      [
        new LmError("NoPermissions", "consent"),
        /VS Code did not give Fathom access to fake-model \(fake\).*choose Allow when VS Code asks/,
        "auth",
      ],
      [new LmError("NotFound", "gone"), /no longer available in VS Code.*Pick another model/, "not_found"],
      [new LmError("Blocked", "quota"), /blocked or over its quota/, "rate_limited"],
    ];
    for (const [error, message, kind] of cases) {
      const chat = new FakeChat("fake-model", [{ error }]);
      const run = await collect(new VscodeLmModel({ api: fakeLmApi([chat]), chat }).stream(request()));
      assert.equal(run.error?.kind, kind);
      assert.match(run.error!.message, message);
      assert.equal(chat.requests.length, 1, "not retried: retrying would not change the answer");
    }
    const broken = new FakeChat("fake-model", [{ error: new LmError("Unknown", "connection reset"), midStream: true }]);
    const run = await collect(new VscodeLmModel({ api: fakeLmApi([broken]), chat: broken }).stream(request()));
    assert.match(run.error!.message, /fake-model \(fake\) failed: connection reset/);
  });

  it("cancels VS Code's request when the task is cancelled", async () => {
    const chat = new FakeChat("fake-model", [{ text: Array.from({ length: 200 }, () => "x") }]);
    const api = fakeLmApi([chat]);
    const controller = new AbortController();
    const run = await collect(new VscodeLmModel({ api, chat }).stream(request({ signal: controller.signal })), (ev) => {
      if (ev.type === "text_delta") controller.abort();
    });
    assert.equal(run.error?.kind, "cancelled");
    assert.equal(api.cancelled, 1);
  });

  it("a whole task with an edit and a command runs through it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fathom-lm-"));
    const chat = new FakeChat("fake-model", [
      {
        toolCalls: [
          { callId: "w", name: "write_file", input: { file_path: "/note.txt", content: "from the LM API\n" } },
        ],
      },
      { toolCalls: [{ callId: "x", name: "execute", input: { command: "cat note.txt" } }] },
      { text: ["Wrote note.txt and read it back."] },
    ]);
    const models = new VscodeModels(fakeLmApi([chat]));
    assert.ok("chat" in (await models.resolve("")));
    const agent = createAgent({
      model: models.create("", {}),
      workspaceRoot: dir,
      backend: new FilesystemBackend({ rootDir: dir }),
      executor: new ChildProcessExecutor(),
      approvalPolicy: { edit: "auto", execute: "auto" },
    });
    const { events, done } = await collectAgent(agent, "write a note");
    assert.equal(done.reason, "completed", done.message);
    assert.equal(readFileSync(path.join(dir, "note.txt"), "utf8"), "from the LM API\n");
    assert.match(
      agentOfType(events, "tool_call_finished").find((e) => e.toolName === "execute")!.content,
      /^from the LM API/,
    );
    // The command's output went back to the model as a tool-result part.
    const last = chat.requests[2]!.messages.at(-1)!;
    const result = last.content[0] as ToolResult;
    assert.equal(result.callId, "x");
    assert.match((result.content[0] as Text).value, /from the LM API/);
    assert.ok(done.state.usage.inputTokens > 0);
  });
});

describe("VscodeModels", () => {
  const a = new FakeChat(
    "gpt-4o",
    [],
    "copilot",
    128_000,
    { supportsImageToText: true, supportsToolCalling: true },
    "GPT-4o",
  );
  const b = new FakeChat("gpt-4o", [], "other");
  const c = new FakeChat("tiny", [], "local", 4_096, { supportsImageToText: false, supportsToolCalling: false });

  it("says clearly when VS Code has no model, when the one set is missing, and when the API is too old", async () => {
    assert.deepEqual(await new VscodeModels(fakeLmApi([])).resolve(""), {
      problem: { message: NO_VSCODE_MODELS, action: "fathom.openSettings", actionLabel: "Open Settings" },
    });
    const missing = await new VscodeModels(fakeLmApi([a, c])).resolve("claude-opus");
    assert.match(
      (missing as { problem: { message: string } }).problem.message,
      /"claude-opus" is not available in VS Code \(it offers gpt-4o, tiny\)/,
    );
    const old = await new VscodeModels("This VS Code has no tool calling in its Language Model API").resolve("");
    assert.match((old as { problem: { message: string } }).problem.message, /no tool calling/);
  });

  it("finds a model by id, vendor/id or name; lists them with context window, images and tools", async () => {
    const models = new VscodeModels(fakeLmApi([a, b, c]));
    assert.equal(((await models.resolve("other/gpt-4o")) as { chat: FakeChat }).chat, b);
    assert.equal(((await models.resolve("GPT-4o")) as { chat: FakeChat }).chat, a);
    const list = await models.list();
    assert.deepEqual(
      list.models.map((m) => m.id),
      ["copilot/gpt-4o", "other/gpt-4o", "tiny"],
    );
    assert.deepEqual(list.models[0], {
      id: "copilot/gpt-4o",
      name: "GPT-4o (copilot)",
      contextWindow: 128_000,
      images: true,
      tools: true,
    });
    assert.equal(list.error, undefined);
    assert.equal((await new VscodeModels(fakeLmApi([])).list()).error, NO_VSCODE_MODELS);
  });

  it("a model that says it has no tool calling gets its tools in the prompt; overrides apply", async () => {
    const models = new VscodeModels(fakeLmApi([c]));
    await models.refresh();
    const tiny = models.create("tiny", { tiny: { contextWindow: 8_192, price: { input: 1, output: 2 } } });
    assert.equal((tiny as unknown as { toolCallMode: string }).toolCallMode, "text");
    assert.equal(tiny.contextWindow, 8_192);
    assert.equal(tiny.costOf?.({ inputTokens: 1e6, outputTokens: 1e6, cacheReadTokens: 0, cacheWriteTokens: 0 }), 3);
    const none = new VscodeModels(fakeLmApi([])).create("x", {});
    const run = await collect(none.stream(request()));
    assert.equal(run.error?.message, NO_VSCODE_MODELS);
  });

  it("messages are built as VS Code messages", () => {
    assert.ok(new Message("user", []) instanceof Message);
  });
});
