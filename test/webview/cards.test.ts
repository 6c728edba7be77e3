/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// Tool cards, execute output, subagents, diff cards, approvals and todos against a fake host.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { baseState, editTool, execTool, proposal, tool, user } from "./fixtures";
import { startHarness, type Harness, type WebviewPage } from "./harness";

describe("webview cards", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  async function openWith(items: Parameters<typeof baseState>[0]): Promise<WebviewPage> {
    const view = await harness.open({ height: 900 });
    await view.send({ type: "state", state: baseState({ status: "running", items: [user("u1", "Go")], ...items }) });
    await view.page.getByText("Go", { exact: true }).waitFor();
    return view;
  }

  it("shows a tool call in words with status, duration and collapsible details", async () => {
    const view = await openWith({});
    await view.send({
      type: "itemAppended",
      item: tool("t1", { status: "running", endedAt: undefined, result: undefined }),
    });
    const card = view.page.getByRole("article", { name: "Reading /src/slugify.js: Running" });
    await card.waitFor();
    const toggle = view.page.getByRole("button", { name: "Reading /src/slugify.js" });
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    await view.send({ type: "itemUpdated", item: tool("t1") });
    await view.page.getByRole("article", { name: "Reading /src/slugify.js: Done" }).waitFor();
    assert.ok(await view.page.getByText("0.4 s").isVisible());
    await toggle.press("Enter");
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.match(
      (await view.page.getByRole("group", { name: "Arguments" }).textContent()) ?? "",
      /"file_path": "\/src\/slugify.js"/,
    );
    assert.match(
      (await view.page.getByRole("group", { name: "Result" }).textContent()) ?? "",
      /export function slugify/,
    );
    await view.send({ type: "itemUpdated", item: tool("t1", { status: "failed", result: "Error: no such file" }) });
    await view.page.getByRole("article", { name: "Reading /src/slugify.js: Failed" }).waitFor();
    await view.page.context().close();
  });

  it("streams an execute card's terminal output and shows the exit code", async () => {
    const view = await openWith({});
    await view.send({ type: "itemAppended", item: execTool("x1") });
    const card = view.page.getByRole("article", { name: "Running npm test: Running" });
    await card.waitFor();
    assert.equal(await card.locator(".tool-title code").textContent(), "npm test");
    for (const chunk of ["> fathom@1 test\n", "✔ slugify keeps words\n", "✔ slugify replaces spaces\n"])
      await view.send({ type: "execOutput", id: "x1", chunk });
    const output = view.page.getByRole("group", { name: "Output of npm test" });
    await view.page.waitForFunction(() =>
      document.querySelector("[aria-label='Output of npm test']")?.textContent?.includes("replaces spaces"),
    );
    assert.match((await output.textContent()) ?? "", /keeps words\n✔ slugify replaces spaces/);
    assert.ok(await card.getByText("running", { exact: true }).isVisible());
    await view.send({
      type: "itemUpdated",
      item: execTool("x1", {
        status: "done",
        endedAt: Date.UTC(2026, 10, 22, 9, 30, 3),
        exec: { command: "npm test", output: "all passed\n", exitCode: 0 },
      }),
    });
    await view.page.getByText("exit code 0").waitFor();
    await view.send({
      type: "itemUpdated",
      item: execTool("x1", {
        status: "failed",
        endedAt: Date.UTC(2026, 10, 22, 9, 30, 3),
        exec: { command: "npm test", output: "1 failing\n", exitCode: 1 },
      }),
    });
    await view.page.getByText("exit code 1").waitFor();
    await view.page.context().close();
  });

  it("nests a subagent's activity inside its task card", async () => {
    const view = await openWith({});
    await view.send({
      type: "itemAppended",
      item: tool("task1", {
        toolName: "task",
        title: "Subagent: find callers",
        status: "running",
        endedAt: undefined,
        result: undefined,
        children: [],
      }),
    });
    await view.send({
      type: "itemAppended",
      parentId: "task1",
      item: tool("c1", { toolName: "grep", title: "Searching for `slugify(`" }),
    });
    await view.send({
      type: "itemAppended",
      parentId: "task1",
      item: { id: "c2", kind: "assistant", text: "Found **two** callers.", streaming: true },
    });
    await view.send({ type: "textAppended", id: "c2", text: " Done." });
    const nested = view.page.getByRole("group", { name: "Subagent activity" });
    await nested.getByText("Found two callers. Done.").waitFor();
    assert.equal(await nested.getByRole("article", { name: /Searching for slugify\(: Done/ }).count(), 1);
    await view.page.context().close();
  });

  it("shows a diff card with counts and lines, and opens the diff editor", async () => {
    const view = await openWith({});
    await view.send({ type: "itemAppended", item: editTool("e1") });
    const region = view.page.getByRole("region", { name: "Proposed change to /src/slugify.js" });
    await region.waitFor();
    assert.match((await region.textContent()) ?? "", /4 lines added, 1 removed/);
    assert.equal(await region.locator(".diff-line.add").count(), 4);
    assert.equal(await region.locator(".diff-line.del").count(), 1);
    assert.match(
      (await region.locator(".diff-line.del").textContent()) ?? "",
      /removed: .*return text\.toLowerCase\(\);/,
    );
    await region.getByRole("button", { name: "Open in diff editor" }).click();
    assert.deepEqual(await view.waitForPosted("openDiff"), { type: "openDiff", toolCallId: "e1" });
    await region.getByRole("button", { name: "/src/slugify.js" }).click();
    assert.deepEqual(await view.waitForPosted("openFile"), { type: "openFile", path: "/src/slugify.js" });
    await view.page.context().close();
  });

  it("tells the host when a proposal's card is on screen, so the open diff's update comes after it", async () => {
    const view = await openWith({ status: "running" });
    await view.page.evaluate(() => {
      const w = window as unknown as { __onPosted?: (m: { type: string }) => void; __cardUp?: boolean[] };
      w.__cardUp = [];
      w.__onPosted = (m) => {
        if (m.type === "cardShown")
          w.__cardUp!.push(
            Array.from(document.querySelectorAll("button")).some((b) => b.textContent?.trim() === "Approve"),
          );
      };
    });
    await view.send({ type: "itemAppended", item: editTool("e1", { status: "streaming", proposal: undefined }) });
    await view.page.getByRole("article", { name: /Editing \/src\/slugify.js/ }).waitFor();
    await view.send({ type: "itemAppended", item: execTool("x1", { status: "awaiting_approval", exec: undefined }) });
    await view.page.getByRole("article", { name: /Needs approval/ }).waitFor();
    assert.deepEqual(
      (await view.posted()).filter((m) => m.type === "cardShown"),
      [],
      "not for a card still streaming, nor one without a proposal",
    );
    await view.send({ type: "itemUpdated", item: editTool("e1") });
    assert.deepEqual(await view.waitForPosted("cardShown"), { type: "cardShown", toolCallId: "e1" });
    assert.deepEqual(
      await view.page.evaluate(() => (window as unknown as { __cardUp: boolean[] }).__cardUp),
      [true],
      "sent once, with the card's Approve in the page",
    );
    await view.page.context().close();
  });

  it("approves, rejects with a reason, and always allows, posting the right messages", async () => {
    const view = await openWith({ status: "awaiting_approval" });
    await view.send({ type: "itemAppended", item: editTool("e1") });
    const region = view.page.getByRole("region", { name: "Proposed change to /src/slugify.js" });
    await region.getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(await view.waitForPosted("approve"), { type: "approve", toolCallId: "e1" });
    assert.ok(await region.getByRole("button", { name: "Approve" }).isDisabled());
    await view.send({
      type: "itemUpdated",
      item: editTool("e1", { status: "done", proposal: proposal({ outcome: "approved_with_changes" }) }),
    });
    await region.getByText("Approved with your changes").waitFor();
    assert.equal(await region.getByRole("button", { name: "Approve" }).count(), 0);

    await view.send({ type: "itemAppended", item: editTool("e2", { proposal: proposal({ path: "/src/cli.js" }) }) });
    const second = view.page.getByRole("region", { name: "Proposed change to /src/cli.js" });
    await second.getByRole("textbox", { name: "Reason for rejecting (optional)" }).fill("Keep the CLI as it is");
    await second.getByRole("button", { name: "Reject" }).click();
    assert.deepEqual(await view.waitForPosted("reject"), {
      type: "reject",
      toolCallId: "e2",
      reason: "Keep the CLI as it is",
    });
    await view.send({
      type: "itemUpdated",
      item: editTool("e2", {
        status: "rejected",
        proposal: proposal({ path: "/src/cli.js", outcome: "rejected", reason: "Keep the CLI as it is" }),
      }),
    });
    await second.getByText("Rejected: “Keep the CLI as it is”").waitFor();

    await view.clearPosted();
    await view.send({
      type: "itemAppended",
      item: execTool("x1", { status: "awaiting_approval", exec: undefined, alwaysAllow: "npm test" }),
    });
    const card = view.page.getByRole("article", { name: "Running npm test: Needs approval" });
    await card.getByRole("button", { name: "Always allow npm test" }).click();
    assert.deepEqual(await view.waitForPosted("approve"), { type: "approve", toolCallId: "x1", alwaysAllow: true });

    await view.send({
      type: "itemAppended",
      item: execTool("x2", {
        status: "awaiting_approval",
        exec: undefined,
        title: "Running `rm -rf build`",
        alwaysAllow: null,
      }),
    });
    // A line that is not provably simple is approved one at a time: no "Always allow".
    await view.page
      .getByRole("article", { name: "Running rm -rf build: Needs approval" })
      .getByRole("button", { name: "Reject" })
      .waitFor();
    assert.equal(
      await view.page
        .getByRole("article", { name: "Running rm -rf build: Needs approval" })
        .getByRole("button", { name: /Always allow/ })
        .count(),
      0,
    );
    const reject = view.page
      .getByRole("article", { name: "Running rm -rf build: Needs approval" })
      .getByRole("button", { name: "Reject" });
    await reject.focus();
    await view.page.keyboard.press("Enter");
    assert.deepEqual((await view.posted()).at(-1), { type: "reject", toolCallId: "x2" });
    // After deciding, focus returns to the message box rather than getting lost.
    assert.equal(await view.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
    await view.page.context().close();
  });

  it("a write to memory says so, with its whole text; approved, it offers no Restore (memory is not checkpointed)", async () => {
    const view = await openWith({ status: "awaiting_approval" });
    const diff = [
      "--- a/memories/style.md",
      "+++ b/memories/style.md",
      "@@ -1,4 +1,5 @@",
      " Code style",
      " - tabs",
      " - no semicolons",
      " - single quotes",
      "+- tests beside the code",
    ].join("\n");
    const memoryProposal = proposal({ path: "/memories/style.md", diff, added: 1, removed: 0, memory: true });
    await view.send({
      type: "itemAppended",
      item: editTool("m1", { title: "Editing /memories/style.md", proposal: memoryProposal }),
    });
    const card = view.page.getByRole("region", { name: "Memory write to /memories/style.md" });
    await card.getByText("memory", { exact: true }).waitFor();
    await card.getByText(/every later task reads it\. Approve only what you want remembered/).waitFor();
    for (const line of ["Code style", "- single quotes", "- tests beside the code"])
      await card.getByText(line, { exact: true }).waitFor();
    await card.getByRole("button", { name: "/memories/style.md" }).click();
    assert.deepEqual(await view.waitForPosted("openFile"), { type: "openFile", path: "/memories/style.md" });
    await card.getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(await view.waitForPosted("approve"), { type: "approve", toolCallId: "m1" });
    await view.send({
      type: "itemUpdated",
      item: editTool("m1", { status: "done", proposal: { ...memoryProposal, outcome: "approved" } }),
    });
    await card.getByText("Approved", { exact: true }).waitFor();
    assert.equal(await card.getByRole("button", { name: /Restore/ }).count(), 0);
    await view.send({
      type: "itemAppended",
      item: editTool("e9", { status: "done", proposal: proposal({ outcome: "approved" }) }),
    });
    await view.page
      .getByRole("region", { name: "Proposed change to /src/slugify.js" })
      .getByRole("button", { name: /Restore/ })
      .waitFor();
    await view.page.context().close();
  });

  it("shows hidden characters and line breaks in what the person approves", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ items: [user("u1", "Run the tests")] }) });
    // Looks like `npm test` on one line; really a right-to-left override, a zero-width space and a second line.
    const command = "npm test \u202E#\u200B\nrm -rf ~/project";
    await view.send({
      type: "itemAppended",
      item: execTool("x9", {
        status: "awaiting_approval",
        title: "Running `npm test \u202E#\u200B ↵ rm -rf ~/project`",
        exec: { command, output: "" },
        alwaysAllow: null,
      }),
    });
    const card = view.page.getByRole("article", { name: /Needs approval/ });
    const shown = card.locator(".exec-command");
    await shown.waitFor();
    assert.equal(await shown.locator(".invisible-char[title^='U+202E']").count(), 1);
    assert.equal(await shown.locator(".invisible-char[title^='U+200B']").count(), 1);
    assert.equal(await shown.locator("br").count(), 1, "the second line starts on a line of its own");
    const text = await shown.innerText();
    assert.match(text, /U\+202E/);
    assert.match(text, /↵\s*\nrm -rf ~\/project/);
    const title = card.locator(".tool-title");
    assert.match(await title.innerText(), /U\+202E.*U\+200B.*↵ rm -rf/s);
    // A command that asks to leave the sandbox says so, and is never "always allowed".
    await view.send({
      type: "itemAppended",
      item: execTool("x10", {
        status: "awaiting_approval",
        title: "Running `make deploy`",
        exec: { command: "make deploy", output: "" },
        alwaysAllow: null,
        approvalReason: "It asks to run outside the OS sandbox, with your full rights (files, keys, network).",
      }),
    });
    const outside = view.page.getByRole("article", { name: "Running make deploy: Needs approval" });
    await outside.getByText("It asks to run outside the OS sandbox").waitFor();
    assert.equal(await outside.getByRole("button", { name: /Always allow/ }).count(), 0);
    // Any tool's arguments (an MCP tool's here) mark them too; JSON does not escape them.
    await view.send({
      type: "itemAppended",
      item: tool("x11", {
        toolName: "mcp__notes__save",
        title: "Calling save on the MCP server notes",
        status: "awaiting_approval",
        args: '{\n  "text": "pay alice\u202E ecilA yap"\n}',
        result: undefined,
      }),
    });
    const mcp = view.page.getByRole("article", { name: "Calling save on the MCP server notes: Needs approval" });
    await mcp.getByRole("button", { name: /Calling save/ }).click();
    const args = mcp.getByRole("group", { name: "Arguments" });
    assert.equal(await args.locator(".invisible-char[title^='U+202E']").count(), 1);
    assert.equal(await args.locator("br").count(), 0, "the JSON's own line breaks are not marked");
    await view.page.context().close();
  });

  it("shows the todo list with each status as icon and text, updated live", async () => {
    const view = await openWith({
      todos: [
        { content: "Read the code", status: "in_progress" },
        { content: "Fix it", status: "pending" },
      ],
    });
    const list = view.page.getByRole("list", { name: "Todos" });
    await list.waitFor();
    assert.deepEqual(await list.getByRole("listitem").allInnerTexts(), [
      "Read the code\nIn progress",
      "Fix it\nPending",
    ]);
    assert.equal(await list.locator(".codicon").count(), 2);
    await view.page.getByText("0 of 2 done").waitFor();
    await view.send({
      type: "todos",
      todos: [
        { content: "Read the code", status: "completed" },
        { content: "Fix it", status: "in_progress" },
        { content: "Run tests", status: "pending" },
      ],
    });
    await view.page.getByText("1 of 3 done").waitFor();
    assert.deepEqual(await list.getByRole("listitem").allInnerTexts(), [
      "Read the code\nDone",
      "Fix it\nIn progress",
      "Run tests\nPending",
    ]);
    // Collapsing keeps the progress and the current item in the heading.
    await view.page.getByRole("button", { name: /Todos/ }).click();
    await view.page.getByText(": Fix it").waitFor();
    await view.page.context().close();
  });
});
