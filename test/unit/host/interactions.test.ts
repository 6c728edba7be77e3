import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolItem, UserItem, AssistantItem } from "../../../src/protocol";
import { sendWithCommand } from "../../../src/host/chatView/chatCommands";
import { makeKit, until } from "./sessionKit";

const PLAN = "## Goal\nA flag.\n## Steps\n1. Read main.ts\n2. Add --verbose\n## Files\n- main.ts\n## Risks\n- none";
/** The task as saved, once it was saved waiting for the person (a save is issued a tick after the card). */
async function savedWhileWaiting(kit: ReturnType<typeof makeKit>) {
  for (let i = 0; ; i++) {
    await kit.store.flush();
    const saved = await kit.store.load(kit.session.state.taskId!);
    if (!("error" in saved) && saved.status === "awaiting_approval") return saved;
    if (i > 200) throw new Error(`not saved as waiting: ${JSON.stringify(saved).slice(0, 200)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const card = (items: readonly { kind: string }[], toolName: string) =>
  items.find((i) => i.kind === "tool" && (i as ToolItem).toolName === toolName) as ToolItem | undefined;

describe("questions, steering and plans in the chat", () => {
  it("a question shows as a card waiting for the person; a button's answer continues the task", async () => {
    const kit = makeKit([
      {
        toolCalls: [
          { id: "q1", name: "ask_user", arguments: { question: "Which database?", choices: ["Postgres", "SQLite"] } },
        ],
      },
      { text: "SQLite then." },
    ]);
    await kit.session.send("add storage");
    await until(() => kit.session.state.status === "awaiting_approval");
    const asked = card(kit.session.state.items, "ask_user")!;
    assert.deepEqual(asked.question, { text: "Which database?", choices: ["Postgres", "SQLite"], allowFreeText: true });
    assert.equal(asked.title, "Asking you: Which database?");
    assert.equal(kit.model.requests.length, 1, "no request while it waits");
    // Saved while it waits: a reload finds the question.
    const saved = await savedWhileWaiting(kit);
    assert.equal(
      saved.items.some((i) => i.kind === "tool" && i.question?.text === "Which database?"),
      true,
    );
    kit.session.answer(asked.id, "SQLite");
    await kit.session.whenIdle();
    const answered = card(kit.session.state.items, "ask_user")!;
    assert.equal(answered.question!.answer, "SQLite");
    assert.equal(answered.status, "done");
    assert.equal(kit.model.requests[1]!.messages.at(-1)!.content, "The person answered: SQLite");
  });

  it("a question cut off by a reload is asked again on Resume", async () => {
    const kit = makeKit([
      { toolCalls: [{ id: "q1", name: "ask_user", arguments: { question: "Tabs?", choices: ["yes", "no"] } }] },
    ]);
    await kit.session.send("format");
    await until(() => kit.session.state.status === "awaiting_approval");
    await savedWhileWaiting(kit);
    kit.session.dispose();
    const next = kit.reopen();
    await next.session.whenReady();
    assert.equal(next.session.state.status, "interrupted");
    assert.ok(
      next.session.state.items.some((i) => i.kind === "notice" && /waiting for your answer to "Tabs\?"/.test(i.text)),
    );
    (next.model as unknown as { push(...t: unknown[]): void }).push({ text: "Tabs it is." });
    await next.session.retry();
    await until(() => next.session.state.status === "awaiting_approval");
    next.session.answer(card(next.session.state.items, "ask_user")!.id, "yes");
    await next.session.whenIdle();
    assert.equal(next.session.state.status, "completed");
    assert.equal(next.model.requests[0]!.messages.at(-1)!.content, "The person answered: yes");
  });

  it("Send now: a message sent while a command runs reaches the next request and shows where it was read; Queue waits", async () => {
    const kit = makeKit(
      [
        { toolCalls: [{ name: "execute", arguments: { command: "sleep 0.5" } }] },
        { text: "Switched." },
        { text: "Queued one done." },
      ],
      { settings: { "autoApprove.execute": true } },
    );
    await kit.session.send("run it");
    await until(() => card(kit.session.state.items, "execute")?.status === "running");
    await kit.session.send("use the other file");
    await kit.session.send("and later this", undefined, { queue: true });
    assert.deepEqual(kit.session.state.queued, ["and later this"]);
    await kit.session.whenIdle();
    const second = kit.model.requests[1]!.messages;
    assert.deepEqual(
      second.slice(-2).map((m) => m.role),
      ["tool", "user"],
    );
    assert.equal(second.at(-1)!.content, "use the other file");
    const items = kit.session.state.items;
    const steered = items.findIndex((i) => i.kind === "user" && (i as UserItem).steered);
    assert.ok(steered > items.findIndex((i) => i.kind === "tool"), "shown after the command's card");
    assert.equal((items[steered] as UserItem).text, "use the other file");
    assert.equal(kit.model.requests[2]!.messages.at(-1)!.content, "and later this");
  });

  it("/plan runs in Plan mode; the Plan card is edited and started: Act, its steps as todos, the plan in the request", async () => {
    const kit = makeKit([{ text: PLAN }, { text: "Done." }]);
    await sendWithCommand(kit.session, { type: "sendMessage", text: "/plan add a verbose flag" });
    await kit.session.whenIdle();
    assert.ok(!kit.model.requests[0]!.toolNames.includes("write_file"));
    assert.equal(kit.session.state.mode, "plan");
    const planCard = kit.session.state.items.find((i) => i.kind === "assistant") as AssistantItem;
    assert.deepEqual(planCard.plan, { status: "proposed" });
    assert.equal((kit.session.state.items.find((i) => i.kind === "user") as UserItem).text, "add a verbose flag");
    const edited = PLAN.replace("2. Add --verbose", "2. Add --verbose\n3. Document it");
    await kit.session.startPlan(planCard.id, edited);
    await kit.session.whenIdle();
    assert.equal(kit.session.state.mode, "act");
    assert.deepEqual(
      kit.session.state.todos.map((t) => t.content),
      ["Read main.ts", "Add --verbose", "Document it"],
    );
    assert.ok(kit.model.requests[1]!.toolNames.includes("write_file"));
    assert.ok(kit.model.requests[1]!.messages.at(-1)!.content.includes("3. Document it"));
    const started = kit.session.state.items.find((i) => i.id === planCard.id) as AssistantItem;
    assert.deepEqual(started.plan, { status: "started" });
    // Saved with the task: a reload shows the started plan.
    await kit.store.flush();
    const saved = await kit.store.load(kit.session.state.taskId!);
    assert.ok(!("error" in saved));
    assert.equal(saved.runState!.plan!.status, "started");
  });

  it("/compact summarizes the conversation now and says how many tokens it freed", async () => {
    const long = "details ".repeat(400);
    const kit = makeKit([
      { text: `First answer. ${long}` },
      { text: `Second answer. ${long}` },
      { text: "Summary: two questions answered." },
    ]);
    await kit.session.send(`first question ${long}`);
    await kit.session.whenIdle();
    await kit.session.send("second question");
    await kit.session.whenIdle();
    await sendWithCommand(kit.session, { type: "sendMessage", text: "/compact" });
    assert.equal(kit.model.requests.length, 3);
    assert.equal(kit.model.requests[2]!.toolNames.length, 0, "the summary request has no tools");
    const notice = kit.session.state.items.filter((i) => i.kind === "notice").at(-1) as { text: string };
    assert.match(notice.text, /^Summarized 3 earlier messages on request \(\/compact\)\. About [\d,]+ tokens freed\.$/);
    const freed = Number(/About ([\d,]+) tokens/.exec(notice.text)![1]!.replace(/,/g, ""));
    assert.ok(freed > 300, `${freed} tokens freed`);
    await kit.store.flush();
    const saved = await kit.store.load(kit.session.state.taskId!);
    assert.ok(!("error" in saved));
    assert.match(saved.runState!.messages[0]!.content, /^\[Summary of the earlier conversation/);
  });
});
