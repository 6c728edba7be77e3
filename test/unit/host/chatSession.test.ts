import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { ModelError } from "../../../src/core";
import { FakeModel } from "../../support/fakeModel";
import { makeKit, until } from "./sessionKit";

const lastText = (items: { kind: string }[]) => {
  const last = items.at(-1) as { kind: string; text?: string } | undefined;
  return last?.kind === "assistant" ? last.text : undefined;
};
const tools = (items: { kind: string }[]) =>
  items.filter((i) => i.kind === "tool") as {
    kind: "tool";
    title: string;
    status: string;
    toolName: string;
    id: string;
    result?: string;
    proposal?: { outcome: string; added: number };
    exec?: { command: string };
  }[];

describe("chat session", () => {
  it("runs a task: text, a read tool and todos, and saves it", async () => {
    const kit = makeKit([
      {
        toolCalls: [
          { name: "write_todos", arguments: { todos: [{ content: "Read app.ts", status: "in_progress" }] } },
          { name: "read_file", arguments: { file_path: "/app.ts" } },
        ],
      },
      { text: "The answer is 42." },
    ]);
    await kit.session.send("What is the answer?");
    await kit.session.whenIdle();
    const state = kit.session.state;
    assert.equal(state.status, "completed");
    assert.equal(state.title, "What is the answer?");
    assert.deepEqual(
      state.items.map((i) => i.kind),
      ["user", "tool", "tool", "assistant"],
    );
    const [todos, read] = tools(state.items);
    assert.equal(read!.title, "Reading /app.ts");
    assert.equal(read!.status, "done");
    assert.match(read!.result!, /answer = 42/);
    assert.equal(todos!.status, "done");
    assert.deepEqual(state.todos, [{ content: "Read app.ts", status: "in_progress" }]);
    assert.equal(lastText(state.items), "The answer is 42.");
    assert.ok(state.usage.inputTokens > 0);
    await kit.store.flush();
    const saved = await kit.store.load(state.taskId!);
    assert.ok(!("error" in saved));
    assert.equal(saved.status, "completed");
    assert.equal(saved.runState!.messages.at(-1)!.content, "The answer is 42.");
    assert.deepEqual(
      (await kit.store.list()).map((t) => t.title),
      ["What is the answer?"],
    );
  });

  it("streams through the same messages the webview applies", async () => {
    const kit = makeKit([{ text: "Hello there" }]);
    await kit.session.send("hi");
    await kit.session.whenIdle();
    const types = new Set(kit.messages.map((m) => m.type));
    for (const t of ["itemAppended", "status", "usage", "history"]) assert.ok(types.has(t as never), `sent ${t}`);
  });

  it("cancel stops the model at once; a queued message runs after", async () => {
    const kit = makeKit([{ hang: true, text: "Thinking" }, { text: "Second answer" }]);
    await kit.session.send("first");
    await until(() => kit.session.state.items.some((i) => i.kind === "assistant"));
    await kit.session.send("second", undefined, { queue: true });
    assert.deepEqual(kit.session.state.queued, ["second"]);
    kit.session.cancel();
    await kit.session.whenIdle();
    assert.deepEqual(kit.session.state.queued, []);
    assert.equal(kit.session.state.status, "completed");
    const users = kit.session.state.items.filter((i) => i.kind === "user").map((i) => i.kind === "user" && i.text);
    assert.deepEqual(users, ["first", "second"]);
    assert.ok(kit.session.state.items.some((i) => i.kind === "notice" && /Cancelled/.test(i.text)));
    // The second run continued the same task: the model saw the first message too.
    assert.equal(kit.model.requests.at(-1)!.messages.filter((m) => m.role === "user").length, 2);
  });

  it("approve and reject from the chat card", async () => {
    const kit = makeKit([
      { toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/new.txt", content: "hello\n" } }] },
      { toolCalls: [{ id: "w2", name: "write_file", arguments: { file_path: "/other.txt", content: "x\n" } }] },
      { text: "done" },
    ]);
    await kit.session.send("write two files");
    await until(() => kit.session.state.status === "awaiting_approval");
    let card = tools(kit.session.state.items).find((t) => t.id === "w1")!;
    assert.equal(card.title, "Writing /new.txt");
    assert.equal(card.proposal!.outcome, "pending");
    assert.equal(card.proposal!.added, 1);
    kit.session.approve("w1");
    await until(() => kit.gate.waiting.has("w2"));
    kit.session.reject("w2", "not that one");
    await kit.session.whenIdle();
    card = tools(kit.session.state.items).find((t) => t.id === "w1")!;
    assert.equal(card.proposal!.outcome, "approved");
    assert.equal(readFileSync(path.join(kit.root, "new.txt"), "utf8"), "hello\n");
    const rejected = tools(kit.session.state.items).find((t) => t.id === "w2")!;
    assert.equal(rejected.status, "rejected");
    assert.deepEqual(readdirSync(kit.root).sort(), ["app.ts", "new.txt"]);
    assert.match(JSON.stringify(kit.model.requests.at(-1)!.messages), /not that one/);
  });

  it("Always allow on a command allows its program and subcommand, not every command", async () => {
    const kit = makeKit([
      { toolCalls: [{ id: "x1", name: "execute", arguments: { command: "echo one" } }] },
      { toolCalls: [{ id: "x2", name: "execute", arguments: { command: "echo two" } }] },
      { toolCalls: [{ id: "x3", name: "execute", arguments: { command: "echo three; rm -f app.ts" } }] },
      { toolCalls: [{ id: "x4", name: "execute", arguments: { command: "echo $(rm -f app.ts)" } }] },
      { text: "done" },
    ]);
    await kit.session.send("run things");
    await until(() => kit.gate.waiting.has("x1"));
    const card = tools(kit.session.state.items).find((t) => t.id === "x1") as
      { alwaysAllow?: string | null } | undefined;
    assert.equal(card?.alwaysAllow, "echo");
    kit.session.approve("x1", true);
    assert.deepEqual(kit.session.state.alwaysAllowed, ["execute:echo"]);
    // echo two runs without asking; the compound line and the substitution are asked.
    await until(() => kit.gate.waiting.has("x3"));
    assert.equal(tools(kit.session.state.items).find((t) => t.id === "x2")?.status, "done");
    kit.session.reject("x3");
    await until(() => kit.gate.waiting.has("x4"));
    assert.equal(
      (tools(kit.session.state.items).find((t) => t.id === "x4") as { alwaysAllow?: string | null }).alwaysAllow,
      null,
    );
    kit.session.reject("x4");
    await kit.session.whenIdle();
    assert.equal(readFileSync(path.join(kit.root, "app.ts"), "utf8"), "export const answer = 42;\n");
  });

  it("a saved task's tool-wide 'execute' entry (older versions) allows no command", async () => {
    const kit = makeKit([
      { toolCalls: [{ id: "x1", name: "execute", arguments: { command: "echo hi" } }] },
      { text: "done" },
    ]);
    kit.session.state.alwaysAllowed = ["execute"];
    await kit.session.send("run");
    await until(() => kit.gate.waiting.has("x1"));
    kit.session.reject("x1");
    await kit.session.whenIdle();
  });

  it("auto-approved edits still show a diff card", async () => {
    const kit = makeKit(
      [{ toolCalls: [{ name: "write_file", arguments: { file_path: "/a.txt", content: "a\nb\n" } }] }, { text: "ok" }],
      {
        settings: { "autoApprove.edit": true },
      },
    );
    await kit.session.send("write");
    await kit.session.whenIdle();
    const card = tools(kit.session.state.items)[0]!;
    assert.equal(card.proposal!.outcome, "auto_applied");
    assert.equal(card.proposal!.added, 2);
  });

  it("refuses writes and commands in Restricted Mode, but reads and answers", async () => {
    const kit = makeKit(
      [
        {
          toolCalls: [
            { name: "read_file", arguments: { file_path: "/app.ts" } },
            { name: "write_file", arguments: { file_path: "/x.txt", content: "x" } },
            { name: "execute", arguments: { command: "touch y.txt" } },
          ],
        },
        { text: "I could read but not write." },
      ],
      {
        trusted: { value: false },
        settings: { "autoApprove.edit": true, "autoApprove.execute": true, "commands.allow": ["touch *"] },
      },
    );
    await kit.session.send("try everything");
    await kit.session.whenIdle();
    assert.equal(kit.session.state.restricted, true);
    const [read, write, exec] = tools(kit.session.state.items);
    assert.equal(read!.status, "done");
    assert.equal(write!.status, "rejected");
    assert.equal(exec!.status, "rejected");
    assert.deepEqual(readdirSync(kit.root), ["app.ts"]);
    const last = JSON.stringify(kit.model.requests.at(-1)!.messages);
    assert.match(last, /Restricted Mode/);
    assert.match(kit.model.requests[0]!.system, /Restricted Mode/);
  });

  it("a refused key shows Set API Key without Retry; a stored key continues from the saved state", async () => {
    const kit = makeKit([
      { error: new ModelError("auth", 'OpenAI refused the API key (401). Run "Fathom: Set API Key".', 401) },
      { text: "Recovered" },
    ]);
    await kit.session.send("hello");
    await kit.session.whenIdle();
    assert.equal(kit.session.state.status, "failed");
    assert.equal(kit.session.state.banner?.action, "fathom.setApiKey");
    assert.match(kit.session.state.banner!.message, /Set API Key/);
    assert.equal(kit.session.state.banner!.retryable, false, "the same key would be refused again");
    await kit.session.keyChanged();
    await kit.session.whenIdle();
    assert.equal(kit.session.state.status, "completed");
    assert.equal(kit.session.state.banner, null);
    assert.equal(kit.session.state.items.filter((i) => i.kind === "user").length, 1, "the message is not repeated");
    assert.equal(kit.model.requests[1]!.messages.filter((m) => m.role === "user").length, 1);
  });

  it("with no key for an official endpoint, shows the setup problem instead of failing", async () => {
    const kit = makeKit([{ text: "never" }], { settings: { provider: "openai" } });
    await kit.session.whenReady();
    assert.equal(kit.session.state.setupProblem?.action, "fathom.setApiKey");
    await kit.session.send("hello");
    assert.deepEqual(kit.session.state.queued, ["hello"], "the message is kept");
    assert.equal(kit.model.requests.length, 0);
  });

  it("resumes an interrupted task after a reload, saying where it stopped", async () => {
    const kit = makeKit([
      { toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/r.txt", content: "r" } }] },
    ]);
    await kit.session.send("write r");
    await until(() => kit.session.state.status === "awaiting_approval");
    // Saved a tick after the card (SaveSchedule.nextTick): that timer fires before this later one.
    await new Promise((r) => setTimeout(r, 20));
    await kit.store.flush();
    kit.session.dispose(); // the window goes away mid-task
    const model = new FakeModel([{ text: "Resumed and finished." }]);
    const after = kit.reopen(model);
    await after.session.whenReady();
    const state = after.session.state;
    assert.equal(state.status, "interrupted");
    assert.equal(state.title, "write r");
    const notice = state.items.find((i) => i.kind === "notice");
    assert.match(
      notice && notice.kind === "notice" ? notice.text : "",
      /waiting for your approval of "Writing \/r.txt"/,
    );
    await after.session.retry();
    // What waited for the person is asked again before the model is called.
    await until(() => after.session.state.status === "awaiting_approval");
    assert.equal(model.requests.length, 0);
    after.session.reject("w1", "not now");
    await after.session.whenIdle();
    assert.equal(after.session.state.status, "completed");
    const sent = model.requests[0]!.messages;
    assert.equal(sent[0]!.role, "user");
    const answer = sent.find((m) => m.role === "tool" && m.toolCallId === "w1");
    assert.match(
      answer && "content" in answer ? answer.content : "",
      /rejected[\s\S]*not now/,
      "the call asked again was answered with the decision",
    );
  });

  it("keeps streamed text across a reload, and says the model was answering", async () => {
    const kit = makeKit([{ hang: true, text: "Half an answer" }]);
    await kit.session.send("explain");
    await until(() => kit.session.state.items.some((i) => i.kind === "assistant"));
    const file = () => {
      try {
        return readFileSync(kit.store.taskFile(kit.session.state.taskId!), "utf8");
      } catch {
        return "";
      }
    };
    await until(() => file().includes("Half an answer"), 3000);
    kit.session.dispose();
    const after = kit.reopen();
    await after.session.whenReady();
    assert.equal(after.session.state.status, "interrupted");
    assert.ok(
      after.session.state.items.some((i) => i.kind === "assistant" && i.text === "Half an answer" && !i.streaming),
    );
    assert.ok(
      after.session.state.items.some((i) => i.kind === "notice" && /while the model was answering/.test(i.text)),
    );
  });

  it("new task starts fresh; a past task opens from the history", async () => {
    const kit = makeKit([{ text: "one" }, { text: "two" }]);
    await kit.session.send("first task");
    await kit.session.whenIdle();
    const firstId = kit.session.state.taskId!;
    await kit.session.newTask();
    assert.equal(kit.session.state.taskId, null);
    assert.deepEqual(kit.session.state.items, []);
    await kit.session.send("second task");
    await kit.session.whenIdle();
    assert.equal(kit.session.state.history.length, 2);
    await kit.session.openTask(firstId);
    assert.equal(kit.session.state.title, "first task");
    assert.equal(lastText(kit.session.state.items), "one");
  });

  it("never writes the API key to the log or the saved task", async () => {
    const key = "sk-test-SECRETKEY1234567890";
    const kit = makeKit([{ text: `echoing ${key}` }], { apiKey: key, settings: { provider: "openai" } });
    await kit.session.send(`my key is ${key}`);
    await kit.session.whenIdle();
    await kit.store.flush();
    const files = [path.join(kit.storage, "index.json"), kit.store.taskFile(kit.session.state.taskId!)];
    for (const file of files) assert.ok(!readFileSync(file, "utf8").includes(key), `${file} has the key`);
    assert.ok(kit.lines.length > 0);
    assert.ok(!kit.lines.join("\n").includes(key));
  });
});
