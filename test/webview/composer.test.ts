/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// The composer and the chrome around it: Enter / Shift+Enter / Up, Send becoming Cancel,
// queued messages, `@` mentions, header, history, first run, banner, resume, and Tab order.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { baseState, user } from "./fixtures";
import { startHarness, type Harness } from "./harness";

describe("webview composer and controls", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("sends with Enter, adds a line with Shift+Enter, and recalls earlier messages with Up", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ items: [user("u1", "First question")] }) });
    const box = view.page.getByRole("textbox", { name: "Message" });
    await box.focus();
    await view.page.keyboard.press("Enter");
    assert.equal((await view.posted()).filter((m) => m.type === "sendMessage").length, 0, "an empty box must not send");
    assert.ok(await view.page.getByRole("button", { name: "Send" }).isDisabled());
    await box.pressSequentially("Line one");
    await view.page.keyboard.press("Shift+Enter");
    await box.pressSequentially("line two");
    await view.page.keyboard.press("Enter");
    assert.deepEqual(await view.waitForPosted("sendMessage"), { type: "sendMessage", text: "Line one\nline two" });
    assert.equal(await box.inputValue(), "");
    await view.page.keyboard.press("ArrowUp");
    assert.equal(await box.inputValue(), "Line one\nline two");
    await view.page.keyboard.press("ArrowUp"); // the caret moves to the first line…
    await view.page.keyboard.press("ArrowUp"); // …and from there Up goes further back
    await view.page.waitForFunction(
      () => (document.getElementById("message-input") as HTMLTextAreaElement).value === "First question",
    );
    await view.page.keyboard.press("ArrowDown");
    await view.page.keyboard.press("ArrowDown");
    assert.equal(await box.inputValue(), "");
    // The Send button works too.
    await box.fill("Clicked");
    await view.page.getByRole("button", { name: "Send" }).click();
    assert.deepEqual((await view.posted()).at(-1), { type: "sendMessage", text: "Clicked" });
    await view.page.context().close();
  });

  it("chips: a command's chips show in the message box with the caret there; × removes one; Send carries them, with or without text", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    const range = { kind: "file" as const, path: "/src/slugify.js", startLine: 3, endLine: 9 };
    const terminal = {
      kind: "terminal" as const,
      label: "Terminal: npm test (exit 1)",
      text: "$ npm test\nexit code: 1\nFAIL",
    };
    await view.send({ type: "attachments", attachments: [range, terminal], focus: true });
    const chips = view.page.getByRole("list", { name: "Attached to the next message (2)" });
    await chips.getByRole("button", { name: "src/slugify.js:3-9", exact: true }).waitFor();
    await chips.getByText("Terminal: npm test (exit 1)").waitFor();
    assert.equal(
      await view.page.evaluate(() => document.activeElement?.id),
      "message-input",
      "the caret is in the message box",
    );
    // With chips alone, Send is enabled.
    assert.equal(await view.page.getByRole("button", { name: "Send" }).isDisabled(), false);
    await chips.getByRole("button", { name: "Remove Terminal: npm test (exit 1)" }).click();
    assert.deepEqual(await view.waitForPosted("removeAttachment"), { type: "removeAttachment", index: 1 });
    await view.send({ type: "attachments", attachments: [range] });
    const one = view.page.getByRole("list", { name: "Attached to the next message (1)" });
    await one.getByRole("button", { name: "src/slugify.js:3-9", exact: true }).click();
    assert.deepEqual(await view.waitForPosted("openAttachment"), {
      type: "openAttachment",
      path: "/src/slugify.js",
      line: 3,
    });
    await view.page.getByRole("button", { name: "Send" }).click();
    assert.deepEqual(await view.waitForPosted("sendMessage"), { type: "sendMessage", text: "", attachments: [range] });
    // Why a command added nothing is said in the message box.
    await view.send({
      type: "attachments",
      attachments: [],
      notice: ".env may hold secrets (it matches .env), so Fathom does not attach it.",
    });
    await view.page.getByRole("status").filter({ hasText: "may hold secrets" }).waitFor();
    await view.page.context().close();
  });

  it("@problems in the mention picker asks the host for the problems and takes the typed @ away", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    const box = view.page.getByRole("textbox", { name: "Message" });
    await box.pressSequentially("Fix @prob");
    const list = view.page.getByRole("listbox", { name: "Files, problems and MCP resources to mention" });
    await list.getByRole("option", { name: /@problems/ }).waitFor();
    await view.page.keyboard.press("Enter");
    assert.deepEqual(await view.waitForPosted("attachProblems"), { type: "attachProblems" });
    assert.equal(await box.inputValue(), "Fix ");
    await view.page.context().close();
  });

  it("turns Send into Cancel while a task runs, queues messages, and removes them", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ status: "running", items: [user("u1", "Work")] }) });
    const cancel = view.page.getByRole("button", { name: "Cancel" });
    await cancel.waitFor();
    assert.equal(await view.page.getByRole("button", { name: "Send" }).count(), 0);
    await cancel.click();
    assert.deepEqual(await view.waitForPosted("cancel"), { type: "cancel" });
    const box = view.page.getByRole("textbox", { name: "Message" });
    await box.fill("Also fix the README");
    await box.press("Enter");
    assert.deepEqual(await view.waitForPosted("sendMessage"), { type: "sendMessage", text: "Also fix the README" });
    await view.send({ type: "queued", queued: ["Also fix the README", "And bump the version"] });
    const queued = view.page.getByRole("region", { name: "Queued (2)" });
    await queued.getByText("And bump the version").waitFor();
    await queued.getByRole("button", { name: "Remove queued message 2" }).click();
    assert.deepEqual(await view.waitForPosted("removeQueued"), { type: "removeQueued", index: 1 });
    await view.send({ type: "status", status: "completed" });
    await view.page.getByRole("button", { name: "Send" }).waitFor();
    await view.page.context().close();
  });

  it("mentions a file with @: asks the host, shows its answer, inserts the pick", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    const box = view.page.getByRole("textbox", { name: "Message" });
    await box.pressSequentially("Fix @slu");
    const first = await view.waitForSearch("slu");
    // A stale answer (older request) is ignored.
    await view.send({ type: "mentionResults", requestId: Number(first.requestId) - 1, files: [{ path: "/stale.js" }] });
    await view.send({
      type: "mentionResults",
      requestId: first.requestId,
      files: [{ path: "/src/slugify.js" }, { path: "/test/slugify.test.js" }],
    });
    const list = view.page.getByRole("listbox", { name: "Files, problems and MCP resources to mention" });
    await list.getByRole("option", { name: "/src/slugify.js" }).waitFor();
    assert.equal(await list.getByRole("option", { name: "/stale.js" }).count(), 0);
    assert.equal(
      await box.getAttribute("aria-activedescendant"),
      await list.getByRole("option").first().getAttribute("id"),
    );
    await view.page.keyboard.press("ArrowDown");
    assert.equal(
      await list.getByRole("option", { name: "/test/slugify.test.js" }).getAttribute("aria-selected"),
      "true",
    );
    await view.page.keyboard.press("Enter");
    assert.equal(await box.inputValue(), "Fix @/test/slugify.test.js ");
    assert.equal(await list.count(), 0);
    assert.equal(
      (await view.posted()).filter((m) => m.type === "sendMessage").length,
      0,
      "Enter picked, it did not send",
    );
    // Escape closes the picker; a click picks.
    await box.pressSequentially("and @cli");
    await view.page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string; query?: string }[] }).__posted.some((m) => m.query === "cli"),
    );
    await view.page.keyboard.press("Escape");
    assert.equal(await list.count(), 0);
    await box.pressSequentially(".");
    const latest = await view.waitForSearch("cli.");
    await view.send({ type: "mentionResults", requestId: latest.requestId, files: [{ path: "/src/cli.js" }] });
    await list.getByRole("option", { name: "/src/cli.js" }).click();
    assert.equal(await box.inputValue(), "Fix @/test/slugify.test.js and @/src/cli.js ");
    assert.equal(await view.page.evaluate(() => document.activeElement?.id), "message-input");
    // An MCP resource is offered by name and server, and inserted as @mcp:<server>:<uri>.
    await box.pressSequentially("with @arch");
    const resources = await view.waitForSearch("arch");
    const uri = "demo://resource/static/document/architecture.md";
    await view.send({
      type: "mentionResults",
      requestId: resources.requestId,
      files: [
        { path: `mcp:everything:${uri}`, resource: { server: "everything", name: "architecture.md" } },
        { path: "/docs/architecture.md" },
      ],
    });
    await list.getByRole("option", { name: "architecture.md MCP resource of everything" }).click();
    assert.equal(await box.inputValue(), `Fix @/test/slugify.test.js and @/src/cli.js with @mcp:everything:${uri} `);
    await view.page.context().close();
  });

  it("offers New task, the task history, first-run setup, Retry and Resume", async () => {
    const view = await harness.open();
    const history = [
      { id: "task-0", title: "Add a --json flag", status: "completed" as const, updatedAt: Date.UTC(2026, 10, 20) },
      { id: "task-1", title: "Fix the slugify bug", status: "interrupted" as const, updatedAt: Date.UTC(2026, 10, 22) },
    ];
    await view.send({
      type: "state",
      state: baseState({ status: "interrupted", history, items: [user("u1", "Earlier")] }),
    });
    await view.page.getByRole("button", { name: "New task" }).click();
    assert.deepEqual(await view.waitForPosted("newTask"), { type: "newTask" });
    await view.page.getByRole("button", { name: "Resume" }).click();
    assert.deepEqual(await view.waitForPosted("resumeTask"), { type: "resumeTask" });
    const toggle = view.page.getByRole("button", { name: "Task history" });
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    const nav = view.page.getByRole("navigation", { name: "Task history" });
    assert.equal(
      await view.page.evaluate(() => document.activeElement?.textContent?.startsWith("Add a --json flag")),
      true,
    );
    await nav.getByRole("button", { name: "Delete task Fix the slugify bug" }).click();
    assert.deepEqual(await view.waitForPosted("deleteTask"), { type: "deleteTask", taskId: "task-1" });
    await nav.getByRole("button", { name: /^Add a --json flag/ }).click();
    assert.deepEqual(await view.waitForPosted("openTask"), { type: "openTask", taskId: "task-0" });
    assert.equal(await nav.count(), 0);
    await toggle.click();
    await view.page.keyboard.press("Escape");
    assert.equal(await nav.count(), 0);

    await view.send({
      type: "banner",
      banner: {
        level: "error",
        message: "Invalid API key (401).",
        retryable: true,
        action: "fathom.setApiKey",
        actionLabel: "Set API Key",
      },
    });
    const alert = view.page.getByRole("alert");
    await alert.getByText("Invalid API key (401).").waitFor();
    await alert.getByRole("button", { name: "Retry" }).click();
    assert.deepEqual(await view.waitForPosted("retry"), { type: "retry" });
    await alert.getByRole("button", { name: "Set API Key" }).click();
    assert.deepEqual(await view.waitForPosted("runCommand"), { type: "runCommand", command: "fathom.setApiKey" });
    await view.send({ type: "banner", banner: null });
    await view.page.waitForFunction(() => !document.querySelector("[role=alert]"));

    await view.clearPosted();
    await view.send({
      type: "state",
      state: baseState({
        items: [],
        setupProblem: { message: "No API key for Anthropic.", action: "fathom.setApiKey" },
      }),
    });
    await view.page.getByRole("heading", { name: "Set up Fathom" }).waitFor();
    await view.page.getByRole("button", { name: "Open Settings" }).click();
    assert.deepEqual(await view.waitForPosted("runCommand"), { type: "runCommand", command: "fathom.openSettings" });
    // A message sent before the key is set says what it waits for, next to the set-up view.
    await view.send({ type: "queued", queued: ["Fix the bug"] });
    await view.page
      .getByRole("region", { name: "Queued (1), waiting for an API key" })
      .getByText("Fix the bug")
      .waitFor();
    // In a task that already has messages, the queue itself offers the fix.
    await view.send({
      type: "state",
      state: baseState({
        items: [user("u1", "Fix the bug")],
        queued: ["Then the README"],
        setupProblem: { message: "No API key for Anthropic.", action: "fathom.setApiKey" },
      }),
    });
    const waiting = view.page.getByRole("region", { name: "Queued (1), waiting for an API key" });
    await waiting.getByText("No API key for Anthropic. It is sent as soon as that is done.").waitFor();
    await view.clearPosted();
    await waiting.getByRole("button", { name: "Set API Key" }).click();
    assert.deepEqual(await view.waitForPosted("runCommand"), { type: "runCommand", command: "fathom.setApiKey" });
    await view.page.context().close();
  });

  it("shows the model, tokens, cost and context used in the header", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({
        demo: true,
        restricted: true,
        usage: {
          inputTokens: 12_345,
          outputTokens: 678,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.1234,
          contextTokens: 96_000,
          contextWindow: 128_000,
        },
      }),
    });
    const header = view.page.getByRole("banner");
    await header.getByText("gpt-4.1").waitFor();
    const text = (await header.innerText()).replace(/\s+/g, " ");
    for (const part of ["Fix the slugify bug", "Demo", "Read only", "12k", "678", "$0.12", "96k / 128k"])
      assert.ok(text.includes(part), `header lacks "${part}": ${text}`);
    const meter = view.page.getByRole("meter", { name: "Context used" });
    assert.equal(await meter.getAttribute("value"), "0.75");
    await view.send({
      type: "usage",
      usage: {
        inputTokens: 20_000,
        outputTokens: 900,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        contextTokens: 120_000,
        contextWindow: 128_000,
      },
    });
    await header.getByText("120k / 128k").waitFor();
    assert.equal(await header.getByText("$").count(), 0, "no cost shown when the price is unknown");
    await view.send({ type: "status", status: "running", title: "Renamed task" });
    await view.page.getByRole("heading", { name: "Renamed task" }).waitFor();
    await view.page.context().close();
  });

  it("reaches every control with Tab in a sensible order", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({ items: [user("u1", "Hi")], todos: [{ content: "Plan", status: "pending" }] }),
    });
    await view.page.getByText("Hi", { exact: true }).waitFor();
    const order: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      await view.page.keyboard.press("Tab");
      order.push(
        await view.page.evaluate(
          () => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? "",
        ),
      );
    }
    // A message's own buttons (Edit, Restore) come in reading order, before the message box.
    assert.deepEqual(order.slice(0, 9), [
      "Task history",
      "New task",
      "Model",
      "Memories",
      "Todos0 of 1 done",
      "Conversation",
      "Edit this message",
      "Restore to before this message",
      "Message",
    ]);
    await view.page.context().close();
  });
});
