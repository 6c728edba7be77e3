// Getting started in a real VS Code: the walkthrough opens by itself once (the first time the
// chat is shown, when the person's setting allows it) and never again after a reload, only when
// asked; and "Fathom: Try the Demo Task" opens a fresh copy of the sample project in a new
// window where the bundled recording plays the model, with no model server and no key.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { openWorkbench } from "../harness/browser.js";
import { openChat, runCommand, send, until } from "../harness/chat.js";
import { screenshot, type E2ETest } from "../harness/e2e.js";

const WALKTHROUGH_TITLE = "Get Started with Fathom";
const FIXED = ".replace(/^-|-$/g, ''); // no dash at either end";

/** The walkthrough's page (VS Code's Welcome editor showing Fathom's walkthrough). */
function walkthrough(page: Page) {
  return page.locator(".gettingStartedContainer").getByText(WALKTHROUGH_TITLE).first();
}

export const tests: E2ETest[] = [
  {
    name: "Getting started: the walkthrough opens once when the chat is first shown, not after a reload; Fathom: Get Started opens it",
    settings: { "workbench.welcomePage.walkthroughs.openOnInstall": true },
    async run(ctx) {
      const { page } = ctx;
      const chat = await openChat(page);
      await walkthrough(page).waitFor({ state: "visible", timeout: 30_000 });
      for (const step of ["Choose a model", "Try the recorded demo task", "Run a first task", "Work from the editor"]) {
        await page
          .locator(".gettingStartedContainer")
          .getByText(step)
          .first()
          .waitFor({ state: "visible", timeout: 10_000 });
      }
      // The focus ends in the chat the person opened (the page takes it for a moment when it shows).
      await page.waitForTimeout(2_000);
      await until("the focus back in the chat view", () => chat.evaluate(() => document.hasFocus()), 10_000);
      await ctx.screenshot("e2e-getting-started-walkthrough");

      await runCommand(page, "View: Close All Editors");
      await walkthrough(page).waitFor({ state: "hidden", timeout: 10_000 });
      // VS Code's own reload saves the window's state first (a bare page reload may not, and
      // would bring the walkthrough back as an editor to restore).
      const reloaded = page.waitForEvent("load", { timeout: 60_000 });
      await runCommand(page, "Developer: Reload Window");
      await reloaded;
      await openChat(page);
      // Long enough for it to have opened had it wanted to (it opens right after the view shows).
      await page.waitForTimeout(5_000);
      assert.equal(await walkthrough(page).isVisible(), false, "the walkthrough does not open again unasked");

      await runCommand(page, "Fathom: Get Started");
      await walkthrough(page).waitFor({ state: "visible", timeout: 30_000 });
    },
  },
  {
    name: "Getting started: Fathom: Try the Demo Task opens the demo in a new window; the recording plays there with no model server and no key",
    timeoutMs: 300_000,
    settings: { "terminal.integrated.gpuAcceleration": "off" },
    async run(ctx) {
      const { page } = ctx;
      await openChat(page);
      const opened = page.context().waitForEvent("page", { timeout: 60_000 });
      await runCommand(page, "Fathom: Try the Demo Task");
      const demoPage = await opened;
      demoPage.setDefaultTimeout(30_000);
      await demoPage.waitForURL(/[?&]folder=/, { timeout: 60_000 });
      const folder = decodeURIComponent(new URL(demoPage.url()).searchParams.get("folder") ?? "");
      assert.match(
        path.basename(path.dirname(folder)),
        /^fathom-demo-/,
        `a fresh copy in a temporary folder (${folder})`,
      );
      try {
        const file = path.join(folder, "src", "slugify.js");
        const before = fs.readFileSync(file, "utf8");
        assert.ok(!before.includes(FIXED), "the demo starts with the bug in place");
        await openWorkbench(demoPage, demoPage.url());
        const chat = await openChat(demoPage);

        // Marked as a demo, with the recording's model, and nothing to set up.
        await chat
          .getByRole("banner")
          .getByText("Demo: a recorded session, no real model")
          .waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByRole("banner").getByText("recorded-demo").waitFor({ state: "visible", timeout: 10_000 });
        await chat.getByText("Send any message to start it").waitFor({ state: "visible", timeout: 10_000 });
        assert.equal(await chat.getByRole("button", { name: /Set API Key/ }).count(), 0, "no key is asked for");

        await send(chat, "The test for slugify fails. Find out why and fix it.");
        await chat
          .getByRole("list", { name: "Todos" })
          .getByText("Find the failing slugify test")
          .waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByText("Reading /src/slugify.js").first().waitFor({ state: "visible", timeout: 30_000 });
        const card = chat.getByRole("region", { name: /Proposed change to \/?src\/slugify\.js/ });
        await card.waitFor({ state: "visible", timeout: 60_000 });
        await chat.getByText("Found the cause.").waitFor({ state: "visible", timeout: 10_000 });
        assert.equal(fs.readFileSync(file, "utf8"), before, "nothing is written before the person approves");
        await screenshot(demoPage, "e2e-getting-started-demo-diff");
        await card.getByRole("button", { name: "Approve" }).click();
        await until("the fix on disk", () => fs.readFileSync(file, "utf8").includes(FIXED), 15_000);

        const run = chat.getByRole("group", { name: "Approval for execute" });
        await run.waitFor({ state: "visible", timeout: 30_000 });
        await run.getByRole("button", { name: "Approve" }).click();
        await chat.getByText("Fixed: both tests in").waitFor({ state: "visible", timeout: 90_000 });
        await chat.getByText("4 of 4 done").waitFor({ state: "visible", timeout: 10_000 });
        await screenshot(demoPage, "e2e-getting-started-demo-done");

        // A question the recording has no answer for gets its closing note, not an error.
        await send(chat, "What else can you do?");
        await chat.getByText("This is a recorded demo").waitFor({ state: "visible", timeout: 30_000 });
      } finally {
        await demoPage.close().catch(() => undefined);
        if (process.env.FATHOM_KEEP_TMP !== "1") fs.rmSync(path.dirname(folder), { recursive: true, force: true });
      }
    },
  },
];
