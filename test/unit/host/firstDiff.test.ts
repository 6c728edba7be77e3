// Issue 40: in a window that has shown no diff editor yet, a request's Approve card does not wait
// for VS Code's first diff editor (no early diff; the diff opens once the card is on screen), and
// once one has opened, diffs open as before (a tick after the card's message). Without VS Code.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { CardWaits } from "../../../src/host/review/cardWaits";
import { FirstDiff } from "../../../src/host/review/firstDiff";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("FirstDiff", () => {
  afterEach(() => FirstDiff.forgetForTests());

  it("a fresh window: the diff opens once the card is shown, not before (however long the card takes)", async () => {
    const first = new FirstDiff(() => false);
    const waits = new CardWaits(60_000);
    const opened: string[] = [];
    assert.equal(first.warm, false, "no early diff while the model writes");
    first.schedule(
      () => opened.push("c1"),
      (run) => waits.after("c1", run),
    );
    await tick();
    assert.deepEqual(opened, [], "the diff editor does not start before the card is on screen");
    waits.shown("c1");
    assert.deepEqual(opened, ["c1"], "the card is on screen: the diff opens beside it");
  });

  it("a hidden chat never says: the diff opens after the card's wait anyway", async () => {
    const first = new FirstDiff(() => false);
    const waits = new CardWaits(1);
    const opened: string[] = [];
    first.schedule(
      () => opened.push("c1"),
      (run) => waits.after("c1", run),
    );
    await tick();
    assert.deepEqual(opened, ["c1"]);
  });

  it("once a diff editor opened in the window (or one is open), diffs open at once and early, as before", async () => {
    const first = new FirstDiff(() => false);
    first.opened();
    assert.equal(new FirstDiff(() => false).warm, true, "for every gate of the window");
    const opened: string[] = [];
    first.schedule(
      () => opened.push("c2"),
      () => assert.fail("a warm window does not wait for the card"),
    );
    await tick();
    assert.deepEqual(opened, ["c2"]);
    FirstDiff.forgetForTests();
    assert.equal(new FirstDiff(() => true).warm, true, "the person's own diff editor is open: the window is warm");
  });
});
