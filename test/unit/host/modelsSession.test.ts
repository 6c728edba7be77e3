// The session's side of models: the Model box (list, pick, a switch mid-task), images, reasoning.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ChatModel } from "../../../src/core";
import { ModelChoice } from "../../../src/host/models/modelChoice";
import { readSettings } from "../../../src/host/settings";
import type { AssistantItem, HostToWebviewChat, UserItem } from "../../../src/protocol";
import { FakeModel } from "../../support/fakeModel";
import { makeKit, until } from "./sessionKit";

const PNG = { mimeType: "image/png" as const, data: "iVBORw0KGgo=", thumbnail: "data:image/png;base64,iVBORw0KGgo=" };

function memento() {
  const data = new Map<string, unknown>();
  return {
    get: <T>(k: string) => data.get(k) as T | undefined,
    update: async (k: string, v: unknown) => void data.set(k, v),
  };
}

describe("the Model box", () => {
  it("lists the provider's models for the request that asked", async () => {
    const kit = makeKit([], {
      env: { listModels: async () => ({ models: [{ id: "a", contextWindow: 8192 }], error: "partial" }) },
    });
    await kit.session.whenReady();
    await kit.session.listModels(7);
    const answer = kit.messages.find((m): m is Extract<HostToWebviewChat, { type: "models" }> => m.type === "models");
    assert.deepEqual(answer, {
      type: "models",
      requestId: 7,
      models: [{ id: "a", contextWindow: 8192 }],
      error: "partial",
    });
  });

  it("a pick while a task runs answers from the next request; the header follows", async () => {
    const settings: Record<string, unknown> = { provider: "openai-compatible", model: "first" };
    const models = new Map<string, FakeModel>([
      [
        "first",
        new FakeModel(
          [
            {
              toolCalls: [{ name: "write_todos", arguments: { todos: [{ content: "x", status: "pending" }] } }],
              delayMs: 150,
            },
          ],
          "first",
        ),
      ],
      ["second", new FakeModel([{ text: "answered by the second model" }], "second", 50_000)],
    ]);
    let picked = "";
    const live: { settings?: Record<string, unknown> } = {};
    const kit = makeKit([], {
      settings,
      env: {
        createModel: (s): ChatModel => models.get(s.model)!,
        chooseModel: async (model) => {
          picked = model;
          live.settings!.model = model;
        },
      },
    });
    live.settings = kit.settings;
    await kit.session.whenReady();
    // Pick the second model as soon as the first request has been made.
    const first = models.get("first")!;
    void kit.session.send("go");
    await until(() => first.requests.length === 1);
    await kit.session.chooseModel("second");
    await kit.session.whenIdle();
    assert.equal(picked, "second");
    assert.equal(models.get("second")!.requests.length, 1, "the next request went to the new model");
    assert.equal(first.requests.length, 1);
    const last = kit.session.state.items.filter((i): i is AssistantItem => i.kind === "assistant").at(-1);
    assert.equal(last?.text, "answered by the second model");
    assert.equal(kit.session.state.model.model, "second");
    assert.equal(kit.session.state.usage.contextWindow, 50_000, "the context meter uses the new model's window");
    assert.ok(kit.lines.some((l) => /Model changed to scripted\/second: it answers from the next request/.test(l)));
  });

  it("the pick is kept per workspace and per provider, until fathom.model itself changes", async () => {
    const store = memento();
    const choice = new ModelChoice(store);
    const base = readSettings({
      get: <T>(k: string, d: T) => (k === "model" ? ("gpt-4.1" as T) : k === "provider" ? ("openai" as T) : d),
    });
    await choice.set(base, "gpt-4.1-mini");
    assert.equal(choice.apply(base).model, "gpt-4.1-mini");
    assert.equal(choice.apply({ ...base, provider: "anthropic" }).model, "gpt-4.1", "another provider keeps its own");
    assert.equal(choice.apply({ ...base, model: "o3" }).model, "o3", "a newer setting wins");
  });

  it("keeps what the provider's list said of the pick (window, images, no native tools), under the person's overrides", async () => {
    const choice = new ModelChoice(memento());
    const base = readSettings({ get: <T>(k: string, d: T) => (k === "provider" ? ("openai-compatible" as T) : d) });
    await choice.set(base, "llava:13b", { id: "llava:13b", contextWindow: 4096, images: true, tools: false });
    assert.deepEqual(choice.apply(base).modelOverrides["llava:13b"], {
      contextWindow: 4096,
      images: true,
      tools: "text",
    });
    const mine = { ...base, modelOverrides: { "llava:13b": { images: false } } };
    assert.deepEqual(choice.apply(mine).modelOverrides["llava:13b"], {
      contextWindow: 4096,
      images: false,
      tools: "text",
    });
  });
});

