// The chat session in a real extension host: Fathom as installed, driven through the API its
// activate() returns, against the scripted model server (real OpenAI SSE over HTTP).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { FathomApi } from "../../../src/host/extension";
import type { HostToWebviewChat, ToolItem, TranscriptItem } from "../../../src/protocol";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { until } from "./until";

const KEY = "sk-fathom-intest-3f9c2a7d1e5b8c4a";

async function api(): Promise<FathomApi> {
  const ext = vscode.extensions.getExtension<FathomApi>("fathom-dev.fathom");
  assert.ok(ext, "Fathom is installed");
  return ext.activate();
}

const toolsOf = (items: TranscriptItem[]) => items.filter((i): i is ToolItem => i.kind === "tool");
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

suite("Chat session (scripted model)", function () {
  this.timeout(40_000);
  let server: ScriptedModelServer;
  let fathom: FathomApi;
  const config = () => vscode.workspace.getConfiguration("fathom");

  suiteSetup(async () => {
    server = await startScriptedModelServer([]);
    fathom = await api();
    await config().update("provider", "openai-compatible", vscode.ConfigurationTarget.Global);
    await config().update("baseUrl", server.baseUrlOpenAI, vscode.ConfigurationTarget.Global);
    await config().update("model", "scripted-model", vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    for (const key of ["provider", "baseUrl", "model"])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await fathom.keys.clear("openai-compatible");
    await fathom.restartSession();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await server.close();
  });
  setup(async () => {
    await fathom.session.newTask();
    server.requests.length = 0;
  });
  teardown(() => assert.equal(server.pending(), 0, "every scripted turn was played"));

  test("a task runs end to end: text, a read tool and todos", async () => {
    server.push(
      {
        toolCalls: [
          { id: "t1", name: "write_todos", arguments: { todos: [{ content: "Read slugify", status: "in_progress" }] } },
          { id: "r1", name: "read_file", arguments: { file_path: "/src/slugify.js" } },
        ],
      },
      { text: "slugify turns text into a URL slug." },
    );
    // Through the view's real entry point: validated like a webview message.
    fathom.view.receive({ type: "sendMessage", text: "What does slugify do?" });
    await until("the task to start", () => fathom.session.isRunning || fathom.session.state.status === "completed");
    await fathom.session.whenIdle();
    const state = fathom.session.state;
    assert.equal(state.status, "completed", JSON.stringify(state.banner));
    assert.equal(state.title, "What does slugify do?");
    assert.deepEqual(state.model, { provider: "openai-compatible", model: "scripted-model", images: false });
    const [todos, read] = toolsOf(state.items);
    assert.equal(todos?.status, "done");
    assert.equal(read?.title, "Reading /src/slugify.js");
    assert.equal(read?.status, "done");
    assert.deepEqual(state.todos, [{ content: "Read slugify", status: "in_progress" }]);
    const answer = state.items.at(-1);
    assert.ok(
      answer?.kind === "assistant" && answer.text === "slugify turns text into a URL slug." && !answer.streaming,
    );
    assert.equal(server.requests.length, 2);
    assert.match(JSON.stringify(server.requests[1]!.body.messages), /slugify/);
    assert.ok(state.usage.inputTokens > 0 && state.usage.contextWindow > 0);
    assert.ok(state.history.some((t) => t.id === state.taskId && t.status === "completed"));
  });

  test("writing a message gets the first task ready: a connection to the model server is opened, without credentials", async () => {
    await fathom.keys.set("openai-compatible", KEY, new URL(server.baseUrlOpenAI).origin);
    server.others.length = 0;
    fathom.view.receive({ type: "composing" });
    await until("the preconnect", () => server.others.some((r) => r.method === "HEAD"), 10_000);
    const preconnect = server.others.find((r) => r.method === "HEAD")!;
    assert.equal(preconnect.path, "/");
    assert.equal(preconnect.headers.authorization, undefined, "no key goes with it");
    assert.equal(server.requests.length, 0, "no model request");
  });

  test("an invalid webview message is dropped, not run", async () => {
    fathom.view.receive({ type: "sendMessage", text: 42 });
    fathom.view.receive({ type: "runCommand", command: "workbench.action.quit" });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(fathom.session.state.items.length, 0);
    assert.ok(fathom.log.recent().some((l) => /Dropped an invalid message/.test(l)));
  });

  test("cancel mid-stream stops the model at once; the queued message runs after", async () => {
    server.push({ fault: "stall", text: "Working on it" }, { text: "Second answer." });
    await fathom.session.send("first");
    await until("streamed text", () => fathom.session.state.items.some((i) => i.kind === "assistant"));
    // Queue (not Send now, the default, which would reach the running task at its next step).
    await fathom.session.send("second", undefined, { queue: true });
    assert.deepEqual(fathom.session.state.queued, ["second"]);
    const started = Date.now();
    fathom.view.receive({ type: "cancel" });
    await until(
      "the cancel",
      () => fathom.session.state.status !== "running" || fathom.session.state.items.some((i) => i.kind === "notice"),
    );
    assert.ok(Date.now() - started < 2000, `cancel took ${Date.now() - started} ms`);
    await fathom.session.whenIdle();
    const state = fathom.session.state;
    assert.equal(state.status, "completed");
    assert.deepEqual(state.queued, []);
    assert.deepEqual(
      state.items.filter((i) => i.kind === "user").map((i) => i.kind === "user" && i.text),
      ["first", "second"],
    );
    assert.equal(server.requests.length, 2);
  });

  test("reload mid-task, then resume from the saved task", async () => {
    server.push({
      toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/resume-note.txt", content: "note\n" } }],
    });
    await fathom.session.send("write a note");
    await until("the approval", () => fathom.session.state.status === "awaiting_approval");
    const taskId = fathom.session.state.taskId;
    const file = path.join(fathom.session.storageDir, "tasks", `${taskId}.json`);
    const saved = () => {
      try {
        return fs.readFileSync(file, "utf8");
      } catch {
        return "";
      }
    };
    await until("the checkpoint at the approval", () => saved().includes('"status":"awaiting_approval"'));
    // The person edits the proposal's right side (unsaved) before the reload.
    const proposalTab = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === "fathom-proposed");
    await until("the proposal diff", () => proposalTab() !== undefined);
    const right = await vscode.workspace.openTextDocument((proposalTab()!.input as vscode.TabInputTextDiff).modified);
    const change = new vscode.WorkspaceEdit();
    change.replace(right.uri, new vscode.Range(0, 0, 0, 4), "my note");
    assert.ok(await vscode.workspace.applyEdit(change));
    await new Promise((r) => setTimeout(r, 400)); // the draft is kept shortly after typing stops
    const session = await fathom.restartSession(); // as a window reload would: nothing more is saved
    assert.equal(session.state.taskId, taskId);
    assert.equal(session.state.status, "interrupted");
    const notice = session.state.items.find((i) => i.kind === "notice");
    assert.match(
      notice?.kind === "notice" ? notice.text : "",
      /waiting for your approval of "Writing \/resume-note.txt"/,
    );
    server.push({ text: "Resumed." });
    const requests = server.requests.length;
    fathom.view.receive({ type: "resumeTask" });
    // Resume asks again for what was waiting, before any request to the model, with the person's edits.
    await until("the approval asked again", () => session.state.status === "awaiting_approval");
    assert.equal(server.requests.length, requests);
    fathom.view.receive({ type: "approve", toolCallId: "w1" });
    await until("the resumed run", () => session.state.status === "completed", 15_000);
    assert.equal(
      fs.readFileSync(path.join(root(), "resume-note.txt"), "utf8"),
      "my note\n",
      "the edits made before the reload are what was written",
    );
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
    assert.match(sent, /write a note/);
    assert.match(sent, /w1/, "the call was answered");
    assert.match(sent, /changed your proposed content/, "the model hears the person changed it");
    // The diff left open from before the restart, dirty with the person's edit, closes without a "Save changes?" prompt.
    await until(
      "no proposal left unsaved",
      () => !vscode.workspace.textDocuments.some((d) => d.uri.scheme === "fathom-proposed" && d.isDirty),
      10_000,
    );
    fs.rmSync(path.join(root(), "resume-note.txt"), { force: true });
  });

  test("Restricted Mode refuses writes and commands, reading still works", async () => {
    const session = await fathom.restartSession({ isTrusted: () => false });
    await session.newTask();
    assert.equal(session.state.restricted, true);
    server.push(
      {
        toolCalls: [
          { id: "r1", name: "read_file", arguments: { file_path: "/README.md" } },
          { id: "w1", name: "write_file", arguments: { file_path: "/untrusted.txt", content: "x" } },
          { id: "x1", name: "execute", arguments: { command: "touch untrusted-cmd.txt" } },
        ],
      },
      { text: "I can only read here." },
    );
    await session.send("try to write");
    await session.whenIdle();
    const [read, write, exec] = toolsOf(session.state.items);
    assert.equal(read?.status, "done");
    assert.equal(write?.status, "rejected");
    assert.equal(exec?.status, "rejected");
    assert.match(write?.result ?? "", /Restricted Mode/);
    assert.equal(fs.existsSync(path.join(root(), "untrusted.txt")), false);
    assert.equal(fs.existsSync(path.join(root(), "untrusted-cmd.txt")), false);
    await fathom.restartSession();
  });

  test("a 401 shows a banner with Set API Key (no Retry: the same key cannot help); a new key continues the task", async () => {
    server.push({ fault: "http", status: 401, message: "Incorrect API key provided" });
    await fathom.session.send("hello");
    await fathom.session.whenIdle();
    const { banner, status } = fathom.session.state;
    assert.equal(status, "failed");
    assert.equal(banner?.action, "fathom.setApiKey");
    assert.match(banner?.message ?? "", /Set API Key/);
    assert.equal(banner?.retryable, false);
    server.push({ text: "Now it works." });
    const before = server.requests.length;
    await fathom.keys.set("openai-compatible", "sk-test-new-key-0123456789", new URL(server.baseUrlOpenAI).origin);
    await until("the task to continue with the new key", () => fathom.session.state.status === "completed", 10_000);
    assert.equal(server.requests.length, before + 1);
    assert.equal(server.requests.at(-1)?.headers.authorization, "Bearer sk-test-new-key-0123456789");
    assert.equal(fathom.session.state.banner, null);
    await fathom.keys.clear("openai-compatible");
  });

  test("a 429 then success recovers by itself", async () => {
    server.push(
      { fault: "http", status: 429, headers: { "retry-after": "0" }, message: "Rate limit reached" },
      { text: "After the retry." },
    );
    await fathom.session.send("hello");
    await fathom.session.whenIdle();
    assert.equal(fathom.session.state.status, "completed");
    assert.equal(fathom.session.state.banner, null);
    assert.equal(server.requests.length, 2);
    assert.ok(
      fathom.log.recent().some((l) => /retry 1/.test(l)),
      "the retry is logged",
    );
  });

  test("the API key appears in no log, setting, webview message or saved task", async () => {
    await fathom.keys.set("openai-compatible", KEY, new URL(server.baseUrlOpenAI).origin);
    const sent: HostToWebviewChat[] = [];
    const stop = fathom.session.onMessage((m) => sent.push(m));
    server.push(
      { toolCalls: [{ id: "r1", name: "read_file", arguments: { file_path: "/README.md" } }] },
      { text: "Done." },
    );
    await fathom.session.send("read the readme");
    await fathom.session.whenIdle();
    stop();
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${KEY}`, "the key was used");
    await new Promise((r) => setTimeout(r, 300)); // the last save
    const tasksDir = path.join(fathom.session.storageDir, "tasks");
    const taskFiles = fs
      .readdirSync(tasksDir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(tasksDir, f));
    const places: [string, string][] = [
      ["log", fathom.log.recent().join("\n")],
      ["settings", JSON.stringify(vscode.workspace.getConfiguration("fathom"))],
      ["webview messages", JSON.stringify(sent)],
      ...taskFiles.map((f): [string, string] => [f, fs.readFileSync(f, "utf8")]),
      ["index", fs.readFileSync(path.join(fathom.session.storageDir, "index.json"), "utf8")],
    ];
    assert.ok(taskFiles.length > 0);
    for (const [where, text] of places)
      assert.ok(!text.includes(KEY) && !text.includes(KEY.slice(3)), `the key is in ${where}`);
    await fathom.keys.clear("openai-compatible");
  });
});
