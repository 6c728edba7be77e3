/// <reference lib="dom" />
// The "Changes" list (review after, issue 42): each file with its +/− counts and a conflict's
// reason; a row opens its diff; Keep / Undo per file and for all post the right messages; the
// list goes when the host says nothing is left; and the worktree's file list is unchanged by it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { baseState } from "./fixtures";
import { startHarness, type Harness } from "./harness";

describe("webview Changes list", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("shows the files with counts and conflicts; open, Keep, Undo, Keep all and Undo all post their messages", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    await view.send({
      type: "changes",
      changes: {
        files: [
          { path: "/src/a.ts", created: false, added: 3, removed: 1, hunks: 2, conflicts: [] },
          {
            path: "/src/new.ts",
            created: true,
            added: 5,
            removed: 0,
            hunks: 1,
            conflicts: ["you changed these lines after Fathom: undo them by hand, or Keep them"],
          },
        ],
      },
    });
    const list = view.page.getByRole("region", { name: "Changes" });
    await list.getByText("Changes · 2 files to review").waitFor();
    const row = (p: string) => list.getByRole("listitem").filter({ hasText: p });
    await row("/src/a.ts").getByText("+3").waitFor();
    await row("/src/a.ts").getByText("−1").waitFor();
    await row("/src/new.ts")
      .getByText(/Some changes cannot be undone: you changed these lines after Fathom/)
      .waitFor();
    const cases: [string, object][] = [
      ["/src/a.ts, modified, 3 added, 1 removed: open its diff", { action: "open", path: "/src/a.ts" }],
      ["Keep /src/a.ts", { action: "keep", path: "/src/a.ts" }],
      ["Undo /src/new.ts", { action: "undo", path: "/src/new.ts" }],
      ["Keep all changes", { action: "keep" }],
      ["Undo all changes", { action: "undo" }],
    ];
    for (const [name, expected] of cases) {
      await view.clearPosted();
      await list.getByRole("button", { name, exact: true }).click();
      assert.deepEqual(await view.waitForPosted("changesAction"), { type: "changesAction", ...expected });
    }
    await view.send({ type: "changes", changes: null });
    await list.waitFor({ state: "detached" });
  });
});
