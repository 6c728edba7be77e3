// Tasks at once (issue 20) without VS Code: the window's limit (a run past it waits, a cancel
// ends the wait, a freed slot starts the next), a new task beside a running one, the list of
// open tasks with which one needs the person, every approval naming its task, and Close.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ParallelView } from "../../../src/protocol";
import { Log } from "../../../src/host/log";
import { TaskManager } from "../../../src/host/tasks/taskManager";
import { TaskSlots } from "../../../src/host/tasks/taskSlots";
import type { ChatSession } from "../../../src/host/tasks/chatSession";
import { makeKit, until, type Kit } from "./sessionKit";

describe("TaskSlots", () => {
  it("waits past the limit, first come first served; a cancel ends the wait; raising the limit starts waiters", async () => {
    let max = 1;
    const slots = new TaskSlots(() => max);
    const waits: number[] = [];
    const first = await slots.acquire(new AbortController().signal, () => waits.push(1));
    const order: string[] = [];
    const second = slots
      .acquire(new AbortController().signal, (n) => waits.push(n))
      .then((r) => (order.push("second"), r));
    const cancelled = new AbortController();
    const third = slots.acquire(cancelled.signal, () => undefined).then((r) => (order.push("third"), r));
    const fourth = slots.acquire(new AbortController().signal, () => undefined).then((r) => (order.push("fourth"), r));
    assert.deepEqual(waits, [1]);
    cancelled.abort();
    await third;
    assert.deepEqual(order, ["third"], "a cancelled wait ends at once, holding no slot");
    assert.equal(slots.inUse, 1);
    first();
    first(); // twice is once
    const releaseSecond = await second;
    assert.deepEqual(order, ["third", "second"]);
    assert.equal(slots.inUse, 1);
    max = 2;
    slots.next();
    await fourth;
    assert.equal(slots.inUse, 2);
    releaseSecond();
    assert.equal(slots.inUse, 1);
  });
});

describe("TaskManager", () => {
  it("runs a new task beside one waiting for the person, within the limit, and lists both", async () => {
    const slots = new TaskSlots(() => 1);
    const write = (id: string, file: string) => [
      { toolCalls: [{ id, name: "write_file", arguments: { file_path: file, content: `${id}\n` } }] },
      { text: `${id} done` },
    ];
    const first = makeKit(write("a1", "/a.txt"), { env: { slots } });
    const kits: Kit[] = [first];
    const shown: ChatSession[] = [];
    const lines: string[] = [];
    const manager = new TaskManager({
      first: first.session,
      create: () => {
        const kit = makeKit(write("b1", "/b.txt"), {
          root: first.root,
          storage: first.storage,
          env: { slots },
          sessionOptions: { reopen: false },
        });
        kits.push(kit);
        return kit.session;
      },
      show: (s) => shown.push(s),
      worktreeByDefault: () => false,
      maxParallel: () => 1,
      log: new Log({
        trace: (m) => lines.push(m),
        debug: (m) => lines.push(m),
        info: (m) => lines.push(m),
        warn: (m) => lines.push(m),
        error: (m) => lines.push(String(m)),
      }),
    });
    const parallel = (): ParallelView => manager.shown.state.parallel;

    await first.session.send("Task A");
    await until(() => first.session.state.status === "awaiting_approval");
    assert.equal(first.gate.requests[0]?.task?.title, "Task A", "the approval says which task asks");

    await manager.newTask();
    assert.equal(manager.sessions.length, 2);
    const b = kits[1]!;
    assert.equal(manager.shown, b.session);
    assert.deepEqual(
      parallel().tasks.map((t) => [t.title, t.status, t.needsYou, t.shown]),
      [
        ["Task A", "awaiting_approval", true, false],
        ["New task", "idle", false, true],
      ],
    );

    // Past the limit of 1: B waits until A ends.
    await b.session.send("Task B");
    await until(() =>
      b.session.state.items.some((i) => i.kind === "notice" && /Waiting to start: 1 tasks are running/.test(i.text)),
    );
    assert.equal(b.model.requests.length, 0, "B has not called its model");
    first.session.approve(first.session.state.items.find((i) => i.kind === "tool")!.id);
    await first.session.whenIdle();
    await until(() => b.session.state.status === "awaiting_approval");
    assert.equal(b.gate.requests[0]?.task?.title, "Task B");
    await until(
      () =>
        parallel()
          .tasks.map((t) => t.status)
          .join() === "completed,awaiting_approval",
    );

    // A finished task stays listed while the person switches; Close takes it out (a running one cannot be closed).
    const [keyA, keyB] = parallel().tasks.map((t) => t.key);
    manager.switchTo(keyA!);
    assert.equal(manager.shown, first.session);
    manager.switchTo(keyB!);
    assert.equal(manager.sessions.length, 2);
    await manager.closeTask(keyB!);
    assert.equal(manager.sessions.length, 2, "a task waiting for the person stays");
    await manager.closeTask(keyA!);
    assert.deepEqual(
      parallel().tasks.map((t) => t.title),
      ["Task B"],
    );
    assert.equal(manager.shown, b.session);
    b.session.approve(b.session.state.items.find((i) => i.kind === "tool")!.id);
    await b.session.whenIdle();
    assert.equal(b.session.state.status, "completed");
    // Opening a saved task that is not open, while nothing runs, loads it in place.
    await manager.openTask(first.session.state.taskId ?? "");
    manager.dispose();
  });
});
