/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// The header's Approvals box (issue 42, permission levels): the person's level, what lowers it,
// and Autopilot where the OS sandbox cannot run.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AUTOPILOT_NEEDS_SANDBOX } from "../../src/core/trust/approvalLevels";
import { baseState } from "./fixtures";
import { startHarness, type Harness } from "./harness";

describe("webview approvals", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("shows the level, sends the pick, and follows the host's answer", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    const box = view.page.getByRole("combobox", { name: "Approvals" });
    assert.equal(await box.count(), 0, "no box before the host said the level");
    await view.send({ type: "approvals", approvals: { level: "ask", chosen: "ask" } });
    assert.equal(await box.inputValue(), "ask");
    assert.deepEqual(await box.locator("option").allTextContents(), ["Ask", "Edits auto, review after", "Autopilot"]);
    await box.selectOption("editsAuto");
    assert.deepEqual(await view.waitForPosted("setApprovals"), { type: "setApprovals", level: "editsAuto" });
    await view.send({ type: "approvals", approvals: { level: "editsAuto", chosen: "editsAuto" } });
    await view.page.waitForFunction(
      () => (document.querySelector('select[aria-label="Approvals"]') as HTMLSelectElement).value === "editsAuto",
    );
    await view.page.context().close();
  });

  it("says when the level in force is lower than the pick, and why Autopilot cannot be picked", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    const lowered =
      "This workspace's settings lower fathom.approvals to Ask (a workspace may lower the level, never raise it).";
    await view.send({ type: "approvals", approvals: { level: "ask", chosen: "editsAuto", lowered } });
    const box = view.page.getByRole("combobox", { name: "Approvals" });
    assert.equal(await box.inputValue(), "editsAuto");
    assert.equal(await box.getAttribute("aria-describedby"), "approvals-note");
    assert.equal((await view.page.locator("#approvals-note").textContent())?.includes(`Using Ask: ${lowered}`), true);

    await view.send({
      type: "approvals",
      approvals: { level: "editsAuto", chosen: "editsAuto", autopilotUnavailable: AUTOPILOT_NEEDS_SANDBOX },
    });
    const autopilot = box.locator('option[value="autopilot"]', { hasText: "Autopilot (needs the OS sandbox)" });
    await autopilot.waitFor({ state: "attached" });
    assert.equal(await autopilot.isDisabled(), true);
    await view.page.locator("#approvals-note").waitFor({ state: "detached" });
    await view.page.context().close();
  });
});
