// `npm run demo` through the UI: the same startDemo() as the command (its own code-server with
// FATHOM_DEMO=1 and the recorded model), driven by a person's clicks: the chat says it is a
// demo, any message starts the recording, the diff card waits for Approve, the fix is written,
// the tests run (and pass) in the "Fathom" terminal, and the final answer arrives.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { approveAllRequests, loadDemoCassette } from "../../fixtures/demo/recording.js";
import { startDemo } from "../demo.js";
import { openWorkbench } from "../harness/browser.js";
import { openChat, send } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { ensureCodeServer, findVsix, makeTempDir } from "../harness/paths.js";

const FIXED = ".replace(/^-|-$/g, ''); // no dash at either end";

/** What the integrated terminal shows (its DOM renderer: GPU acceleration is off for this window). */
async function terminalText(page: Page): Promise<string> {
  return (
    await page
      .locator(".terminal-wrapper .xterm-rows")
      .allInnerTexts()
      .catch(() => [] as string[])
  ).join("\n");
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const tests: E2ETest[] = [
  {
    name: "Demo: the recorded session plays through the UI: demo badge, todos, diff approved, tests pass in the terminal, final answer",
    timeoutMs: 300_000,
    async run(ctx) {
      const { page } = ctx;
      const stateDir = makeTempDir("demo");
      const demo = await startDemo({
        port: 0,
        stateDir,
        install: await ensureCodeServer(),
        vsix: findVsix(),
        settings: { "terminal.integrated.gpuAcceleration": "off" },
        env: { XDG_DATA_HOME: path.join(stateDir, "xdg-data") },
      });
      try {
        const file = path.join(demo.workspaceDir, "src", "slugify.js");
        const before = fs.readFileSync(file, "utf8");
        assert.ok(!before.includes(FIXED), "the demo starts with the bug in place");
        await openWorkbench(page, demo.server.folderUrl());
        const chat = await openChat(page);

        // Marked as a demo before anything is sent, with the recorded model's name.
        await chat
          .getByRole("banner")
          .getByText("Demo: a recorded session, no real model")
          .waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByRole("banner").getByText("recorded-demo").waitFor({ state: "visible", timeout: 10_000 });

        await send(chat, demo.prompt);
        // Plans with todos, then searches and reads.
        const todos = chat.getByRole("list", { name: "Todos" });
        await todos.getByText("Find the failing slugify test").waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByText("Reading /src/slugify.js").first().waitFor({ state: "visible", timeout: 30_000 });
        await ctx.screenshot("e2e-demo-todos");

        // The edit: a diff card in the chat, the proposal beside it; nothing written until Approve.
        const card = chat.getByRole("region", { name: /Proposed change to \/?src\/slugify\.js/ });
        await card.waitFor({ state: "visible", timeout: 60_000 });
        await chat.getByText("Found the cause.").waitFor({ state: "visible", timeout: 10_000 });
        await page
          .locator(".tabs-container .tab")
          .filter({ hasText: "Fathom's proposal" })
          .first()
          .waitFor({ state: "visible", timeout: 15_000 });
        await new Promise((r) => setTimeout(r, 1500)); // the demo waits for the person, however long they look
        assert.equal(fs.readFileSync(file, "utf8"), before, "nothing is written before the person approves");
        await ctx.screenshot("e2e-demo-diff");
        await card.getByRole("button", { name: "Approve" }).click();
        await until("the fix on disk", async () => fs.readFileSync(file, "utf8").includes(FIXED), 15_000);
        assert.equal(
          fs.readFileSync(file, "utf8"),
          before.replace(/ {4}\.replace\(\/\^-\/, ''\);.*$/m, `    ${FIXED}`),
        );

        // The tests: asked for, then run in the "Fathom" terminal, and they pass.
        const run = chat.getByRole("group", { name: "Approval for execute" });
        await run.waitFor({ state: "visible", timeout: 30_000 });
        await run.getByRole("button", { name: "Approve" }).click();
        await until("the test run in the terminal", async () => /pass 2/.test(await terminalText(page)), 60_000);
        await page
          .locator(".terminal-tabs-entry, .single-terminal-tab, .panel .composite.title")
          .filter({ hasText: "Fathom" })
          .first()
          .waitFor({ state: "visible", timeout: 10_000 });
        // The command line itself may have scrolled out of the terminal's visible rows; npm's
        // banner for the test script says the same.
        assert.match(await terminalText(page), /npm test|> sample-workspace@[\d.]+ test/);
        assert.match(await terminalText(page), /fail 0/);
        await chat.getByText("Both tests pass.").waitFor({ state: "visible", timeout: 30_000 });
        await ctx.screenshot("e2e-demo-terminal");

        // The final answer; every todo done; the recording played each step once.
        await chat.getByText("Fixed: both tests in").waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByText(/One thing to know/).waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByText("4 of 4 done").waitFor({ state: "visible", timeout: 10_000 });
        assert.equal(
          demo.replay.divergence?.report,
          undefined,
          "every request Fathom sent in VS Code was answered from the recording",
        );
        assert.equal(demo.model.requests.length, approveAllRequests(loadDemoCassette()));
        const last = JSON.stringify(demo.model.requests.at(-1)!.body);
        assert.match(last, /\[Exit code: 0\]/);
        await chat.getByRole("button", { name: "Send" }).waitFor({ state: "visible", timeout: 10_000 });
        await ctx.screenshot("e2e-demo-done");
      } finally {
        await demo.stop();
        if (process.env.FATHOM_KEEP_TMP !== "1") fs.rmSync(stateDir, { recursive: true, force: true });
      }
    },
  },
];
