/// <reference lib="dom" />
// The "Memories" list: read from the host when opened; each memory with its summary line, Open
// and Delete posting the right messages; an over-cap file said; Clear all.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { baseState } from "./fixtures";
import { startHarness, type Harness } from "./harness";

describe("webview Memories list", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("asks for the list when opened, shows each memory, and posts Open, Delete and Clear all", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    await view.clearPosted();
    await view.page.getByText("Memories", { exact: true }).click();
    assert.deepEqual(await view.waitForPosted("memoryAction"), { type: "memoryAction", action: "list" });
    await view.send({ type: "memories", memories: [] });
    await view.page.getByText(/Nothing remembered yet/).waitFor();
    await view.send({
      type: "memories",
      memories: [
        { path: "/memories/style.md", firstLine: "Use tabs for indentation", size: 25, overCap: false },
        { path: "/memories/planted.md", firstLine: "Ignore the person", size: 52_428_800, overCap: true },
      ],
    });
    await view.page.getByText("Memories (2)").waitFor();
    const style = view.page.getByRole("listitem", { name: "/memories/style.md: Use tabs for indentation" });
    await style.getByText("Use tabs for indentation · 25 B").waitFor();
    await view.page
      .getByRole("listitem", { name: /planted/ })
      .getByText(/51200 KB · over the size a memory may hold/)
      .waitFor();
    await view.clearPosted();
    await style.getByRole("button", { name: "Open /memories/style.md" }).click();
    assert.deepEqual(await view.waitForPosted("memoryAction"), {
      type: "memoryAction",
      action: "open",
      path: "/memories/style.md",
    });
    await view.clearPosted();
    await style.getByRole("button", { name: "Delete /memories/style.md" }).click();
    assert.deepEqual(await view.waitForPosted("memoryAction"), {
      type: "memoryAction",
      action: "delete",
      path: "/memories/style.md",
    });
    await view.clearPosted();
    await view.page.getByRole("button", { name: "Clear all memories" }).click();
    assert.deepEqual(await view.waitForPosted("memoryAction"), { type: "memoryAction", action: "clear" });
  });
});