describe("images from the message box", () => {
  it("go with the message to a model that reads images, and show as thumbnails", async () => {
    const model = Object.assign(new FakeModel([{ text: "a cat" }]), { acceptsImages: true });
    const kit = makeKit([], { model });
    await kit.session.whenReady();
    await kit.session.send("what is this?", [PNG]);
    await kit.session.whenIdle();
    const sent = model.requests[0]!.messages.at(-1)!;
    assert.equal(sent.role, "user");
    assert.deepEqual((sent as { images?: unknown }).images, [{ mimeType: "image/png", data: "iVBORw0KGgo=" }]);
    const item = kit.session.state.items.find((i): i is UserItem => i.kind === "user");
    assert.deepEqual(item?.images, [{ mimeType: "image/png", thumbnail: PNG.thumbnail }]);
  });

  it("are never sent to a model that does not read images, and the person is told", async () => {
    const model = new FakeModel([{ text: "ok" }]);
    const kit = makeKit([], { model });
    await kit.session.whenReady();
    await kit.session.send("", [PNG, PNG]);
    await kit.session.whenIdle();
    assert.equal(model.requests.length, 1);
    assert.equal(JSON.stringify(model.requests[0]!.messages).includes("iVBORw0KGgo"), false);
    const notice = kit.session.state.items.find((i) => i.kind === "notice");
    assert.match(
      notice && "text" in notice ? notice.text : "",
      /fake-model does not read images, so the 2 images were not sent/,
    );
  });

  it("wait with their message in the queue while a task runs", async () => {
    const model = Object.assign(new FakeModel([{ text: "first", delayMs: 50 }, { text: "second" }]), {
      acceptsImages: true,
    });
    const kit = makeKit([], { model });
    await kit.session.whenReady();
    await kit.session.send("one");
    await kit.session.send("two", [PNG]);
    assert.deepEqual(kit.session.state.queued, ["two"]);
    await until(() => model.requests.length === 2);
    await kit.session.whenIdle();
    assert.deepEqual((model.requests[1]!.messages.at(-1) as { images?: unknown[] }).images?.length, 1);
  });
});

describe("reasoning and calls written as text, in the transcript", () => {
  it("reasoning streams into the answer's collapsed part; text calls leave only the prose", async () => {
    const model = new FakeModel([]);
    model.stream = async function* () {
      yield { type: "reasoning_delta", text: "Let me think. " };
      yield { type: "reasoning_delta", text: "Done thinking." };
      yield { type: "text_delta", text: 'Answer. <tool_call>{"name":"x"}</tool_call>' };
      yield { type: "text_reset", text: "Answer." };
      yield {
        type: "done",
        message: { role: "assistant", content: "Answer.", reasoning: [{ text: "Let me think. Done thinking." }] },
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        stopReason: "end_turn",
      };
    } as ChatModel["stream"];
    const kit = makeKit([], { model });
    await kit.session.whenReady();
    await kit.session.send("hi");
    await kit.session.whenIdle();
    const answer = kit.session.state.items.find((i): i is AssistantItem => i.kind === "assistant");
    assert.equal(answer?.reasoning, "Let me think. Done thinking.");
    assert.equal(answer?.text, "Answer.");
    assert.ok(kit.messages.some((m) => m.type === "reasoningAppended"));
  });

  it("calls written as text are said once per task in the chat, and every time in the log", async () => {
    const model = new FakeModel([]);
    let turn = 0;
    model.stream = async function* () {
      turn++;
      if (turn <= 2) {
        yield {
          type: "notice",
          code: "text_tool_calls",
          message: `Ran write_todos, which fake-model wrote as text instead of a native tool call.`,
        };
        yield { type: "tool_call_start", index: 0, id: `t${turn}`, name: "write_todos" };
        yield {
          type: "done",
          message: {
            role: "assistant",
            content: "",
            toolCalls: [{ id: `t${turn}`, name: "write_todos", arguments: '{"todos":[]}' }],
          },
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          stopReason: "tool_use",
        };
      } else
        yield {
          type: "done",
          message: { role: "assistant", content: "done" },
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          stopReason: "end_turn",
        };
    } as ChatModel["stream"];
    const kit = makeKit([], { model });
    await kit.session.whenReady();
    await kit.session.send("go");
    await kit.session.whenIdle();
    const notices = kit.session.state.items.filter((i) => i.kind === "notice" && /writes as text/.test(i.text));
    assert.equal(notices.length, 1);
    assert.equal(kit.lines.filter((l) => /text_tool_calls: Ran write_todos/.test(l)).length, 2);
  });
});
