// Edit Selection (issue 29, part 3) through the real UI: the person opens a file, selects four
// lines and presses Ctrl+I; Escape in the quick input sends nothing; the instruction typed and
// Enter sends the selection to the model with no tools; the diff editor opens beside and shows
// the replacement as it streams in; Approve in the diff's title bar writes exactly the
// replacement, and nothing else of the file changes. The chat holds it as a task of its own.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { focusedQuickPickRow, openChat, until, withScriptedModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

const SELECTED = [
  "  return title",
  "    .toLowerCase()",
  "    .replace(/[^a-z0-9]+/g, '-')",
  "    .replace(/^-/, ''); // bug on purpose: a trailing \"-\" is kept",
].join("\n");
const REPLACEMENT = [
  "  return title",
  "    .trim()",
  "    .toLowerCase()",
  "    .replace(/[^a-z0-9]+/g, '-')",
  "    .replace(/^-|-$/g, ''); // no dash at either end",
].join("\n");
const INSTRUCTION = "trim the title and drop a dash at either end";

/** What the right side of the open diff shows (Monaco renders spaces as no-break spaces). */
async function proposedText(page: Page): Promise<string> {
  // Inline or side by side, deleted lines are a zone of their own: only the proposal's lines count.
  const lines = page.locator(".monaco-diff-editor .editor.modified .view-lines:not(.line-delete)");
  return (
    (await lines
      .first()
      .innerText()
      .catch(() => "")) || ""
  ).replace(/\u00a0/g, " ");
}

export const tests: E2ETest[] = [
  {
    name: "Inline edit: Ctrl+I on a selection, the proposal streams into the diff editor, Approve writes exactly the replacement",
    timeoutMs: 240_000,
    async run(ctx) {
      const { page } = ctx;
      const file = path.join(ctx.session.workspaceDir, "src", "slugify.js");
      const original = fs.readFileSync(file, "utf8");
      assert.ok(original.includes(`${SELECTED}\n`), "the fixture holds the lines the test selects");
      await withScriptedModel(ctx, async (server) => {
        // A fenced answer, streamed slowly enough to be seen arriving.
        server.push({ text: `\`\`\`js\n${REPLACEMENT}\n\`\`\``, chunkDelayMs: 120 });

        // The file in the editor, lines 7-10 selected (from the start of 7 to the start of 11).
        await page.keyboard.press("Control+P");
        const quickInput = page.locator(".quick-input-widget input");
        await quickInput.waitFor({ state: "visible", timeout: 15_000 });
        await quickInput.fill("slugify.js");
        await focusedQuickPickRow(page, "slugify.js").waitFor({ timeout: 15_000 });
        await page.keyboard.press("Enter");
        const editor = page
          .locator(".editor-group-container .monaco-editor")
          .filter({ hasText: "export function slugify" })
          .first();
        await editor.waitFor({ state: "visible", timeout: 30_000 });
        await editor.locator(".view-lines").click();
        await page.keyboard.press("Control+G");
        await quickInput.waitFor({ state: "visible", timeout: 15_000 });
        await quickInput.fill(":7");
        await page.keyboard.press("Enter");
        await page.keyboard.press("Home");
        await page.keyboard.press("Home");
        for (let i = 0; i < 4; i++) await page.keyboard.press("Shift+ArrowDown");

        // Ctrl+I asks for the instruction; Escape sends nothing.
        await page.keyboard.press("Control+I");
        const title = page.locator(".quick-input-widget .quick-input-title");
        await title.getByText("Fathom: Edit lines 7–10 of slugify.js").waitFor({ state: "visible", timeout: 15_000 });
        await ctx.screenshot("e2e-inline-edit-1-instruction");
        await page.keyboard.press("Escape");
        await quickInput.waitFor({ state: "hidden", timeout: 10_000 });
        await page.waitForTimeout(500);
        assert.equal(server.requests.length, 0, "Escape sent nothing");

        await editor.locator(".view-lines").waitFor({ state: "visible" });
        await page.keyboard.press("Control+I");
        await title.getByText("Fathom: Edit lines 7–10 of slugify.js").waitFor({ state: "visible", timeout: 15_000 });
        await page.keyboard.type(INSTRUCTION);
        await page.keyboard.press("Enter");

        // The diff opens beside and fills in as the answer streams: first the new line near the top, later the last one.
        const diff = page.locator(".editor-group-container .monaco-diff-editor").first();
        await diff.waitFor({ state: "visible", timeout: 60_000 });
        await page
          .locator(".tabs-container .tab")
          .filter({ hasText: /slugify\.js.*Fathom's proposal/ })
          .first()
          .waitFor({ state: "visible", timeout: 15_000 });
        await until(
          "part of the answer in the diff (.trim() in, the last line not yet)",
          async () => {
            const text = await proposedText(page);
            return text.includes(".trim()") && !text.includes("-$/g");
          },
          30_000,
          50,
        );
        await ctx.screenshot("e2e-inline-edit-2-streaming");
        await until(
          "the whole replacement in the diff",
          async () => (await proposedText(page)).includes("-$/g, ''); // no dash at either end"),
          60_000,
        );

        // The chat has it as a task: the person's message with its chip, and the edit's card.
        const chat = await openChat(page);
        await chat
          .getByText(`Edit src/slugify.js:7-10: ${INSTRUCTION}`)
          .first()
          .waitFor({ state: "visible", timeout: 30_000 });
        const card = chat.getByRole("region", { name: "Proposed change to /src/slugify.js" });
        await card.waitFor({ state: "visible", timeout: 30_000 });
        await card.getByRole("button", { name: "Approve" }).waitFor({ state: "visible", timeout: 15_000 });
        await ctx.screenshot("e2e-inline-edit-3-proposal");
        assert.equal(fs.readFileSync(file, "utf8"), original, "nothing written before the approval");

        // Approve from the diff editor's title bar.
        await diff.locator(".editor.modified .view-lines:not(.line-delete)").click();
        await page
          .locator(".editor-actions")
          .getByRole("button", { name: /Approve Proposed Change/ })
          .first()
          .click({ timeout: 15_000 });
        const expected = original.replace(`${SELECTED}\n`, `${REPLACEMENT}\n`);
        await until("the replacement on disk", () => fs.readFileSync(file, "utf8") === expected, 30_000);
        await chat.getByText("Replaced lines 7–10 of /src/slugify.js.").waitFor({ state: "visible", timeout: 30_000 });
        await card
          .getByText(/Approved/)
          .first()
          .waitFor({ state: "visible", timeout: 15_000 });
        await diff.waitFor({ state: "detached", timeout: 30_000 });
        assert.equal(fs.readFileSync(file, "utf8"), expected, "exactly the replacement, nothing else changed");
        await ctx.screenshot("e2e-inline-edit-4-approved");

        // What the model was sent: the selection and the instruction, no tools; and only once.
        assert.equal(server.requests.length, 1);
        const body = server.requests[0]!.body as { tools?: unknown; messages: { role: string; content: string }[] };
        assert.equal(body.tools, undefined, "no tools");
        const prompt = body.messages.map((m) => m.content).join("\n");
        assert.ok(prompt.includes(`<selection lines="7-10">\n${SELECTED}\n</selection>`), prompt);
        assert.ok(prompt.includes(`Instruction: ${INSTRUCTION}`));
        assert.ok(prompt.includes("File: /src/slugify.js (javascript)"));
      });
    },
  },
];
