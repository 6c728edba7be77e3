/// <reference lib="dom" />
// Questions (ask_user), the Plan card, the Plan / Act switch and Send now / Queue against a fake host.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TranscriptItem } from "../../src/protocol";
import { baseState, tool, user } from "./fixtures";
import { startHarness, type Harness, type WebviewPage } from "./harness";

const question = (fields: Record<string, unknown> = {}) =>
  tool("q1", {
    toolName: "ask_user",
    title: "Asking you: Which database?",
    status: "awaiting_approval",
    result: undefined,
    endedAt: undefined,
    question: { text: "Which database?", choices: ["Postgres", "SQLite"], allowFreeText: true },
    ...fields,
  });
const PLAN = "## Steps\n1. Read main.ts\n2. Add --verbose";

describe("webview: questions, plans, modes and steering", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  async function openWith(items: TranscriptItem[], state: Parameters<typeof baseState>[0] = {}): Promise<WebviewPage> {
    const view = await harness.open({ height: 900 });
    await view.send({
      type: "state",
      state: baseState({ status: "running", items: [user("u1", "Go"), ...items], ...state }),
    });
    await view.page.getByText("Go", { exact: true }).waitFor();
    return view;
  }

  it("a question's choice is answered by its button; then the card shows the answer", async () => {
    const view = await openWith([question()], { status: "awaiting_approval" });
    const group = view.page.getByRole("group", { name: "Question from Fathom" });
    await group.getByText("Which database?").waitFor();
    await group.getByRole("button", { name: "SQLite" }).click();
    assert.deepEqual(await view.waitForPosted("answerQuestion"), {
      type: "answerQuestion",
      toolCallId: "q1",
      answer: "SQLite",
    });
    await view.send({
      type: "itemUpdated",
      item: question({
        status: "done",
        question: { text: "Which database?", choices: ["Postgres", "SQLite"], allowFreeText: true, answer: "SQLite" },
      }),
    });
    await group.getByText("Your answer: SQLite").waitFor();
    assert.equal(await group.getByRole("button", { name: "SQLite" }).count(), 0);
    await view.page.context().close();
  });

  it("a free-text answer is typed in the card's field", async () => {
    const view = await openWith([question()], { status: "awaiting_approval" });
    await view.page.getByRole("textbox", { name: "Your answer" }).fill("MariaDB, please");
    await view.page.getByRole("button", { name: "Answer" }).click();
    assert.deepEqual(await view.waitForPosted("answerQuestion"), {
      type: "answerQuestion",
      toolCallId: "q1",
      answer: "MariaDB, please",
    });
    await view.page.context().close();
  });

  it("the Plan card is edited in place and started with the edits", async () => {
    const view = await openWith(
      [{ id: "a1", kind: "assistant", text: PLAN, streaming: false, plan: { status: "proposed" } }],
      { status: "completed", mode: "plan" },
    );
    const card = view.page.getByRole("article", { name: "Plan" });
    await card.getByText("Read main.ts").waitFor();
    await card.getByRole("button", { name: "Edit" }).click();
    const editor = card.getByRole("textbox", { name: "Edit the plan" });
    await editor.fill(`${PLAN}\n3. Document it`);
    await card.getByRole("button", { name: "Start" }).click();
    assert.deepEqual(await view.waitForPosted("startPlan"), {
      type: "startPlan",
      itemId: "a1",
      text: `${PLAN}\n3. Document it`,
    });
    await view.send({
      type: "itemUpdated",
      item: {
        id: "a1",
        kind: "assistant",
        text: `${PLAN}\n3. Document it`,
        streaming: false,
        plan: { status: "started" },
      },
    });
    await card.getByText("started").waitFor();
    assert.equal(await card.getByRole("button", { name: "Start" }).count(), 0);
    await view.page.context().close();
  });

  it("the Plan / Act switch starts from the task's mode; /plan alone switches to Plan; Plan goes with the message", async () => {
    const view = await openWith([], { status: "completed" });
    const plan = view.page.getByRole("button", { name: "Plan", exact: true });
    assert.equal(await plan.getAttribute("aria-pressed"), "false");
    const box = view.page.getByRole("textbox", { name: "Message" });
    await box.fill("/plan");
    await box.press("Enter");
    await view.page.waitForFunction(() =>
      document.querySelector("[aria-label='Mode'] button[aria-pressed='true']")?.textContent?.includes("Plan"),
    );
    assert.equal((await view.posted()).filter((m) => m.type === "sendMessage").length, 0);
    await box.fill("add a flag");
    await box.press("Enter");
    assert.deepEqual(await view.waitForPosted("sendMessage"), {
      type: "sendMessage",
      text: "add a flag",
      mode: "plan",
    });
    await view.page.context().close();
  });

  it("while a task runs, Enter sends now and Queue waits; a message read mid-task is marked", async () => {
    const view = await openWith([]);
    const box = view.page.getByRole("textbox", { name: "Message" });
    await box.fill("use tabs");
    await box.press("Enter");
    assert.deepEqual(await view.waitForPosted("sendMessage"), { type: "sendMessage", text: "use tabs" });
    await view.clearPosted();
    await box.fill("then the docs");
    await view.page.getByRole("button", { name: "Queue" }).click();
    assert.deepEqual(await view.waitForPosted("sendMessage"), {
      type: "sendMessage",
      text: "then the docs",
      queue: true,
    });
    await view.send({ type: "itemAppended", item: { id: "u2", kind: "user", text: "use tabs", steered: true } });
    await view.page.getByText("sent while it worked").waitFor();
    await view.page.context().close();
  });
});
