// Fathom's `vscode` provider in a real VS Code: a test-only extension registers language models
// with VS Code's stable provider API (test/vscode/lm-provider-extension), and Fathom reaches them
// through `vscode.lm.selectChatModels` and `sendRequest`, as it would reach Copilot's. A whole
// task (read, edit, a command) runs through them; the Model box lists them; a refusal of
// access says how to allow it.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { FathomApi } from "../../../src/host/extension";
import type { HostToWebviewChat, ToolItem, TranscriptItem } from "../../../src/protocol";
import type { LmRecordedRequest, LmTurn } from "../lm-provider-extension/src/extension";
import { until } from "./until";

const PROVIDER_EXTENSION = "fathom-dev.fathom-test-lm-provider";
const toolsOf = (items: TranscriptItem[]) => items.filter((i): i is ToolItem => i.kind === "tool");
const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const setScript = (turns: LmTurn[]) => vscode.commands.executeCommand("fathomTestLm.setScript", turns);
const lmRequests = async () =>
  (await vscode.commands.executeCommand<LmRecordedRequest[]>("fathomTestLm.requests")) ?? [];

suite("VS Code's language models (provider vscode)", function () {
  this.timeout(60_000);
  let fathom: FathomApi;
  const config = () => vscode.workspace.getConfiguration("fathom");

  suiteSetup(async function () {
    const provider = vscode.extensions.getExtension(PROVIDER_EXTENSION);
    // The desktop runner (@vscode/test-electron) installs no test provider: nothing to talk to.
    if (!provider) return this.skip();
    await provider.activate();
    const ext = vscode.extensions.getExtension<FathomApi>("fathom-dev.fathom");
    assert.ok(ext, "Fathom is installed");
    fathom = await ext.activate();
    // Another extension's models, handed to Fathom by VS Code (no Copilot here).
    let seen: readonly vscode.LanguageModelChat[] = [];
    for (let i = 0; i < 50 && seen.length < 2; i++) {
      seen = await vscode.lm.selectChatModels({ vendor: "fathom-test" });
      if (seen.length < 2) await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(
      seen.map((m) => m.id).sort(),
      ["fathom-test-model", "fathom-test-vision"],
      "VS Code hands the provider extension’s models to other extensions",
    );
    await config().update("provider", "vscode", vscode.ConfigurationTarget.Global);
    await config().update("model", "fathom-test-model", vscode.ConfigurationTarget.Global);
    await config().update("sandbox.enabled", false, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    if (!fathom) return;
    for (const key of ["provider", "model", "sandbox.enabled"])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await fathom.restartSession();
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });
  setup(async () => {
    await fathom.session.newTask();
  });

  test("a whole task (read, edit, command) runs through another extension’s language model", async () => {
    const file = path.join(root(), "src", "slugify.js");
    const before = fs.readFileSync(file, "utf8");
    await setScript([
      {
        text: ["Let me ", "read it."],
        toolCalls: [{ callId: "r1", name: "read_file", input: { file_path: "/src/slugify.js" } }],
      },
      {
        toolCalls: [
          {
            callId: "e1",
            name: "edit_file",
            input: {
              file_path: "/src/slugify.js",
              old_string: ".replace(/^-/, '');",
              new_string: ".replace(/^-|-$/g, '');",
            },
          },
        ],
      },
      { toolCalls: [{ callId: "x1", name: "execute", input: { command: "node --test test/" } }] },
      { text: ["Fixed: trailing dashes are trimmed and the tests pass."] },
    ]);
    try {
      await fathom.session.send("Fix the trailing dash in slugify");
      await until(
        "the edit to be proposed",
        () =>
          toolsOf(fathom.session.state.items).some(
            (t) => t.toolName === "edit_file" && t.status === "awaiting_approval",
          ),
        30_000,
      );
      fathom.session.approve(toolsOf(fathom.session.state.items).find((t) => t.toolName === "edit_file")!.id);
      await until(
        "the command to be asked",
        () =>
          toolsOf(fathom.session.state.items).some((t) => t.toolName === "execute" && t.status === "awaiting_approval"),
        30_000,
      );
      fathom.session.approve(toolsOf(fathom.session.state.items).find((t) => t.toolName === "execute")!.id);
      await fathom.session.whenIdle();
      const state = fathom.session.state;
      assert.equal(state.status, "completed", JSON.stringify(state.banner));
      assert.deepEqual(state.model, { provider: "vscode", model: "fathom-test-model", images: false });
      assert.match(fs.readFileSync(file, "utf8"), /\.replace\(\/\^-\|-\$\/g, ''\);/);
      const exec = toolsOf(state.items).find((t) => t.toolName === "execute")!;
      assert.equal(exec.exec?.exitCode, 0, exec.result);
      const answer = state.items.at(-1);
      assert.ok(
        answer?.kind === "assistant" && answer.text === "Fixed: trailing dashes are trimmed and the tests pass.",
      );
      // Tokens counted by the model's own tokenizer (the provider's provideTokenCount).
      assert.ok(state.usage.inputTokens > 0 && state.usage.outputTokens > 0);
      assert.equal(state.usage.contextWindow, 32_000, "the model's maxInputTokens");
      assert.equal(state.usage.costUsd, undefined, "no price: paid through a plan");

      // What the provider received: Fathom's tools, its calls as tool-call parts, results as tool-result parts.
      const got = await lmRequests();
      assert.equal(got.length, 4);
      assert.ok(got[0]!.tools.includes("edit_file") && got[0]!.tools.includes("execute"), got[0]!.tools.join(","));
      assert.ok(
        got.every((r) => got[0]!.tools.every((name) => r.tools.includes(name))),
        "the first request's tools on every request",
      );
      // run_tests (and the code-intelligence tools) from the run's second step on (afterFirstTool.ts).
      assert.ok(!got[0]!.tools.includes("run_tests") && got[1]!.tools.includes("run_tests"), got[1]!.tools.join(","));
      const last = got[3]!.messages;
      const calls = last
        .flatMap((m) => m.parts)
        .filter((p) => p.kind === "toolCall")
        .map((p) => (p.kind === "toolCall" ? p.name : ""));
      assert.deepEqual(calls, ["read_file", "edit_file", "execute"]);
      const results = last
        .flatMap((m) => m.parts)
        .filter((p): p is Extract<typeof p, { kind: "toolResult" }> => p.kind === "toolResult");
      assert.match(results[0]!.text, /export function slugify/);
      assert.match(results[2]!.text, /pass/);
      assert.equal(last[0]!.role, "user");
      assert.match(
        last[0]!.parts[0]!.kind === "text" ? last[0]!.parts[0]!.value : "",
        /Fathom/,
        "the system prompt opens the first message",
      );
    } finally {
      fs.writeFileSync(file, before);
    }
  });

  test("the Model box lists VS Code’s models; a pick applies from the next request and is kept for the workspace", async () => {
    const answers: HostToWebviewChat[] = [];
    const off = fathom.session.onMessage((m) => answers.push(m));
    try {
      fathom.view.receive({ type: "listModels", requestId: 41 });
      await until("the list", () => answers.some((m) => m.type === "models"));
      const list = answers.find((m): m is Extract<HostToWebviewChat, { type: "models" }> => m.type === "models")!;
      assert.equal(list.requestId, 41);
      const vision = list.models.find((m) => m.id === "fathom-test-vision");
      assert.deepEqual(vision, {
        id: "fathom-test-vision",
        name: "Fathom Test Vision (fathom-test)",
        contextWindow: 64_000,
        images: true,
        tools: true,
      });
      fathom.view.receive({ type: "setModel", model: "fathom-test-vision" });
      await until("the header to follow", () => fathom.session.state.model.model === "fathom-test-vision");
      assert.equal(fathom.session.state.model.images, true);
      await setScript([{ text: ["A red square."] }]);
      // An image pasted in the message box reaches a model that reads images as a data part.
      const png = Buffer.from(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
        "base64",
      );
      await fathom.session.send("What is in this picture?", [
        { mimeType: "image/png", data: png.toString("base64"), thumbnail: "data:image/png;base64,AAAA" },
      ]);
      await fathom.session.whenIdle();
      assert.equal(fathom.session.state.status, "completed", JSON.stringify(fathom.session.state.banner));
      const [request] = await lmRequests();
      assert.equal(request!.model, "fathom-test-vision");
      const data = request!.messages.flatMap((m) => m.parts).find((p) => p.kind === "data");
      assert.deepEqual(data, { kind: "data", mimeType: "image/png", bytes: png.byteLength });
      // Kept for this workspace: a new session (a reload) starts with the pick.
      const next = await fathom.restartSession();
      assert.equal(next.state.model.model, "fathom-test-vision");
    } finally {
      off();
      fathom.view.receive({ type: "setModel", model: "fathom-test-model" });
      await until("the pick to be undone", () => fathom.session.state.model.model === "fathom-test-model");
    }
  });

  test("a refused access, and a model that is gone, say what to do", async () => {
    await setScript([{ error: "NoPermissions" }]);
    await fathom.session.send("hello");
    await fathom.session.whenIdle();
    const banner = fathom.session.state.banner;
    assert.match(
      banner?.message ?? "",
      /VS Code did not give Fathom access to Fathom Test Model \(fathom-test\).*choose Allow when VS Code asks/,
    );
    assert.notEqual(banner?.action, "fathom.setApiKey", "no API key to set for VS Code’s models");
    await fathom.session.newTask();
    fathom.view.receive({ type: "setModel", model: "no-such-model" });
    await until("the set-up problem", () => Boolean(fathom.session.state.setupProblem));
    assert.match(
      fathom.session.state.setupProblem!.message,
      /"no-such-model" is not available in VS Code \(it offers fathom-test-model, fathom-test-vision/,
    );
    fathom.view.receive({ type: "setModel", model: "fathom-test-model" });
    await until("the problem to clear", () => fathom.session.state.setupProblem === null);
  });
});
